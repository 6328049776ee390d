import { IMPACT_DESCRIPTION, IMPACT_FLAG_BITS, IMPACT_OUTSIDE_VALUE, IMPACT_OWN_NAME, IMPACT_PARAMETER_NAME, type Impacts } from "./impacts.ts";
import type { InvertedIndex } from "./inverted-index.ts";
import type { PreparedQuery } from "./query-terms.ts";
import type { ServerMention } from "./server-mention.ts";

/** IMPACT_DESCRIPTION and IMPACT_OWN_NAME shifted down to bit 0. */
const DESCRIPTION_SHIFT = 31 - Math.clz32(IMPACT_DESCRIPTION);
const OWN_NAME_SHIFT = 31 - Math.clz32(IMPACT_OWN_NAME);

/** Query terms whose matches the gather pass notes per candidate (termBits). */
const TERM_BITS = 32;

/** The most candidates one gather takes (a candidate's mark is 16 bits). */
export const MAX_CANDIDATES = 0xffff;
/**
 * A term's impacts longer than this many entries per candidate are searched for the candidates'
 * slots (galloping from one to the next) rather than read in full: at 100k tools a common word
 * has tens of thousands of entries and the re-rank ~30 candidates.
 */
const SEARCH_SHARE = 32;

/** Where a term's per-slot impacts (and the fields it occurs in) come from: the first stage's cache. */
export type ImpactSource = (index: InvertedIndex, id: number) => Impacts;

/**
 * What each re-rank candidate has of the query, gathered in one pass over the query terms'
 * impacts (contiguous typed arrays the first stage just read) with a slot → candidate mark.
 * Reading each candidate's own term list instead costs a cache miss or more per candidate line:
 * 50 scattered arrays of ~100 ids each, the re-rank's whole cost at 7k tools.
 * Arrays are per candidate (index into the candidate list) and reused across queries.
 */
export class CandidateFacts {
  /** Weighted IDF sum (idf × query weight) of the query terms a candidate has in a field other than enum values. */
  outsideIdf = new Float64Array(64);
  /** IDF sum of the query terms a candidate has only as enum values. */
  valueOnlyIdf = new Float64Array(64);
  /** IDF sum of the mention's terms a candidate has anywhere. */
  mentionIdf = new Float64Array(64);
  /**
   * Bit `i & 31` set when query term `i` occurs in the candidate's description (a pair may be there).
   * This and termBits are Int32Arrays: bit 31 read from a Uint32Array is a number above int32 (query-term-table.ts).
   */
  descriptionBits = new Int32Array(64);
  /** 1 when the query's leading term is, for this candidate, only an enum value. */
  leadingValueOnly = new Uint8Array(64);
  /** 1 when a candidate has one of the given words / value-kind words as a parameter name. */
  takesGiven = new Uint8Array(64);
  takesValue = new Uint8Array(64);
  /**
   * How many of a candidate's own name terms (InvertedIndex.ownNameTerms) the query says at full
   * weight, itself or by a synonym (a stand-in); the mention's words, numbers and dates are not
   * counted. Gathered only when asked for.
   */
  nameHits = new Uint8Array(64);
  /** Slot of each candidate, as gathered (the re-rank reorders the candidates; indexOf finds one again). */
  private slots = new Int32Array(64);
  private count = 0;
  /** Bit `t` set when query term `t` (t < 32) occurs in the candidate in any field. */
  termBits = new Int32Array(64);
  /** Per candidate: 1 while one query term's stand-ins are credited, when it has the term or was credited. */
  private covered = new Uint8Array(64);
  /**
   * Candidate index + 1 per slot while gathering; zero otherwise. 16 bits: read once per posting
   * of every query term, a smaller array stays in a nearer cache (the ranker keeps far fewer
   * than MAX_CANDIDATES candidates).
   */
  private mark = new Uint16Array(0);
  /**
   * Bit `slot & 31` of word `slot >>> 5` set while `slot` is a candidate: read first for every
   * impact entry, so the gather touches a slot-count / 8 bytes filter (~1 KiB at 7k tools) for
   * each entry and the 16-bit mark only for candidates' entries, not the mark's slot-count × 2
   * bytes, which the cold path found evicted by other work between queries.
   */
  private present = new Int32Array(0);
  /** The mention's terms when the query names no server: none. */
  private readonly noMention: ReadonlySet<number> = new Set();
  /** One term's entries whose slots are candidates (matches()); at most one per candidate. */
  private hits = new Int32Array(65);
  /** The candidates' slots, ascending once `bySlotSorted` (sorted when a search first needs them). */
  private bySlot = new Int32Array(64);
  private bySlotSorted = false;

  gather(
    candidates: readonly { slot: number }[],
    query: PreparedQuery,
    index: InvertedIndex,
    impactsOf: ImpactSource,
    mention: ServerMention | undefined,
    wants: { given: boolean; value: boolean; name: boolean },
  ): void {
    const count = candidates.length;
    if (count > MAX_CANDIDATES) throw new Error(`at most ${MAX_CANDIDATES} candidates are re-ranked`);
    this.ensure(count, index.slotCount);
    const { mark, present, outsideIdf, valueOnlyIdf, mentionIdf, descriptionBits, termBits, leadingValueOnly, takesGiven, takesValue, nameHits } = this;
    const bySlot = this.bySlot;
    this.bySlotSorted = false;
    this.count = count;
    for (let c = 0; c < count; c++) {
      const slot = candidates[c]!.slot;
      this.slots[c] = slot;
      mark[slot] = c + 1;
      bySlot[c] = slot;
      present[slot >>> 5] = present[slot >>> 5]! | (1 << (slot & 31));
      outsideIdf[c] = 0;
      valueOnlyIdf[c] = 0;
      mentionIdf[c] = 0;
      descriptionBits[c] = 0;
      termBits[c] = 0;
      leadingValueOnly[c] = 0;
      takesGiven[c] = 0;
      takesValue[c] = 0;
      nameHits[c] = 0;
    }
    // A set either way, never undefined in the loop: its optimised code checked that once at the
    // loop's head and left (an OSR exit) at the first query that named a server.
    const mentionTerms = mention === undefined ? this.noMention : mention.termIds;
    try {
      const terms = query.terms;
      for (let t = 0; t < terms.length; t++) {
        const term = terms[t]!;
        // IDF as the first stage weighs it: a number counts for less (RankingOptions.numberWeight).
        const idf = term.weightedIdf;
        const bit = 1 << (t & 31);
        const ownBit = t < TERM_BITS ? bit : 0;
        const leading = term.id === query.leadingTerm;
        const mentioned = mentionTerms.has(term.id);
        const nameFlag = wants.name && !mentioned && term.weight >= 1 ? IMPACT_OWN_NAME : 0;
        const found = this.matches(impactsOf(index, term.id), count);
        const hits = this.hits;
        for (let h = 0; h < found; h++) {
          const entry = hits[h]!;
          const c = mark[entry >>> IMPACT_FLAG_BITS]! - 1;
          termBits[c] = termBits[c]! | ownBit;
          if ((entry & IMPACT_OUTSIDE_VALUE) !== 0) {
            outsideIdf[c] = outsideIdf[c]! + idf;
          } else {
            valueOnlyIdf[c] = valueOnlyIdf[c]! + idf;
            if (leading) leadingValueOnly[c] = 1;
          }
          // No branch on the description and own-name bits (either way about as often): a mask, a 0 or 1.
          descriptionBits[c] = descriptionBits[c]! | (bit & -((entry & IMPACT_DESCRIPTION) >>> DESCRIPTION_SHIFT));
          if (mentioned) mentionIdf[c] = mentionIdf[c]! + idf;
          nameHits[c] = nameHits[c]! + ((entry & nameFlag) >>> OWN_NAME_SHIFT);
        }
      }
      if (query.standIns.length > 0) this.creditStandIns(query, index, impactsOf, count, wants.name);
      if (wants.given) this.markParameters(query.givenTerms, index, impactsOf, takesGiven, count);
      if (wants.value) this.markParameters(query.valueParameterTerms, index, impactsOf, takesValue, count);
    } finally {
      for (let c = 0; c < count; c++) {
        const slot = candidates[c]!.slot;
        mark[slot] = 0;
        present[slot >>> 5] = 0;
      }
    }
  }

  /**
   * Synonyms of a query term (query-terms.ts' stand-ins) cover it for a candidate that lacks the
   * term and has one of them outside enum values: `credit` more of coverage, once per term.
   */
  private creditStandIns(query: PreparedQuery, index: InvertedIndex, impactsOf: ImpactSource, count: number, names: boolean): void {
    const { mark, outsideIdf, covered, termBits, nameHits } = this;
    const standIns = query.standIns;
    for (let first = 0; first < standIns.length; ) {
      const { source, sourceAt } = standIns[first]!;
      let end = first;
      while (end < standIns.length && standIns[end]!.source === source) end++;
      // Candidates that have the term itself are covered: the gather pass noted the first 32
      // terms' matches; a later term's matches are read again.
      const noted = sourceAt < TERM_BITS;
      if (!noted) {
        const found = this.matches(impactsOf(index, source), count);
        const hits = this.hits;
        for (let h = 0; h < found; h++) covered[mark[hits[h]! >>> IMPACT_FLAG_BITS]! - 1] = 1;
      }
      const sourceBit = noted ? 1 << sourceAt : 0;
      for (let s = first; s < end; s++) {
        const standIn = standIns[s]!;
        // A name term is counted once, though it may stand in for two query terms.
        const nameFlag = names && firstStandIn(standIns, s) ? IMPACT_OWN_NAME : 0;
        const found = this.matches(impactsOf(index, standIn.id), count);
        const hits = this.hits;
        for (let h = 0; h < found; h++) {
          const entry = hits[h]!;
          const c = mark[entry >>> IMPACT_FLAG_BITS]! - 1;
          if ((entry & nameFlag) !== 0) nameHits[c] = nameHits[c]! + 1;
          if (covered[c] === 1 || (termBits[c]! & sourceBit) !== 0 || (entry & IMPACT_OUTSIDE_VALUE) === 0) continue;
          outsideIdf[c] = outsideIdf[c]! + standIn.credit;
          covered[c] = 1;
        }
      }
      covered.fill(0, 0, count);
      first = end;
    }
  }

  /** The gathered index of the candidate with `slot`, or -1 (a scan: asked for a handful of candidates). */
  indexOf(slot: number): number {
    for (let c = 0; c < this.count; c++) if (this.slots[c] === slot) return c;
    return -1;
  }

  /** Candidates that have one of `termIds` in a parameter name. */
  private markParameters(termIds: readonly number[], index: InvertedIndex, impactsOf: ImpactSource, into: Uint8Array, count: number): void {
    const mark = this.mark;
    for (const id of termIds) {
      const found = this.matches(impactsOf(index, id), count);
      const hits = this.hits;
      for (let h = 0; h < found; h++) {
        const entry = hits[h]!;
        if ((entry & IMPACT_PARAMETER_NAME) !== 0) into[mark[entry >>> IMPACT_FLAG_BITS]! - 1] = 1;
      }
    }
  }

  /**
   * The entries of `impacts` whose slots are candidates, into `hits`; how many. A long list in
   * slot order is searched for each candidate's slot, from the previous one's place on; any
   * other is read in full, each entry's slot asked of the candidate filter. Either way a
   * candidate's facts come out the same: it has one entry per term, or none.
   */
  private matches(impacts: Impacts, count: number): number {
    const { entries, length } = impacts;
    const hits = this.hits;
    let found = 0;
    if (impacts.sorted && length > SEARCH_SHARE * count) {
      if (!this.bySlotSorted) {
        sortPrefix(this.bySlot, count);
        this.bySlotSorted = true;
      }
      const bySlot = this.bySlot;
      let from = 0;
      for (let k = 0; k < count && from < length; k++) {
        const slot = bySlot[k]!;
        from = gallop(entries, from, length, slot << IMPACT_FLAG_BITS);
        if (from < length && entries[from]! >>> IMPACT_FLAG_BITS === slot) hits[found++] = entries[from]!;
      }
      return found;
    }
    const present = this.present;
    for (let i = 0; i < length; i++) {
      const entry = entries[i]!;
      const slot = entry >>> IMPACT_FLAG_BITS;
      // No branch per entry: the entry is written either way, and kept only by the count.
      hits[found] = entry;
      found += (present[slot >>> 5]! >>> (slot & 31)) & 1;
    }
    return found;
  }

  private ensure(candidates: number, slots: number): void {
    if (this.mark.length < slots) {
      this.mark = new Uint16Array(Math.max(slots, this.mark.length * 2));
      this.present = new Int32Array((this.mark.length + 31) >>> 5);
    }
    if (this.outsideIdf.length >= candidates) return;
    const size = Math.max(candidates, this.outsideIdf.length * 2);
    this.outsideIdf = new Float64Array(size);
    this.valueOnlyIdf = new Float64Array(size);
    this.mentionIdf = new Float64Array(size);
    this.descriptionBits = new Int32Array(size);
    this.leadingValueOnly = new Uint8Array(size);
    this.takesGiven = new Uint8Array(size);
    this.takesValue = new Uint8Array(size);
    this.nameHits = new Uint8Array(size);
    this.slots = new Int32Array(size);
    this.covered = new Uint8Array(size);
    this.termBits = new Int32Array(size);
    this.hits = new Int32Array(size + 1);
    this.bySlot = new Int32Array(size);
  }
}

/** Candidates sorted by insertion up to this many (sortPrefix). */
const INSERTION_SORT_MAX = 64;

/**
 * `values[0, count)` ascending: the re-rank's ~50 slots by insertion, where a subarray view and
 * the native sort cost an allocation and a call into the runtime per gather that searched.
 */
function sortPrefix(values: Int32Array, count: number): void {
  if (count > INSERTION_SORT_MAX) {
    values.subarray(0, count).sort();
    return;
  }
  for (let i = 1; i < count; i++) {
    const value = values[i]!;
    let at = i;
    while (at > 0 && values[at - 1]! > value) {
      values[at] = values[at - 1]!;
      at--;
    }
    values[at] = value;
  }
}

/** Whether `standIns[at]` is the first stand-in with its term id. */
function firstStandIn(standIns: PreparedQuery["standIns"], at: number): boolean {
  for (let s = 0; s < at; s++) if (standIns[s]!.id === standIns[at]!.id) return false;
  return true;
}

/**
 * The first index in [from, length) whose entry is at least `key` (`length` when none), for
 * entries ascending: steps of 1, 2, 4… from `from`, then a binary search of the last step.
 */
function gallop(entries: Int32Array, from: number, length: number, key: number): number {
  let low = from;
  let high = from;
  let step = 1;
  while (high < length && entries[high]! < key) {
    low = high + 1;
    high = low + step;
    step *= 2;
  }
  if (high > length) high = length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (entries[middle]! < key) low = middle + 1;
    else high = middle;
  }
  return low;
}
