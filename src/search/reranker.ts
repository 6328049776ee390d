import type { Bm25fScorer } from "./bm25f-scorer.ts";
import type { InvertedIndex } from "./inverted-index.ts";
import { PAIR_BASE, type PreparedQuery } from "./query-terms.ts";
import type { RankingOptions } from "./ranking-options.ts";

export interface Candidate {
  slot: number;
  score: number;
}

/**
 * Second stage over the first-stage top candidates: multiplies the BM25F score by evidence that
 * a bag of words cannot see — how much of the query the tool covers, how much of the tool's name
 * the query spells out (and in order), and whether the tool's server matches as a whole.
 */
export function rerank(
  candidates: Candidate[],
  query: PreparedQuery,
  index: InvertedIndex,
  scorer: Bm25fScorer,
  options: RankingOptions,
  serverOf: (slot: number) => number,
): Candidate[] {
  if (candidates.length === 0) return candidates;
  const serverTotals = options.serverEvidence > 0 ? totalsByServer(candidates, serverOf) : undefined;
  const top = candidates[0]!.score;
  const reranked = candidates.map(({ slot, score }) => {
    let factor = 1;
    if (options.coverage > 0 && query.totalIdf > 0) {
      const share = scorer.matchedIdf[slot]! / query.totalIdf;
      factor *= 1 + options.coverage * share ** options.coverageExponent;
    }
    const name = index.nameTerms[slot];
    if (name !== undefined && name.length > 0) {
      if (options.nameCoverage > 0) factor *= 1 + options.nameCoverage * nameShare(name, query.termIds);
      if (options.namePhrase > 0 && name.length > 1) {
        factor *= 1 + options.namePhrase * phraseShare(name, query.pairs);
      }
    }
    if (serverTotals !== undefined) {
      const others = serverTotals.get(serverOf(slot))! - score;
      factor *= 1 + options.serverEvidence * Math.min(1, others / top);
    }
    return { slot, score: score * factor };
  });
  reranked.sort((a, b) => b.score - a.score || a.slot - b.slot);
  return reranked;
}

/** Share of a name's distinct words that the query contains. */
function nameShare(name: Int32Array, queryTerms: ReadonlySet<number>): number {
  let matched = 0;
  let distinct = 0;
  for (let i = 0; i < name.length; i++) {
    const id = name[i]!;
    if (name.indexOf(id) !== i) continue;
    distinct++;
    if (queryTerms.has(id)) matched++;
  }
  return distinct === 0 ? 0 : matched / distinct;
}

/** Share of a name's adjacent word pairs that appear adjacent, in order, in the query. */
function phraseShare(name: Int32Array, pairs: ReadonlySet<number>): number {
  if (pairs.size === 0) return 0;
  let matched = 0;
  for (let i = 0; i + 1 < name.length; i++) {
    if (pairs.has(name[i]! * PAIR_BASE + name[i + 1]!)) matched++;
  }
  return matched / (name.length - 1);
}

function totalsByServer(candidates: Candidate[], serverOf: (slot: number) => number): Map<number, number> {
  const totals = new Map<number, number>();
  for (const { slot, score } of candidates) {
    const server = serverOf(slot);
    totals.set(server, (totals.get(server) ?? 0) + score);
  }
  return totals;
}
