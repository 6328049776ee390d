/**
 * Search at scale, beside the peers: index build time, cold query latency (each query asked once
 * of engines built afresh each round, so no cache of any kind has seen it; median over rounds, see
 * lib/cold-latency.ts; `coldCpuMs` the same in the main thread's CPU time, which the scheduler of a
 * busy machine does not inflate) with the second-pass (`warmWordsMs`: query cache emptied, words met before)
 * and repeat (cache-hit) figures beside it, and memory, at 1k, 7.1k, 50k and 100k tools. Pools above the real
 * 7,108 tools are renamed copies of it; queries are the dev queries (an even sample of them).
 *
 * Latency: one child process per size builds every engine and asks them the same queries in one
 * interleaved loop. Memory: one child process per engine and size builds that engine alone, so
 * its peak RSS (getrusage maxrss) is that engine's; `poolRssMiB` is what the child held before
 * building (the tools themselves, the same for every engine).
 *
 *   bun bench/search-scale.ts [--tools FILE] [--queries FILE] [--sizes 1000,7108,50000,100000]
 *        [--sample 400] [--engines toolpool,bm25f,minisearch] [--rounds 3] [--no-query-warm-up] [--daemon-like]
 *        [--ranking '{"candidates":25}']   (knobs of src/search/ranking-options.ts, as search-quality's --ranking)
 */
import { join } from "node:path";
import type { RankingOptions } from "../src/search/ranking-options.ts";
import { searchDocumentFromTool } from "../src/search/tool-document.ts";
import { ToolSearchIndex } from "../src/search/tool-search-index.ts";
import { parseArgs } from "./lib/args.ts";
import { Bm25fPeer } from "./lib/bm25f-peer.ts";
import { daemonLearnWords, daemonWarmUp, measureLatency, warmUpQueries, type TimedEngine } from "./lib/cold-latency.ts";
import { defaultEvalDir, readJsonl, type EvalQuery, type EvalTool } from "./lib/eval-data.ts";
import { MiniSearchEngine } from "./lib/minisearch-engine.ts";
import { replicatePool } from "./lib/pool-replication.ts";
import { judge, score } from "./lib/retrieval-metrics.ts";
import { percentile, round } from "./lib/stats.ts";
import { threadCpuClock } from "./lib/thread-clock.ts";

const RANKED = 10;

const args = parseArgs(Bun.argv.slice(2), {
  tools: "value",
  queries: "value",
  sizes: "value",
  sample: "value",
  engines: "value",
  rounds: "value",
  child: "value",
  "no-query-warm-up": "flag",
  "daemon-like": "flag",
  ranking: "value",
});
const ranking = args.has("ranking") ? (JSON.parse(args.get("ranking")!) as Partial<RankingOptions>) : undefined;
// Passed on to the children as given.
const passedFlags = [
  ...["no-query-warm-up", "daemon-like"].filter((flag) => args.has(flag)).map((flag) => `--${flag}`),
  ...(ranking === undefined ? [] : ["--ranking", JSON.stringify(ranking)]),
];
const evalDir = defaultEvalDir();
const toolsPath = args.get("tools") ?? join(evalDir, "tools.jsonl");
const queriesPath = args.get("queries") ?? join(evalDir, "queries.dev.jsonl");
const engineNames = (args.get("engines") ?? "toolpool,bm25f,minisearch").split(",");
const sampleSize = Number(args.get("sample") ?? 400);
const rounds = Number(args.get("rounds") ?? 3);

/** Builds one engine over a pool (MiniSearch gets its documents made beforehand; toolpool and BM25F convert as they build). */
const builders: Record<string, (pool: EvalTool[]) => () => TimedEngine> = {
  toolpool: (pool) => {
    return () => {
      // Tool by tool, as the daemon feeds it (src/core/search-sync.ts): each document is made,
      // indexed and dropped, so the engine is charged for its conversion as the peers are for theirs.
      const index = new ToolSearchIndex(ranking === undefined ? {} : { ranking });
      for (const tool of pool) index.add(searchDocumentFromTool(tool));
      if (index.size !== pool.length) throw new Error(`pool names are not unique: ${index.size} of ${pool.length}`);
      return {
        name: "toolpool",
        query: (text) => index.query(text, { maxResults: RANKED }).matches.map((match) => match.name),
        clearCache: () => index.clearQueryCache(),
        // Every term's impacts, as the daemon works them out after a catch-up (none past ~20k tools).
        precompute: () => void index.precomputeImpacts(Number.MAX_SAFE_INTEGER),
        // The daemon's query warm-up after the sweep (core/query-warm-up.ts), unless --no-query-warm-up.
        ...(!args.has("no-query-warm-up") && { warmUp: daemonWarmUp(index, pool) }),
        // Its second step, the pool's words (ToolSearchIndex.learnWords), timed apart.
        ...(!args.has("no-query-warm-up") && { learnWords: daemonLearnWords(index, pool) }),
      };
    };
  },
  bm25f: (pool) => () => {
    const peer = new Bm25fPeer(pool);
    return { name: "bm25f", query: (text) => peer.query(text, RANKED) };
  },
  minisearch: (pool) => {
    const documents = MiniSearchEngine.documentsOf(pool);
    return () => {
      const search = new MiniSearchEngine(documents);
      return { name: "minisearch", query: (text) => search.query(text, RANKED) };
    };
  },
};
for (const name of engineNames) if (builders[name] === undefined) throw new Error(`unknown engine ${name}; known: ${Object.keys(builders).join(", ")}`);

const child = args.get("child");
if (child !== undefined) {
  console.log(JSON.stringify(runChild(child)));
} else {
  const tools = readJsonl<EvalTool>(toolsPath);
  const sizes = (args.get("sizes") ?? `1000,${tools.length},50000,100000`).split(",").map(Number);
  const results: unknown[] = [];
  for (const size of sizes) {
    const latency = spawnChild(`latency:${size}`) as { rows: Record<string, unknown>[] };
    for (const row of latency.rows) {
      const memory = spawnChild(`memory:${size}:${row.engine}`) as Record<string, unknown>;
      results.push({ ...row, ...memory });
    }
  }
  console.log(JSON.stringify({ benchmark: "search-scale", ...(ranking !== undefined && { ranking }), queries: Math.min(sampleSize, readJsonl<EvalQuery>(queriesPath).length), rounds, results }, null, 2));
}

function spawnChild(spec: string): unknown {
  const argv = [process.execPath, import.meta.path, "--child", spec, "--tools", toolsPath, "--queries", queriesPath, "--engines", engineNames.join(","), "--sample", String(sampleSize), "--rounds", String(rounds), ...passedFlags];
  const run = Bun.spawnSync(argv, { stdout: "pipe", stderr: "inherit" });
  if (run.exitCode !== 0) throw new Error(`child ${spec} failed with exit code ${run.exitCode}`);
  return JSON.parse(run.stdout.toString());
}

function runChild(spec: string): unknown {
  const [kind, sizeText, engineName] = spec.split(":");
  const tools = readJsonl<EvalTool>(toolsPath);
  const pool = replicatePool(tools, Number(sizeText));
  if (kind === "memory") {
    const prepare = builders[engineName!]!(pool);
    const poolRss = process.memoryUsage().rss;
    const engine = prepare();
    engine.precompute?.();
    engine.warmUp?.();
    engine.learnWords?.();
    for (const text of sampleQueries()) engine.query(text.query);
    Bun.gc(true);
    const peak = process.resourceUsage().maxRSS * 1024;
    return { peakRssMiB: round(peak / 2 ** 20, 1), poolRssMiB: round(poolRss / 2 ** 20, 1), engineRssMiB: round((peak - poolRss) / 2 ** 20, 1) };
  }
  const queries = sampleQueries();
  const builds = engineNames.map((name) => builders[name]!(pool));
  // --daemon-like: no bench warm-up; round one's first pass (`firstRoundMs`) is a fresh process's first queries.
  const timing = measureLatency(builds, args.has("daemon-like") ? [] : warmUpQueries(tools), queries.map((query) => query.query), rounds, threadCpuClock.now);
  const distinct = [...new Set(queries.map((query) => query.query))];
  const rows = [...timing.rankings.keys()].map((name) => {
    const figures = (samples: number[]) => ({ p50: round(percentile(samples, 50)), p99: round(percentile(samples, 99)) });
    const row: Record<string, unknown> = {
      engine: name,
      tools: pool.length,
      buildMs: round(timing.buildMs.get(name)!, 1),
      ...(timing.precomputeMs.has(name) && { impactSweepMs: round(timing.precomputeMs.get(name)!, 1) }),
      ...(timing.warmUpMs.has(name) && { warmUpMs: round(timing.warmUpMs.get(name)!, 1) }),
      ...(timing.learnWordsMs.has(name) && { learnWordsMs: round(timing.learnWordsMs.get(name)!, 1) }),
      coldMs: figures(timing.cold.get(name)!),
      // The same queries in the main thread's CPU time: what the query cost, without the scheduler's
      // slices (at 100k tools, load 2–8 on 2 cores, 18 runs of two trees: our wall p99 1.25–9.26 ms,
      // the peer's 0.89–5.82; our CPU p99 in 13 of them 1.11–1.88; docs/search.md, thirteenth round).
      ...(timing.coldCpu.has(name) && { coldCpuMs: figures(timing.coldCpu.get(name)!), clock: threadCpuClock.kind }),
      firstRoundMs: figures(timing.firstRound.get(name)!),
      warmWordsMs: figures(timing.warmWords.get(name)!),
      repeatMs: figures(timing.repeat.get(name)!),
    };
    if (pool.length === tools.length) {
      const byText = new Map(distinct.map((text, i) => [text, timing.rankings.get(name)![i]!]));
      const quality = score(queries.map((query) => judge(query, byText.get(query.query)!)));
      row.quality = { sampleQueries: quality.queries, "hit@1": quality["hit@1"], "hit@5": quality["hit@5"], "mrr@10": quality["mrr@10"] };
    }
    return row;
  });
  return { rows };
}

function sampleQueries(): EvalQuery[] {
  const all = readJsonl<EvalQuery>(queriesPath);
  const step = Math.max(1, all.length / sampleSize);
  return Array.from({ length: Math.min(sampleSize, all.length) }, (_, i) => all[Math.floor(i * step)]!);
}
