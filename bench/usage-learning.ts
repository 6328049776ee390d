/**
 * Ranking that learns from use, measured: the calls of one half of the dev queries are replayed as
 * a workspace's history (through the real usage service and its SQLite store, in memory), then the
 * other half is scored with and without the prior — both ways round. Queries are grouped by whether
 * a gold tool is in the history (the prior should help) or not (it must not hurt by > 0.5 points).
 *
 *   bun run bench/usage-learning.ts [--boost 0.3] [--affinity 3] [--saturation 8] [--widen 4] [--min-calls 2]
 */
import { join } from "node:path";
import { searchDocumentFromTool } from "../src/search/tool-document.ts";
import { ToolSearchIndex } from "../src/search/tool-search-index.ts";
import { createLogger } from "../src/runtime/logger.ts";
import { DEFAULT_PRIOR_WEIGHTS, withUsagePrior, type PriorWeights } from "../src/usage/prior-engine.ts";
import { UsageService } from "../src/usage/usage-service.ts";
import { parseArgs } from "./lib/args.ts";
import { defaultEvalDir, readJsonl, type EvalQuery, type EvalTool } from "./lib/eval-data.ts";
import { judge, score } from "./lib/retrieval-metrics.ts";

const RANKED = 10;
const WORKSPACE = "/bench/workspace";
const args = parseArgs(Bun.argv.slice(2), { boost: "value", affinity: "value", saturation: "value", widen: "value", "min-calls": "value" });
const weights: PriorWeights = {
  boost: Number(args.get("boost") ?? DEFAULT_PRIOR_WEIGHTS.boost),
  affinity: Number(args.get("affinity") ?? DEFAULT_PRIOR_WEIGHTS.affinity),
  saturation: Number(args.get("saturation") ?? DEFAULT_PRIOR_WEIGHTS.saturation),
  widen: Number(args.get("widen") ?? DEFAULT_PRIOR_WEIGHTS.widen),
  minCalls: Number(args.get("min-calls") ?? DEFAULT_PRIOR_WEIGHTS.minCalls),
};

const evalDir = defaultEvalDir();
const tools = readJsonl<EvalTool>(join(evalDir, "tools.jsonl"));
const queries = readJsonl<EvalQuery>(join(evalDir, "queries.dev.jsonl"));
const index = new ToolSearchIndex();
for (const tool of tools) index.add(searchDocumentFromTool(tool));

const halfOf = (query: EvalQuery) => (Number(Bun.hash(query.id) % 2n) === 0 ? "a" : "b");
/** One call per gold step: the first member of each gold group, or each gold tool. */
const callsOf = (query: EvalQuery) => (query.gold_groups ? query.gold_groups.map((group) => group[0]!).filter(Boolean) : query.gold);
const goldOf = (query: EvalQuery) => new Set(query.gold_groups ? query.gold_groups.flat() : query.gold);

function run(historyHalf: "a" | "b") {
  const history = queries.filter((query) => halfOf(query) === historyHalf);
  const scored = queries.filter((query) => halfOf(query) !== historyHalf);
  const service = new UsageService({ databasePath: ":memory:", logger: createLogger("error") });
  const called = new Set<string>();
  for (const query of history) {
    const session = { sessionId: `history-${query.id}`, workspace: WORKSPACE };
    const results = index.query(query.query, { maxResults: 5 }).matches.map((match) => match.name);
    service.search({ ...session, kind: "keyword", query: query.query, results, selectMisses: 0, didYouMean: false });
    for (const tool of callsOf(query)) {
      called.add(tool);
      service.call({ ...session, tool, durationMs: 1, isError: false, timedOut: false, truncated: false, known: true });
    }
  }
  const prior = service.prior(WORKSPACE);
  const learned = withUsagePrior(index, () => prior, weights);
  const groups = { goldInHistory: [] as EvalQuery[], goldNotInHistory: [] as EvalQuery[] };
  for (const query of scored) ([...goldOf(query)].some((name) => called.has(name)) ? groups.goldInHistory : groups.goldNotInHistory).push(query);
  const measure = (set: EvalQuery[], engine: { query: typeof index.query }) =>
    score(set.map((query) => judge(query, engine.query(query.query, { maxResults: RANKED }).matches.map((match) => match.name))));
  const compare = (set: EvalQuery[]) => {
    const without = measure(set, index);
    const withPrior = measure(set, learned);
    return {
      queries: set.length,
      without: { "hit@1": without["hit@1"], "hit@5": without["hit@5"] },
      with: { "hit@1": withPrior["hit@1"], "hit@5": withPrior["hit@5"] },
      deltaPoints: { "hit@1": points(withPrior["hit@1"] - without["hit@1"]), "hit@5": points(withPrior["hit@5"] - without["hit@5"]) },
    };
  };
  const report = { goldInHistory: compare(groups.goldInHistory), goldNotInHistory: compare(groups.goldNotInHistory) };
  service.close();
  return { history: historyHalf, historyQueries: history.length, historyTools: called.size, ...report };
}

const points = (share: number) => Math.round(share * 1000) / 10;
const runs = [run("a"), run("b")];
const worstNotInHistory = Math.min(...runs.flatMap((r) => [r.goldNotInHistory.deltaPoints["hit@1"], r.goldNotInHistory.deltaPoints["hit@5"]]));
console.log(
  JSON.stringify(
    {
      benchmark: "usage-learning",
      pool: index.size,
      weights,
      runs,
      worstDeltaPointsGoldNotInHistory: worstNotInHistory,
      holds: worstNotInHistory >= -0.5,
    },
    null,
    2,
  ),
);
