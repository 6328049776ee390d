import type { CandidateFacts } from "./candidate-facts.ts";
import { NAME_ACTION_SHIFT, NAME_READER, NAME_REVERSE, type InvertedIndex } from "./inverted-index.ts";
import { tailOnlyIdf, tailTermMask } from "./description-tail.ts";
import type { QueryTermTable } from "./query-term-table.ts";
import type { PreparedQuery } from "./query-terms.ts";
import type { RankingOptions } from "./ranking-options.ts";
import type { ServerMention } from "./server-mention.ts";

/** At most how many of the first results the name's tie-break reorders (RankingOptions.nameTieBreak): ToolSearch shows five. */
export const NAME_TIE_WINDOW = 5;

export interface Candidate {
  slot: number;
  score: number;
}

/**
 * A phrase bound is widened by this relative slack before it is compared: it and the phrase weight
 * a scan finds are float sums of the same positive weights in different orders and subsets, whose
 * rounding differs by far less (n × 2^-53 relative for n pairs).
 */
const BOUND_SLACK = 1e-9;

/**
 * Second stage over the first-stage top candidates (re-scored in place; the best `limit` returned in order), with evidence a bag of words cannot see:
 * query word pairs that occur adjacent, in order, in the description (a phrase is rarer, and
 * more telling, than its words), and how much of the query the tool covers.
 *
 * The description scan for pairs is the costly part, so it is made only for candidates that may
 * still enter the answer: every other factor is known first, and a candidate whose score with
 * every pair its description may hold (QueryTermTable.pairBound) stays below the `limit`-th best
 * score without any pair is left out of the answer without its scan, as it would be after it.
 * Scratch arrays and the query's facts are reused from call to call.
 */
export class Reranker {
  /** Per candidate: its score without phrase evidence (a lower bound), and its pair bound (0: no pair can be there). */
  private low = new Float64Array(64);
  private bound = new Float64Array(64);
  /** The `limit` best low scores, best first. */
  private cut = new Float64Array(8);
  /** Action side codes (opposite-actions.ts) whose tools the query lowers: PreparedQuery.contradicted, or none. */
  private contradicted: readonly number[] = [];
  private readonly noSides: readonly number[] = [];
  private leadingIdf = 0;
  private coverageWeight = 0;
  /** Query terms some tool has only in its description's tail (description-tail.ts), and what such a word counts. */
  private tailMask = 0;
  private tailShare = 1;
  /** False once a factor after the phrase could reverse order (negative or NaN): no scan is left out then. */
  private monotone = true;
  /** The answer (reused) and each of its candidates' index in the candidate list. */
  private readonly top: Candidate[] = [];
  private topAt = new Int32Array(8);

  rerank(
    candidates: Candidate[],
    query: PreparedQuery,
    index: InvertedIndex,
    options: RankingOptions,
    termTable: QueryTermTable,
    facts: CandidateFacts,
    limit: number,
    mention?: ServerMention,
  ): Candidate[] {
    const count = candidates.length;
    if (count === 0) return candidates;
    this.coverageWeight =
      query.totalIdf > 0 ? options.coverage * Math.min(1, options.coverageFadeTerms / Math.max(1, query.terms.length)) : 0;
    this.tailShare = options.descriptionTail;
    // Query terms some tool has only in its description's tail: usually few, often none.
    this.tailMask = this.tailShare < 1 && this.coverageWeight > 0 ? tailTermMask(index, query.terms) : 0;
    // The verb's weighted IDF (idf × query weight), as its query term has it (leadingTerm is a kept term's id, or -1).
    // A loop, not find(): a query without a kept leading term would hand optimised code an undefined it never met.
    let leadingIdf = 0;
    for (const term of query.terms) {
      if (term.id !== query.leadingTerm) continue;
      leadingIdf = term.weightedIdf;
      break;
    }
    this.leadingIdf = leadingIdf;
    // Sides of an action the request says only the opposite of (opposite-actions.ts): usually none.
    this.contradicted = options.oppositeAction < 1 ? query.contradicted : this.noSides;
    if (this.low.length < count) {
      this.low = new Float64Array(Math.max(count, this.low.length * 2));
      this.bound = new Float64Array(this.low.length);
    }
    const { low, bound } = this;
    this.monotone = options.unaskedReverse >= 0 && options.oppositeAction >= 0;
    const phrases = options.descriptionPhrase > 0 && termTable.pairCount > 0;
    const descriptionBits = facts.descriptionBits;
    for (let c = 0; c < count; c++) {
      const candidate = candidates[c]!;
      const slot = candidate.slot;
      const member = mention !== undefined && mention.isMember(slot);
      // Both words of some pair in the description, or no scan (descriptionBits say which query terms are there).
      bound[c] = phrases ? termTable.pairBound(descriptionBits[c]!) : 0;
      low[c] = this.score(c, slot, member, candidate.score, query, index, options, facts, mention);
    }
    // Leaving a scan out needs every step after the phrase to keep order (no negative factor: a caller's knobs could make one).
    const threshold = count > limit && this.monotone ? this.limitBest(count, limit) : -Infinity;
    for (let c = 0; c < count; c++) {
      const candidate = candidates[c]!;
      if (bound[c] === 0) {
        candidate.score = low[c]!;
        continue;
      }
      const slot = candidate.slot;
      const member = mention !== undefined && mention.isMember(slot);
      const base = candidate.score;
      // At least `limit` candidates score the threshold or more: one below it is not in the answer, scanned or not.
      // One whose low score already reaches it is scanned without asking (its score at most is no lower).
      if (low[c]! < threshold && this.score(c, slot, member, base + options.descriptionPhrase * (bound[c]! * (1 + BOUND_SLACK)), query, index, options, facts, mention) < threshold) {
        candidate.score = low[c]!;
        continue;
      }
      // The slot's terms are a range of the index's arena: distinct terms [base, distinct), then the description's.
      const start = index.slotTermStart[slot]!;
      const phrase = termTable.phraseWeight(index.slotTermArena, start + index.distinctCounts[slot]!, start + index.slotTermCount[slot]!);
      candidate.score = this.score(c, slot, member, base + options.descriptionPhrase * phrase, query, index, options, facts, mention);
    }
    const top = this.best(candidates, limit, threshold);
    // Only what the caller is shown is reordered: the name never brings a tool into the answer nor takes one out.
    const window = options.nameTieBreak > 0 ? Math.min(NAME_TIE_WINDOW, top.length) : 0;
    if (window > 1) this.breakTiesByName(top, window, index, facts, options.nameTieBreak);
    return top;
  }

  /**
   * The `limit` best candidates, best first (ties: lower slot), into the reused `top` (valid until
   * the next call), each one's candidate index in `topAt`: an insertion pass, not a sort of all of
   * them. One below `threshold` is passed over at a comparison: at least `limit` others score it.
   */
  private best(candidates: readonly Candidate[], limit: number, threshold: number): Candidate[] {
    if (this.topAt.length < limit) this.topAt = new Int32Array(Math.max(limit, this.topAt.length * 2));
    const { top, topAt } = this;
    top.length = 0;
    let held = 0;
    for (let c = 0; c < candidates.length; c++) {
      const candidate = candidates[c]!;
      if (candidate.score < threshold || (held === limit && byScore(candidate, top[limit - 1]!) >= 0)) continue;
      let at = held < limit ? held++ : limit - 1;
      while (at > 0 && byScore(candidate, top[at - 1]!) < 0) {
        top[at] = top[at - 1]!;
        topAt[at] = topAt[at - 1]!;
        at--;
      }
      top[at] = candidate;
      topAt[at] = c;
    }
    return top;
  }

  /**
   * The first `window` of `top` (best first) multiplied by 1 + `weight` × the share of their own name
   * terms the request says, and ordered again among themselves. Each one's score only grows, and by
   * at most 1 + `weight`, so the window stays above the rest and scores stay in order.
   */
  private breakTiesByName(top: Candidate[], window: number, index: InvertedIndex, facts: CandidateFacts, weight: number): void {
    for (let i = 0; i < window; i++) {
      const candidate = top[i]!;
      candidate.score *= 1 + weight * ownNameShare(index, facts, candidate.slot, this.topAt[i]!);
    }
    for (let i = 1; i < window; i++) {
      const candidate = top[i]!;
      let at = i;
      while (at > 0 && byScore(candidate, top[at - 1]!) < 0) {
        top[at] = top[at - 1]!;
        at--;
      }
      top[at] = candidate;
    }
  }

  /**
   * A candidate's re-ranked score from `total` (its first-stage score, plus its phrase evidence):
   * a subtraction, then products with factors that are non-negative for any sensible knobs, so
   * non-decreasing in `total`; a factor that is not clears `monotone`.
   */
  private score(
    c: number,
    slot: number,
    member: boolean,
    total: number,
    query: PreparedQuery,
    index: InvertedIndex,
    options: RankingOptions,
    facts: CandidateFacts,
    mention: ServerMention | undefined,
  ): number {
    const nameKinds = index.nameKinds[slot]!;
    const filter = (nameKinds & NAME_READER) !== 0;
    const valueOnly = facts.valueOnlyIdf[c]!;
    // The query's verb (its first word) met as a reading tool's enum value is a filter, not what
    // the tool does: take back most of what it added in the first stage and in coverage.
    const verbIdf = filter && valueOnly > 0 && facts.leadingValueOnly[c] === 1 ? this.leadingIdf : 0;
    const k1 = options.k1;
    const valueWeight = options.weights.parameterValue;
    if (verbIdf > 0) total -= (1 - options.filterValue) * verbIdf * (k1 + 1) * (valueWeight / (k1 + valueWeight));
    const coverageWeight = this.coverageWeight;
    if (coverageWeight > 0) {
      let matched = facts.outsideIdf[c]!;
      matched += (valueOnly - verbIdf) * options.valueCoverage + verbIdf * options.filterValue;
      // A member has the mention by membership: its own use of the words does not count again.
      if (member) matched += mention!.idf - facts.mentionIdf[c]!;
      // What it says only after its description's first sentence counts for less (description-tail.ts).
      const tailBits = facts.descriptionBits[c]! & this.tailMask;
      if (tailBits !== 0 && (index.hasTail[slot >>> 5]! & (1 << (slot & 31))) !== 0) {
        matched -= (1 - this.tailShare) * tailOnlyIdf(index, slot, tailBits, query.terms, member ? mention!.termIds : undefined);
      }
      const share = Math.min(1, matched / query.totalIdf);
      // x ** 1 is x exactly; the default exponent skips the call to pow per candidate.
      const factor = 1 + coverageWeight * (options.coverageExponent === 1 ? share : share ** options.coverageExponent);
      if (!(factor >= 0)) this.monotone = false;
      total *= factor;
    }
    if (member) {
      if (options.serverBoost > 0) total *= 1 + options.serverBoost;
      // Members share the name's credit alike: what tells them apart is how much of its own name the request says.
      if (options.memberName > 0) total *= 1 + options.memberName * ownNameShare(index, facts, slot, c);
    }
    if (options.unaskedReverse < 1 && !query.asksReverse && (nameKinds & NAME_REVERSE) !== 0) total *= options.unaskedReverse;
    if (this.contradicted.length > 0 && this.contradicted.includes(nameKinds >> NAME_ACTION_SHIFT)) total *= options.oppositeAction;
    if (facts.takesGiven[c] === 1) total *= 1 + options.givenParameter;
    if (facts.takesValue[c] === 1) total *= 1 + options.valueParameter;
    return total;
  }

  /** The `limit`-th best of the first `count` low scores (count > limit). */
  private limitBest(count: number, limit: number): number {
    if (this.cut.length < limit) this.cut = new Float64Array(Math.max(limit, this.cut.length * 2));
    const { cut, low } = this;
    let held = 0;
    for (let c = 0; c < count; c++) {
      const value = low[c]!;
      if (held === limit && !(value > cut[limit - 1]!)) continue;
      let at = held < limit ? held++ : limit - 1;
      while (at > 0 && cut[at - 1]! < value) {
        cut[at] = cut[at - 1]!;
        at--;
      }
      cut[at] = value;
    }
    return cut[limit - 1]!;
  }
}

/** The share of a candidate's own name terms the request says (CandidateFacts.nameHits), at most 1; 0 for a name of none. */
function ownNameShare(index: InvertedIndex, facts: CandidateFacts, slot: number, c: number): number {
  const own = index.ownNameTerms[slot]!;
  return own > 0 ? Math.min(1, facts.nameHits[c]! / own) : 0;
}

function byScore(a: Candidate, b: Candidate): number {
  return b.score - a.score || a.slot - b.slot;
}
