import { FIELD_BITS, FIELD_COUNT, FIELD_ID } from "./fields.ts";
import type { ImpactCache } from "./impact-cache.ts";
import { ImpactMaker } from "./impact-maker.ts";
import { IMPACT_FLAG_BITS, IMPACT_OUTSIDE_VALUE, type Impacts } from "./impacts.ts";
import type { InvertedIndex } from "./inverted-index.ts";
import type { RankingOptions } from "./ranking-options.ts";

// Postings pack `slot << FIELD_BITS | field`: the slot and field a norm is worked out for.
if (FIELD_COUNT > 1 << FIELD_BITS) throw new Error("FIELD_COUNT must fit in FIELD_BITS bits");

export interface QueryTerm {
  id: number;
  idf: number;
  /** Query-side weight of the term (1, or less for numbers). */
  weight: number;
  /**
   * idf × weight, what scoring and the re-rank read (set once the weights are final). Hot loops
   * read this, not `weight`: a weight is 1 (an int32) for words and a fraction for numbers, and
   * optimised code that had met only words left (an OSR exit) at a query's first number.
   */
  weightedIdf: number;
  /** One bit per required word this term belongs to; 0 when optional. */
  requiredBit: number;
  cjk: boolean;
}

/** A term that stands in for a query term (a synonym; query-terms.ts finds them for a query). */
export interface StandIn {
  id: number;
  source: number;
  /** The source's position in `terms`. */
  sourceAt: number;
  /** The source's weighted IDF times RankingOptions.synonymCoverage. */
  credit: number;
}

const FIELD_MASK = (1 << FIELD_BITS) - 1;
/** fill()'s marks: a slot `run` scored, and the first mark of a slot a stand-in brought in. */
const HELD = 1;
const FILLED = 2;
/** run()'s pruning decision. */
const UNDECIDED = 0;
const PRUNE = 1;
const FULL = 2;

function counts(member: number, field: number): boolean {
  return member === 1 ? field <= FIELD_ID.hint : field < FIELD_ID.server || field === FIELD_ID.parameterValue;
}

/**
 * run()'s two loops over a term's impacts, as functions of their own (not inlined by hand): each
 * is compiled on its own from the first long lists, so a query that takes a branch of run() the
 * optimised code never met (an OSR exit: a named server at 100k tools, where no warm-up query
 * named one) goes on in run()'s baseline code but still calls these optimised, instead of running
 * the rest of its lists (tens of thousands of entries) in baseline code: ~5 ms of such a query's
 * ~6 at 100k tools.
 */
/** Adds a term's impacts to every slot of its list, noting each slot not scored before in `touched`; the new touched count. */
function addAll(scores: Float32Array, touched: Int32Array, touchedCount: number, entries: Int32Array, values: Float32Array, scale: number): number {
  for (let i = 0; i < entries.length; i++) {
    const slot = entries[i]! >>> IMPACT_FLAG_BITS;
    const before = scores[slot]!;
    touched[touchedCount] = slot;
    touchedCount += ((before === 0) as unknown as number) | 0;
    scores[slot] = before + scale * values[i]!;
  }
  return touchedCount;
}

/** Adds a (frequent) term's impacts only to slots already scored: multiplied by 0 elsewhere, without a branch per entry. */
function addToScored(scores: Float32Array, entries: Int32Array, values: Float32Array, scale: number): void {
  for (let i = 0; i < entries.length; i++) {
    const slot = entries[i]! >>> IMPACT_FLAG_BITS;
    const before = scores[slot]!;
    scores[slot] = before + scale * values[i]! * (((before !== 0) as unknown as number) | 0);
  }
}

/**
 * record() for every slot of a term's list (a query with `+required` words or CJK text): the
 * term's required bit, and one more CJK match (`cjk`) or a match of another term. A loop of its own
 * with the term's facts read once: per entry through record() it cost ~20 ns at 100k tools.
 */
function recordAll(entries: Int32Array, requiredMask: Uint32Array, requiredBit: number, matches: Uint8Array, cjk: boolean): void {
  for (let i = 0; i < entries.length; i++) {
    const slot = entries[i]! >>> IMPACT_FLAG_BITS;
    requiredMask[slot] = requiredMask[slot]! | requiredBit;
    matches[slot] = cjk ? matches[slot]! + 1 : 1;
  }
}

/** Terms counted only in name fields for the slots `mask` marks with 1. */
export interface SkipMembers {
  termIds: ReadonlySet<number>;
  mask: Uint8Array;
}

/**
 * First-stage BM25F, term at a time: per-field frequencies are length-normalised and weighted into
 * one pseudo-frequency per (term, tool), saturated once with k1. Scores accumulate into reusable
 * typed arrays; `touched` lists the slots that scored, so a reset costs only those. Match facts
 * for the `+required` and CJK rules are recorded only when the query needs them (`track`).
 */
export class Bm25fScorer {
  scores = new Float32Array(0);
  requiredMask = new Uint32Array(0);
  cjkMatches = new Uint8Array(0);
  otherMatches = new Uint8Array(0);
  touched = new Int32Array(0);
  touchedCount = 0;
  /** fill()'s marks per slot: HELD (scored by `run`), or FILLED + the stand-in run that brought it in; zero otherwise. */
  private held = new Uint8Array(0);
  /**
   * run()'s `skip` when no server is named: always an object, never undefined, so the loop's
   * optimised code does not leave (a check hoisted to its head) at the first query that names one.
   */
  private readonly noSkip: SkipMembers = { termIds: new Set(), mask: new Uint8Array(0) };
  private tracked = false;
  /** Per term id: its impacts, worked out and cached (impact-maker.ts). */
  private readonly maker: ImpactMaker;

  constructor(
    private readonly options: RankingOptions,
    impactBudgetBytes?: number,
  ) {
    this.maker = new ImpactMaker(options, impactBudgetBytes);
  }

  /** The impacts cached (impact-cache.ts), valid while their version equals the index version. */
  get impactCache(): ImpactCache {
    return this.maker.cache;
  }

  /**
   * A term's saturated BM25F weight per live slot, with the kinds of field it occurs in
   * (ImpactMaker.impacts): cached per term and index version, read by the scoring here and by the
   * re-rank's candidate facts.
   */
  impacts(index: InvertedIndex, id: number): Impacts {
    return this.maker.impacts(index, id);
  }

  /**
   * impacts(), without marking the term as just used: for the re-rank's second read of the query's
   * terms (the first stage marked them).
   */
  impactsAgain(index: InvertedIndex, id: number): Impacts {
    return this.maker.impactsAgain(index, id);
  }

  /** Impact lists worked out from postings so far (ImpactMaker.workedOut). */
  get impactsWorkedOut(): number {
    return this.maker.workedOut;
  }

  /** Works out impacts ahead of use, up to about `maxEntries` of them (ImpactMaker.precompute); true once all are. */
  precomputeImpacts(index: InvertedIndex, maxEntries: number): boolean {
    return this.maker.precompute(index, maxEntries);
  }

  /**
   * Scores `terms`, which must come rarest first (capTerms sorts them so). A term in `skip.termIds`
   * counts only in the name fields of the slots `skip.mask` marks (a named server's tools, credited
   * by membership instead).
   */
  run(index: InvertedIndex, terms: readonly QueryTerm[], track: boolean, skip: SkipMembers = this.noSkip): void {
    this.reset();
    this.ensureCapacity(index.slotCount);
    this.tracked = track;
    const { scores, touched } = this;
    const k1 = this.options.k1;
    let touchedCount = this.touchedCount;
    const frequent = this.options.frequentTermShare * index.liveCount;
    // Decided once, at the first frequent term: pruning starts only when the rarer terms alone found
    // enough candidates. A number (UNDECIDED, PRUNE, FULL), not boolean | undefined: optimised code
    // that met only one of those types left it at the first query that changed it.
    let prune = UNDECIDED;
    const skipping = skip !== this.noSkip;
    for (const term of terms) {
      const impacts = this.impacts(index, term.id);
      const scale = term.weightedIdf * (k1 + 1);
      // A term weighed 0 (numberWeight 0) adds nothing, and would mark a slot touched again and again.
      if (scale === 0) continue;
      if (skipping && skip.termIds.has(term.id)) {
        touchedCount = this.runMentionTerm(index, term, scale, skip.mask, touchedCount);
        continue;
      }
      // The loops run to entries.length (= length, impacts.ts): optimised code then drops their bounds checks on it.
      const { entries, values, length } = impacts;
      // "Continue" strategy: once rarer terms found enough candidates for the re-rank, a frequent
      // term only adds to those tools, which keeps long natural-language queries from touching
      // most of a large pool. Small pools and short queries are scored in full. When the rarer
      // terms found too few, every frequent term is scored in full: the first of them alone would
      // otherwise pick the candidates (and among equally common terms, by term id: the index's
      // history), missing a tool that has all the others but not that one.
      if (length > frequent && prune === UNDECIDED) prune = !track && touchedCount >= this.options.candidates ? PRUNE : FULL;
      if (prune === PRUNE && length > frequent) {
        addToScored(scores, entries, values, scale);
        continue;
      }
      touchedCount = addAll(scores, touched, touchedCount, entries, values, scale);
      if (track) recordAll(entries, this.requiredMask, term.requiredBit, term.cjk ? this.cjkMatches : this.otherMatches, term.cjk);
    }
    this.touchedCount = touchedCount;
  }

  /**
   * A term of a server mention, from the raw postings: a tool of the named server counts it only
   * in its name fields (membership stands for the rest, equally for every member, however often a
   * description repeats the name); any other tool counts it everywhere but in its server fields
   * (a similarly named server is not the one named).
   */
  private runMentionTerm(index: InvertedIndex, term: QueryTerm, scale: number, mask: Uint8Array, touchedCount: number): number {
    const postings = index.postings[term.id]!;
    const frequencies = index.frequencies[term.id]!;
    const length = index.postingLengths[term.id]!;
    const { scores, touched } = this;
    const k1 = this.options.k1;
    let current = -1;
    let pseudo = 0;
    for (let i = 0; i <= length; i++) {
      const packed = i < length ? postings[i]! : -1;
      const slot = packed >>> FIELD_BITS;
      if (packed >= 0 && slot === current) {
        if (counts(mask[slot]!, packed & FIELD_MASK)) pseudo += this.maker.norm(index, packed) * frequencies[i]!;
        continue;
      }
      if (pseudo > 0) {
        const before = scores[current]!;
        if (before === 0) touched[touchedCount++] = current;
        scores[current] = before + (scale * pseudo) / (k1 + pseudo);
        if (this.tracked) this.record(current, term);
      }
      if (packed < 0) break;
      current = slot;
      pseudo = counts(mask[slot]!, packed & FIELD_MASK) ? this.maker.norm(index, packed) * frequencies[i]! : 0;
    }
    return touchedCount;
  }

  /**
   * Brings in the tools that have a stand-in of a query term (query-terms.ts: a synonym, outside
   * enum values) and nothing `run` scored: each scores as the term it stands in for would, at
   * `share` of its weight, once per term (the first of its stand-ins the tool has). Tools `run`
   * scored are left as they are. Call after `run`, when the query's own words found too few tools.
   */
  fill(index: InvertedIndex, standIns: readonly StandIn[], terms: readonly QueryTerm[], share: number): void {
    const { scores, touched } = this;
    const held = this.held;
    const k1 = this.options.k1;
    const before = this.touchedCount;
    for (let i = 0; i < before; i++) held[touched[i]!] = HELD;
    let run = 0;
    for (let s = 0; s < standIns.length; s++) {
      const standIn = standIns[s]!;
      if (s > 0 && standIns[s - 1]!.source !== standIn.source) run++;
      const source = terms[standIn.sourceAt]!;
      // weightedIdf is weight × idf: a stand-in's source is a full-weight term (weight 1), so the same product.
      const scale = share * source.weightedIdf * (k1 + 1);
      const mark = FILLED + (run % (0xff - FILLED));
      const { entries, values, length } = this.impacts(index, standIn.id);
      for (let i = 0; i < length; i++) {
        const entry = entries[i]!;
        const slot = entry >>> IMPACT_FLAG_BITS;
        if ((entry & IMPACT_OUTSIDE_VALUE) === 0 || held[slot] === HELD || held[slot] === mark) continue;
        if (scores[slot] === 0) touched[this.touchedCount++] = slot;
        scores[slot] = scores[slot]! + scale * values[i]!;
        held[slot] = mark;
      }
    }
    for (let i = 0; i < this.touchedCount; i++) held[touched[i]!] = 0;
  }

  /** Adds `value` to every slot of `slots` (membership evidence); call after `run`. */
  addToSlots(slots: readonly number[], value: number): void {
    const { scores, touched } = this;
    for (const slot of slots) {
      if (scores[slot] === 0) touched[this.touchedCount++] = slot;
      scores[slot] = scores[slot]! + value;
      if (this.tracked) this.otherMatches[slot] = 1;
    }
  }

  private record(slot: number, term: QueryTerm): void {
    this.requiredMask[slot] = this.requiredMask[slot]! | term.requiredBit;
    if (term.cjk) this.cjkMatches[slot] = this.cjkMatches[slot]! + 1;
    else this.otherMatches[slot] = 1;
  }

  private reset(): void {
    const { touched, scores, tracked } = this;
    for (let i = 0; i < this.touchedCount; i++) {
      const slot = touched[i]!;
      scores[slot] = 0;
      if (!tracked) continue;
      this.requiredMask[slot] = 0;
      this.cjkMatches[slot] = 0;
      this.otherMatches[slot] = 0;
    }
    this.touchedCount = 0;
  }

  private ensureCapacity(slots: number): void {
    if (this.scores.length >= slots) return;
    const size = Math.max(slots, this.scores.length * 2, 64);
    this.scores = new Float32Array(size);
    this.requiredMask = new Uint32Array(size);
    this.cjkMatches = new Uint8Array(size);
    this.otherMatches = new Uint8Array(size);
    // One more than the slots: run() writes each entry's slot at touchedCount whether it counts it or
    // not, so once every slot is counted the next entry's write lands at touched[slots] (in bounds).
    this.touched = new Int32Array(size + 1);
    this.held = new Uint8Array(size);
  }
}
