import type { EvalQuery } from "./eval-data.ts";
import { round } from "./stats.ts";

export interface RetrievalScores {
  queries: number;
  "hit@1": number;
  "hit@5": number;
  "hit@10": number;
  "mrr@10": number;
  "all@5": number;
}

/** Gold steps of a query: its gold groups, or one group per gold tool. */
function goldSteps(query: EvalQuery): string[][] {
  return query.gold_groups ?? query.gold.map((name) => [name]);
}

/** Per-query facts: rank of the first gold tool (1-based, 0 when absent from the list) and all@5. */
export function judge(query: EvalQuery, ranked: readonly string[]): { firstRank: number; all5: boolean } {
  const gold = new Set(goldSteps(query).flat());
  const index = ranked.findIndex((name) => gold.has(name));
  const top5 = new Set(ranked.slice(0, 5));
  const all5 = goldSteps(query).every((group) => group.some((name) => top5.has(name)));
  return { firstRank: index + 1, all5 };
}

export function score(judgements: readonly { firstRank: number; all5: boolean }[]): RetrievalScores {
  const count = judgements.length;
  const share = (test: (j: { firstRank: number; all5: boolean }) => boolean) =>
    count === 0 ? 0 : round(judgements.filter(test).length / count);
  const hit = (k: number) => share((j) => j.firstRank > 0 && j.firstRank <= k);
  const mrr = count === 0 ? 0 : judgements.reduce((sum, j) => sum + (j.firstRank > 0 && j.firstRank <= 10 ? 1 / j.firstRank : 0), 0) / count;
  return { queries: count, "hit@1": hit(1), "hit@5": hit(5), "hit@10": hit(10), "mrr@10": round(mrr), "all@5": share((j) => j.all5) };
}
