/**
 * Search quality on the shared eval set: indexes the tools file as the pool, runs every query
 * through ToolSearchIndex.query (the ToolSearch code path; natural language goes in as keywords),
 * and prints hit@1/5/10, MRR@10 and all@5 overall, per source, per language group, plus latency:
 * the cold first pass (each query once, of engines built afresh that never saw it) as the
 * headline, the second pass (query cache emptied, its words met before: `warmWords`) and the
 * repeat pass (query-cache hits) beside it, and the same figures for the peers asked in the same loop (a plain
 * BM25F, bench/lib/bm25f-peer.ts, and MiniSearch unless --no-minisearch).
 *
 *   bun bench/search-quality.ts [--tools FILE] [--queries FILE] [--rankings OUT.jsonl] [--json]
 *        [--ranking '{"k1":1.5}'] [--half a|b] [--subsets] [--real-rankings OUT.jsonl] [--no-minisearch] [--rounds 5]
 *
 * The JSON also has `realServers`: the same engine over bench/data (the tools/list of 31 popular
 * npm MCP servers and requests written against them), per failure class and style. That set is
 * not split into halves: it is a check on real pools, not a tuning set.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RankingOptions } from "../src/search/ranking-options.ts";
import { searchDocumentFromTool } from "../src/search/tool-document.ts";
import { ToolSearchIndex } from "../src/search/tool-search-index.ts";
import { parseArgs } from "./lib/args.ts";
import { defaultEvalDir, hasCjk, readJsonl, type EvalQuery, type EvalTool } from "./lib/eval-data.ts";
import { Bm25fPeer } from "./lib/bm25f-peer.ts";
import { daemonLearnWords, daemonWarmUp, measureLatency, warmUpQueries, type EngineBuilder, type TimedEngine } from "./lib/cold-latency.ts";
import { MiniSearchEngine } from "./lib/minisearch-engine.ts";
import { judge, score, type RetrievalScores } from "./lib/retrieval-metrics.ts";
import { readRealCatalogs, readRealRequests, realCatalogTools } from "./lib/real-servers.ts";
import { mean, percentile, round } from "./lib/stats.ts";

const RANKED = 10;

const args = parseArgs(Bun.argv.slice(2), {
  "no-query-warm-up": "flag",
  "no-learn-words": "flag",
  "daemon-like": "flag",
  tools: "value",
  queries: "value",
  rankings: "value",
  json: "flag",
  ranking: "value",
  half: "value",
  subsets: "flag",
  "real-rankings": "value",
  "no-minisearch": "flag",
  rounds: "value",
});
const evalDir = defaultEvalDir();
const tools = readJsonl<EvalTool>(args.get("tools") ?? join(evalDir, "tools.jsonl"));
let queries = readJsonl<EvalQuery>(args.get("queries") ?? join(evalDir, "queries.dev.jsonl"));
const half = args.get("half");
if (half !== undefined) queries = queries.filter((query) => (inFirstHalf(query.id) ? "a" : "b") === half);
const ranking = args.has("ranking") ? (JSON.parse(args.get("ranking")!) as Partial<RankingOptions>) : {};

// The headline is the cold pass: each round builds the engines afresh from the same tools, warms
// their JIT on unrelated queries, then asks each distinct query once (lib/cold-latency.ts). The
// second pass (query cache emptied, words met before) and the repeat pass (query-cache hits) are
// reported beside it. The peers are built and asked in the same loop.
const documents = args.has("no-minisearch") ? [] : MiniSearchEngine.documentsOf(tools);
/** How many tools the toolpool index holds (the report's `pool`). */
let poolSize = 0;
const builders: EngineBuilder[] = [
  () => {
    const built = new ToolSearchIndex({ ranking });
    for (const tool of tools) built.add(searchDocumentFromTool(tool));
    poolSize = built.size;
    return {
      name: "toolpool",
      query: (text) => built.query(text, { maxResults: RANKED }).matches.map((match) => match.name),
      clearCache: () => built.clearQueryCache(),
      // Every term's impacts, as the daemon works them out after a catch-up (core/impact-sweep.ts).
      precompute: () => void built.precomputeImpacts(Number.MAX_SAFE_INTEGER),
      // The daemon's query warm-up after the sweep (core/query-warm-up.ts), unless --no-query-warm-up.
      ...(!args.has("no-query-warm-up") && { warmUp: daemonWarmUp(built, tools) }),
      // Its second step, the pool's words (ToolSearchIndex.learnWords), timed apart; off with --no-learn-words.
      ...(!args.has("no-query-warm-up") && !args.has("no-learn-words") && { learnWords: daemonLearnWords(built, tools) }),
    };
  },
  () => {
    const peer = new Bm25fPeer(tools);
    return { name: "bm25f", query: (text) => peer.query(text, RANKED) };
  },
  ...(args.has("no-minisearch")
    ? []
    : [
        (): TimedEngine => {
          const mini = new MiniSearchEngine(documents);
          return { name: "minisearch", query: (text) => mini.query(text, RANKED) };
        },
      ]),
];
// --daemon-like: no bench warm-up, so round one's first pass is a fresh process's first queries (`firstRound`).
const daemonLike = args.has("daemon-like");
const timing = measureLatency(builders, daemonLike ? [] : warmUpQueries(tools), queries.map((query) => query.query), Number(args.get("rounds") ?? 5));
const buildMs = timing.buildMs.get("toolpool")!;
const impactSweepMs = timing.precomputeMs.get("toolpool")!;
const warmUpMs = timing.warmUpMs.get("toolpool");
const learnWordsMs = timing.learnWordsMs.get("toolpool");
const engineNames = [...timing.rankings.keys()];
const distinctTexts = [...new Set(queries.map((query) => query.query))];
const rankingOf = (engine: string) => {
  const byText = new Map(distinctTexts.map((text, i) => [text, timing.rankings.get(engine)![i]!]));
  return queries.map((query) => byText.get(query.query)!);
};
const rankings = rankingOf("toolpool");
const latencyOf = (engine: string) => {
  const cold = timing.cold.get(engine)!;
  const repeat = timing.repeat.get(engine)!;
  return {
    coldP50: round(percentile(cold, 50)),
    coldP99: round(percentile(cold, 99)),
    coldMean: round(mean(cold)),
    firstRoundP50: round(percentile(timing.firstRound.get(engine)!, 50)),
    firstRoundP99: round(percentile(timing.firstRound.get(engine)!, 99)),
    warmWordsP50: round(percentile(timing.warmWords.get(engine)!, 50)),
    warmWordsP99: round(percentile(timing.warmWords.get(engine)!, 99)),
    repeatP50: round(percentile(repeat, 50)),
    repeatP99: round(percentile(repeat, 99)),
  };
};
const peerScores = (engine: string) => {
  const s = score(queries.map((query, i) => judge(query, rankingOf(engine)[i]!)));
  return { "hit@1": s["hit@1"], "hit@5": s["hit@5"], "mrr@10": s["mrr@10"], ...latencyOf(engine) };
};

const judgements = queries.map((query, i) => judge(query, rankings[i]!));
const groupScores = (key: (query: EvalQuery) => string | undefined): Record<string, RetrievalScores> => {
  const groups = new Map<string, number[]>();
  queries.forEach((query, i) => {
    const name = key(query);
    if (name === undefined) return;
    groups.set(name, [...(groups.get(name) ?? []), i]);
  });
  return Object.fromEntries(
    [...groups].sort(([a], [b]) => a.localeCompare(b)).map(([name, members]) => [name, score(members.map((i) => judgements[i]!))]),
  );
};

const report = {
  benchmark: "search-quality",
  pool: poolSize,
  queries: queries.length,
  ...(half === undefined ? {} : { half }),
  buildMs: round(buildMs, 1),
  // Every term's impacts worked out right after the build (off the queries, as in the daemon).
  impactSweepMs: round(impactSweepMs, 1),
  // The daemon's query warm-up after the sweep (off the queries); absent with --no-query-warm-up.
  ...(warmUpMs !== undefined && { warmUpMs: round(warmUpMs, 1) }),
  ...(learnWordsMs !== undefined && { learnWordsMs: round(learnWordsMs, 1) }),
  ...(daemonLike && { daemonLike: true }),
  overall: score(judgements),
  bySource: groupScores((query) => query.source),
  byLanguage: groupScores((query) =>
    (query.lang ?? "en") === "en" ? undefined : hasCjk(query.query) ? "cjk" : "other-non-english",
  ),
  ...(args.has("subsets") ? { bySubset: groupScores((query) => `${query.source}/${query.subset ?? "-"}`) } : {}),
  realServers: realServerScores(),
  // Cold = each distinct query once of freshly built engines (first pass); warmWords = again with
  // the query cache emptied (words met before); repeat = once more (cache hits).
  latencyMs: latencyOf("toolpool"),
  peers: Object.fromEntries(engineNames.slice(1).map((engine) => [engine, peerScores(engine)])),
};

const rankingsPath = args.get("rankings");
if (rankingsPath !== undefined) {
  const lines = queries.map((query, i) => JSON.stringify({ id: query.id, ranked: rankings[i] }));
  writeFileSync(rankingsPath, lines.join("\n") + "\n");
}

if (args.has("json")) {
  console.log(JSON.stringify(report, null, 2));
} else {
  const rows: [string, RetrievalScores][] = [
    ["overall", report.overall],
    ...Object.entries(report.bySource),
    ...Object.entries(report.byLanguage),
    ...Object.entries(report.bySubset ?? {}),
  ];
  console.log(`pool ${report.pool} tools, ${report.queries} queries, build ${report.buildMs} ms, impact sweep ${report.impactSweepMs} ms, query warm-up ${warmUpMs === undefined ? "off" : `${round(warmUpMs, 1)} ms`}`);
  console.log("group".padEnd(32) + ["n", "hit@1", "hit@5", "hit@10", "mrr@10", "all@5"].map((h) => h.padStart(8)).join(""));
  for (const [name, s] of rows) {
    const cells = [s.queries, s["hit@1"], s["hit@5"], s["hit@10"], s["mrr@10"], s["all@5"]];
    console.log(name.padEnd(32) + cells.map((cell) => String(cell).padStart(8)).join(""));
  }
  console.log(`latency ms: ${JSON.stringify(report.latencyMs)}`);
  console.log(`peers: ${JSON.stringify(report.peers)}`);
}

/** The real-server set: 31 npm MCP servers' catalogs and the requests in bench/data. */
function realServerScores() {
  const catalogs = readRealCatalogs();
  const realIndex = new ToolSearchIndex({ ranking });
  const realTools = realCatalogTools(catalogs);
  for (const tool of realTools) realIndex.add(searchDocumentFromTool(tool));
  // Warmed as the daemon warms it, so the rankings written below show the warm-up changes none.
  if (!args.has("no-query-warm-up")) daemonWarmUp(realIndex, realTools)();
  if (!args.has("no-query-warm-up") && !args.has("no-learn-words")) daemonLearnWords(realIndex, realTools)();
  const requests = readRealRequests();
  const ranked = requests.map((request) => realIndex.query(request.query, { maxResults: RANKED }).matches.map((match) => match.name));
  const verdicts = requests.map((request, i) => judge(request, ranked[i]!));
  const groups = (key: (i: number) => string) => {
    const members = new Map<string, number[]>();
    requests.forEach((_, i) => members.set(key(i), [...(members.get(key(i)) ?? []), i]));
    return Object.fromEntries([...members].sort(([a], [b]) => a.localeCompare(b)).map(([name, list]) => [name, score(list.map((i) => verdicts[i]!))]));
  };
  const path = args.get("real-rankings");
  if (path !== undefined) {
    writeFileSync(path, requests.map((request, i) => JSON.stringify({ id: request.id, query: request.query, gold: request.gold, ranked: ranked[i] })).join("\n") + "\n");
  }
  return {
    servers: catalogs.length,
    pool: realIndex.size,
    queries: requests.length,
    overall: score(verdicts),
    byClass: groups((i) => requests[i]!.class),
    byStyle: groups((i) => requests[i]!.style),
    byClassAndStyle: groups((i) => `${requests[i]!.class}/${requests[i]!.style}`),
  };
}

/** A stable split of the dev queries into halves, to check that a change generalises. */
function inFirstHalf(id: string): boolean {
  return Number(Bun.hash(id) % 2n) === 0;
}
