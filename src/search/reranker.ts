import type { CandidateFacts } from "./candidate-facts.ts";
import { NAME_ACTION_SHIFT, NAME_READER, NAME_REVERSE, type InvertedIndex, type TermArena } from "./inverted-index.ts";
import { contradictedActions } from "./opposite-actions.ts";
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
 * Second stage over the first-stage top candidates (re-scored in place; the best `limit` returned in order), with evidence a bag of words cannot see:
 * query word pairs that occur adjacent, in order, in the description (a phrase is rarer, and
 * more telling, than its words), and how much of the query the tool covers.
 */
export function rerank(
  candidates: Candidate[],
  query: PreparedQuery,
  index: InvertedIndex,
  options: RankingOptions,
  termTable: QueryTermTable,
  facts: CandidateFacts,
  limit: number,
  mention?: ServerMention,
): Candidate[] {
  if (candidates.length === 0) return candidates;
  const coverageWeight =
    query.totalIdf > 0 ? options.coverage * Math.min(1, options.coverageFadeTerms / Math.max(1, query.terms.length)) : 0;
  const k1 = options.k1;
  const valueWeight = options.weights.parameterValue;
  const pairMasks = options.descriptionPhrase > 0 ? pairBitMasks(query) : [];
  // The verb's weighted IDF (idf × query weight), as its query term has it (leadingTerm is a kept term's id, or -1).
  // A loop, not find(): a query without a kept leading term would hand optimised code an undefined it never met.
  let leadingIdf = 0;
  for (const term of query.terms) {
    if (term.id !== query.leadingTerm) continue;
    leadingIdf = term.weightedIdf;
    break;
  }
  // Sides of an action the request says only the opposite of (opposite-actions.ts): usually none.
  const contradicted = options.oppositeAction < 1 ? contradictedActions(query.terms.map((term) => index.terms[term.id]!)) : [];
  const { outsideIdf, valueOnlyIdf, mentionIdf, descriptionBits, leadingValueOnly, takesGiven, takesValue } = facts;
  const tailShare = options.descriptionTail;
  // Query terms some tool has only in its description's tail: usually few, often none.
  const tailMask = tailShare < 1 && coverageWeight > 0 ? tailTermMask(index, query.terms) : 0;
  const hasTail = index.hasTail;
  for (let c = 0; c < candidates.length; c++) {
    const candidate = candidates[c]!;
    const slot = candidate.slot;
    let total = candidate.score;
    // The description is scanned for adjacent pairs only when both words of some pair occur in it.
    if (pairMasks.length > 0 && mayHavePair(descriptionBits[c]!, pairMasks)) {
      // The slot's terms are a range of the index's arena: distinct terms [base, distinct), then the description's.
      const base = index.slotTermStart[slot]!;
      total += options.descriptionPhrase * pairWeight(index.slotTermArena, base + index.distinctCounts[slot]!, base + index.slotTermCount[slot]!, query, termTable);
    }
    const nameKinds = index.nameKinds[slot]!;
    const filter = (nameKinds & NAME_READER) !== 0;
    const valueOnly = valueOnlyIdf[c]!;
    // The query's verb (its first word) met as a reading tool's enum value is a filter, not what
    // the tool does: take back most of what it added in the first stage and in coverage.
    const verbIdf = filter && valueOnly > 0 && leadingValueOnly[c] === 1 ? leadingIdf : 0;
    if (verbIdf > 0) total -= (1 - options.filterValue) * verbIdf * (k1 + 1) * (valueWeight / (k1 + valueWeight));
    if (coverageWeight > 0) {
      let matched = outsideIdf[c]!;
      matched += (valueOnly - verbIdf) * options.valueCoverage + verbIdf * options.filterValue;
      // A member has the mention by membership: its own use of the words does not count again.
      const member = mention !== undefined && mention.isMember(slot);
      if (member) matched += mention.idf - mentionIdf[c]!;
      // What it says only after its description's first sentence counts for less (description-tail.ts).
      const tailBits = descriptionBits[c]! & tailMask;
      if (tailBits !== 0 && (hasTail[slot >>> 5]! & (1 << (slot & 31))) !== 0) matched -= (1 - tailShare) * tailOnlyIdf(index, slot, tailBits, query.terms, member ? mention.termIds : undefined);
      const share = Math.min(1, matched / query.totalIdf);
      // x ** 1 is x exactly; the default exponent skips the call to pow per candidate.
      total *= 1 + coverageWeight * (options.coverageExponent === 1 ? share : share ** options.coverageExponent);
    }
    if (mention !== undefined && mention.isMember(slot)) {
      if (options.serverBoost > 0) total *= 1 + options.serverBoost;
      // Members share the name's credit alike: what tells them apart is how much of its own name the request says.
      if (options.memberName > 0) total *= 1 + options.memberName * ownNameShare(index, facts, slot, c);
    }
    if (options.unaskedReverse < 1 && !query.asksReverse && (nameKinds & NAME_REVERSE) !== 0) total *= options.unaskedReverse;
    if (contradicted.length > 0 && contradicted.includes(nameKinds >> NAME_ACTION_SHIFT)) total *= options.oppositeAction;
    if (takesGiven[c] === 1) total *= 1 + options.givenParameter;
    if (takesValue[c] === 1) total *= 1 + options.valueParameter;
    candidate.score = total;
  }
  const top = best(candidates, limit);
  // Only what the caller is shown is reordered: the name never brings a tool into the answer nor takes one out.
  const window = options.nameTieBreak > 0 ? Math.min(NAME_TIE_WINDOW, top.length) : 0;
  if (window > 1) breakTiesByName(top, window, index, facts, options.nameTieBreak);
  return top;
}

/** The share of a candidate's own name terms the request says (CandidateFacts.nameHits), at most 1; 0 for a name of none. */
function ownNameShare(index: InvertedIndex, facts: CandidateFacts, slot: number, c: number): number {
  const own = index.ownNameTerms[slot]!;
  return own > 0 ? Math.min(1, facts.nameHits[c]! / own) : 0;
}

/**
 * The first `window` of `top` (best first) multiplied by 1 + `weight` × the share of their own name
 * terms the request says, and ordered again among themselves. Each one's score only grows, and by
 * at most 1 + `weight`, so the window stays above the rest and scores stay in order.
 */
function breakTiesByName(top: Candidate[], window: number, index: InvertedIndex, facts: CandidateFacts, weight: number): void {
  for (let i = 0; i < window; i++) {
    const candidate = top[i]!;
    const c = facts.indexOf(candidate.slot);
    if (c >= 0) candidate.score *= 1 + weight * ownNameShare(index, facts, candidate.slot, c);
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

/** The `limit` best candidates, best first (ties: lower slot): an insertion pass, not a sort of all of them. */
function best(candidates: Candidate[], limit: number): Candidate[] {
  if (limit >= candidates.length) return candidates.sort(byScore);
  const top: Candidate[] = [];
  for (const candidate of candidates) {
    if (top.length === limit && byScore(candidate, top[limit - 1]!) >= 0) continue;
    let at = top.length < limit ? top.length : limit - 1;
    if (top.length < limit) top.push(candidate);
    while (at > 0 && byScore(candidate, top[at - 1]!) < 0) {
      top[at] = top[at - 1]!;
      at--;
    }
    top[at] = candidate;
  }
  return top;
}

function byScore(a: Candidate, b: Candidate): number {
  return b.score - a.score || a.slot - b.slot;
}

/** Per query pair, the CandidateFacts description bits of its two terms. */
function pairBitMasks(query: PreparedQuery): number[] {
  const masks: number[] = [];
  const positions = query.terms.length;
  for (const key of query.pairs.keys()) masks.push((1 << (Math.floor(key / positions) & 31)) | (1 << (key % positions & 31)));
  return masks;
}

function mayHavePair(descriptionBits: number, masks: readonly number[]): boolean {
  for (const mask of masks) if ((descriptionBits & mask) === mask) return true;
  return false;
}

/** IDF mass of the distinct query pairs that occur adjacent, in order, in `terms[start, end)`. */
function pairWeight(terms: TermArena, start: number, end: number, query: PreparedQuery, termTable: QueryTermTable): number {
  const positions = query.terms.length;
  let total = 0;
  let seen: number[] | undefined;
  for (let i = start; i + 1 < end; i++) {
    // Both words must be query words before the pair is worth a map lookup.
    if (!termTable.mayHave(terms[i + 1]!) || !termTable.mayHave(terms[i]!)) continue;
    const first = termTable.positionOf(terms[i]!);
    const second = termTable.positionOf(terms[i + 1]!);
    if (first === 0 || second === 0) continue;
    const key = (first - 1) * positions + (second - 1);
    const weight = query.pairs.get(key);
    if (weight === undefined || seen?.includes(key)) continue;
    (seen ??= []).push(key);
    total += weight;
  }
  return total;
}
