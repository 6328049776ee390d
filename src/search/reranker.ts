import type { InvertedIndex } from "./inverted-index.ts";
import { PAIR_BASE, type PreparedQuery } from "./query-terms.ts";
import type { RankingOptions } from "./ranking-options.ts";

export interface Candidate {
  slot: number;
  score: number;
}

/**
 * Second stage over the first-stage top candidates (re-scored in place, then sorted), with evidence a bag of words cannot see:
 * query word pairs that occur adjacent, in order, in the description (a phrase is rarer, and
 * more telling, than its words), and how much of the query the tool covers.
 */
export function rerank(
  candidates: Candidate[],
  query: PreparedQuery,
  index: InvertedIndex,
  options: RankingOptions,
  idfByTerm: Float64Array,
): Candidate[] {
  if (candidates.length === 0) return candidates;
  const coverageWeight =
    query.totalIdf > 0 ? options.coverage * Math.min(1, options.coverageFadeTerms / Math.max(1, query.idfById.size)) : 0;
  for (const candidate of candidates) {
    const slot = candidate.slot;
    let total = candidate.score;
    const terms = index.slotTerms[slot]!;
    const distinct = index.distinctCounts[slot]!;
    if (options.descriptionPhrase > 0 && query.pairs.size > 0) {
      total += options.descriptionPhrase * pairWeight(terms, distinct, query.pairs, idfByTerm);
    }
    if (coverageWeight > 0) {
      const share = matchedIdf(terms, distinct, idfByTerm) / query.totalIdf;
      total *= 1 + coverageWeight * share ** options.coverageExponent;
    }
    candidate.score = total;
  }
  candidates.sort((a, b) => b.score - a.score || a.slot - b.slot);
  return candidates;
}

/** IDF sum of the query terms among a tool's distinct terms (`terms[0, end)`); `idfByTerm` is zero for other terms. */
function matchedIdf(terms: Int32Array, end: number, idfByTerm: Float64Array): number {
  let total = 0;
  for (let i = 0; i < end; i++) total += idfByTerm[terms[i]!]!;
  return total;
}

/** IDF mass of the distinct query pairs that occur adjacent, in order, in `terms` from `start` on. */
function pairWeight(
  terms: Int32Array,
  start: number,
  pairs: ReadonlyMap<number, number>,
  idfByTerm: Float64Array,
): number {
  let total = 0;
  let seen: number[] | undefined;
  for (let i = start; i + 1 < terms.length; i++) {
    // Both words must be query words before the pair is worth a map lookup.
    if (idfByTerm[terms[i]!] === 0 || idfByTerm[terms[i + 1]!] === 0) continue;
    const key = terms[i]! * PAIR_BASE + terms[i + 1]!;
    const weight = pairs.get(key);
    if (weight === undefined || seen?.includes(key)) continue;
    (seen ??= []).push(key);
    total += weight;
  }
  return total;
}
