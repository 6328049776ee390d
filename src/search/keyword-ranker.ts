import { Bm25fScorer } from "./bm25f-scorer.ts";
import type { InvertedIndex } from "./inverted-index.ts";
import { prepareQuery, type PreparedQuery, type QueryTokens } from "./query-terms.ts";
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
  /** Query IDF by term id, zero elsewhere; set around each re-rank and cleared after it. */
  private idfByTerm = new Float64Array(1024);

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
    const track = query.requiredAll !== 0 || query.cjkMinimum > 0;
    scorer.run(this.index, query.terms, track);
    heap.reset(Math.max(limit, this.options.candidates));
    const { scores, requiredMask, cjkMatches, otherMatches, touched } = scorer;
    let threshold = -Infinity;
    for (let i = 0; i < scorer.touchedCount; i++) {
      const slot = touched[i]!;
      const score = scores[slot]!;
      // A cheap pre-check; wouldAccept settles ties by slot.
      if (score < threshold) continue;
      if (track) {
        if ((requiredMask[slot]! & query.requiredAll) !== query.requiredAll) continue;
        if (query.cjkMinimum > 0 && otherMatches[slot] === 0 && cjkMatches[slot]! < query.cjkMinimum) continue;
      }
      if (!heap.wouldAccept(slot, score) || !accept(slot)) continue;
      heap.push(slot, score);
      threshold = heap.threshold();
    }
    return this.rerank(heap.drain(), query).slice(0, limit);
  }

  private rerank(candidates: Candidate[], query: PreparedQuery): Candidate[] {
    if (this.idfByTerm.length < this.index.terms.length) {
      this.idfByTerm = new Float64Array(Math.max(this.index.terms.length, this.idfByTerm.length * 2));
    }
    for (const term of query.terms) this.idfByTerm[term.id] = term.idf;
    try {
      return rerank(candidates, query, this.index, this.options, this.idfByTerm);
    } finally {
      for (const term of query.terms) this.idfByTerm[term.id] = 0;
    }
  }
}
