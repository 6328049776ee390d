import { Bm25fScorer } from "./bm25f-scorer.ts";
import type { InvertedIndex } from "./inverted-index.ts";
import { prepareQuery, type QueryTokens } from "./query-terms.ts";
import type { RankingOptions } from "./ranking-options.ts";
import { rerank, type Candidate } from "./reranker.ts";
import { TopK } from "./top-k.ts";

/**
 * The one ranking behind ToolSearch, prefetch and the CLI: BM25F over all fields, the `+required`
 * and CJK match rules, the caller's acceptance test, then a re-rank of the best candidates.
 */
export class KeywordRanker {
  private readonly scorer: Bm25fScorer;
  private readonly heap = new TopK();

  constructor(
    private readonly index: InvertedIndex,
    private readonly options: RankingOptions,
  ) {
    this.scorer = new Bm25fScorer(options);
  }

  /** Up to `limit` slots, best first; `accept` is asked only about slots that could make the cut. */
  rank(tokens: QueryTokens, limit: number, accept: (slot: number) => boolean): Candidate[] {
    const query = prepareQuery(this.index, tokens, this.options);
    if (query.impossible || query.terms.length === 0) return [];
    const { scorer, heap } = this;
    scorer.run(this.index, query.terms);
    heap.reset(Math.max(limit, this.options.candidates));
    const { scores, requiredMask, cjkMatches, otherMatches, touched } = scorer;
    for (let i = 0; i < scorer.touchedCount; i++) {
      const slot = touched[i]!;
      const score = scores[slot]!;
      if ((requiredMask[slot]! & query.requiredAll) !== query.requiredAll) continue;
      if (query.cjkMinimum > 0 && otherMatches[slot] === 0 && cjkMatches[slot]! < query.cjkMinimum) continue;
      if (!heap.wouldAccept(slot, score) || !accept(slot)) continue;
      heap.push(slot, score);
    }
    const candidates = rerank(heap.drain(), query, this.index, scorer, this.options);
    return candidates.slice(0, limit);
  }
}
