/**
 * Search at scale, side by side with MiniSearch in the same process: index build time, query
 * latency (p50 / p99, warm) and memory at 1k, 7.1k, 50k and 100k tools. Pools above the real
 * 7,108 tools are renamed copies of it; queries are the dev queries (an even sample of them).
 *
 *   bun bench/search-scale.ts [--tools FILE] [--queries FILE] [--sizes 1000,7108,50000,100000]
 *        [--sample 400] [--engines toolpool,minisearch]
 */
import { join } from "node:path";
import { searchDocumentFromTool } from "../src/search/tool-document.ts";
import { ToolSearchIndex } from "../src/search/tool-search-index.ts";
import { parseArgs } from "./lib/args.ts";
import { defaultEvalDir, readJsonl, type EvalQuery, type EvalTool } from "./lib/eval-data.ts";
import { MiniSearchEngine } from "./lib/minisearch-engine.ts";
import { replicatePool } from "./lib/pool-replication.ts";
import { judge, score } from "./lib/retrieval-metrics.ts";
import { heapUsedMiB, percentile, round, rssMiB } from "./lib/stats.ts";

const RANKED = 10;

interface Engine {
  query(text: string): string[];
}

const args = parseArgs(Bun.argv.slice(2), {
  tools: "value",
  queries: "value",
  sizes: "value",
  sample: "value",
  engines: "value",
});
const evalDir = defaultEvalDir();
const tools = readJsonl<EvalTool>(args.get("tools") ?? join(evalDir, "tools.jsonl"));
const allQueries = readJsonl<EvalQuery>(args.get("queries") ?? join(evalDir, "queries.dev.jsonl"));
const sizes = (args.get("sizes") ?? `1000,${tools.length},50000,100000`).split(",").map(Number);
const sampleSize = Number(args.get("sample") ?? 400);
const engines = (args.get("engines") ?? "toolpool,minisearch").split(",");
const step = Math.max(1, allQueries.length / sampleSize);
const queries = Array.from({ length: Math.min(sampleSize, allQueries.length) }, (_, i) => allQueries[Math.floor(i * step)]!);

/**
 * Per engine: turn the pool into the engine's input (not measured: the caller holds its tools
 * anyway), then return the measured build.
 */
const builders: Record<string, (pool: EvalTool[]) => () => Engine> = {
  toolpool: (pool) => {
    const docs = pool.map(searchDocumentFromTool);
    return () => {
      const index = new ToolSearchIndex();
      for (const doc of docs) index.add(doc);
      if (index.size !== pool.length) throw new Error(`pool names are not unique: ${index.size} of ${pool.length}`);
      return { query: (text) => index.query(text, { maxResults: RANKED }).matches.map((match) => match.name) };
    };
  },
  minisearch: (pool) => {
    const documents = MiniSearchEngine.documentsOf(pool);
    return () => {
      const search = new MiniSearchEngine(documents);
      return { query: (text) => search.query(text, RANKED) };
    };
  },
};

const results: Record<string, unknown>[] = [];
for (const size of sizes) {
  const pool = replicatePool(tools, size);
  for (const name of engines) {
    const build = builders[name];
    if (build === undefined) throw new Error(`unknown engine ${name}; known: ${Object.keys(builders).join(", ")}`);
    results.push(measure(name, size, pool, build));
  }
}
console.log(JSON.stringify({ benchmark: "search-scale", queries: queries.length, results }, null, 2));

function measure(engineName: string, size: number, pool: EvalTool[], prepare: (pool: EvalTool[]) => () => Engine) {
  const build = prepare(pool);
  const heapBefore = heapUsedMiB();
  const buildStart = Bun.nanoseconds();
  let engine: Engine | undefined = build();
  const buildMs = (Bun.nanoseconds() - buildStart) / 1e6;
  const indexMiB = round(heapUsedMiB() - heapBefore, 1);
  const rssAfterBuild = rssMiB();

  // First pass warms the JIT (and any query cache, as a long-lived daemon's would be); the second is timed.
  const rankings = queries.map((query) => engine!.query(query.query));
  const latencies = queries.map((query) => {
    const start = Bun.nanoseconds();
    engine!.query(query.query);
    return (Bun.nanoseconds() - start) / 1e6;
  });
  const row: Record<string, unknown> = {
    engine: engineName,
    tools: size,
    buildMs: round(buildMs, 1),
    queryMs: { p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)) },
    // Heap the engine holds after building, and after the queries (lazily built caches included).
    indexHeapMiB: indexMiB,
    indexHeapAfterQueriesMiB: round(heapUsedMiB() - heapBefore, 1),
    // Process-wide, so it also carries what earlier rows left behind.
    rssMiB: rssAfterBuild,
  };
  if (size === tools.length) {
    const quality = score(queries.map((query, i) => judge(query, rankings[i]!)));
    row.quality = { sampleQueries: quality.queries, "hit@1": quality["hit@1"], "hit@5": quality["hit@5"], "mrr@10": quality["mrr@10"] };
  }
  engine = undefined;
  return row;
}
