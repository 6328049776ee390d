/**
 * Prefetch quality on the shared eval set, over the product's own prefetch path: every tool of the
 * tools file becomes a deferred MCP tool in the pool, and each query is the user message of turn 1
 * of a fresh session — `turnStarted`, then `prefetch` — scored on its suggestions.
 * Prints hit@3 (any gold among the suggestions) overall and per source, and the prefetch latency.
 *
 *   bun bench/prefetch-quality.ts [--tools FILE] [--queries FILE] [--rankings OUT.jsonl] [--json] [--ranking '{"candidates":25}']
 *
 * --ranking overlays knobs of src/search/ranking-options.ts on the index prefetch searches, as
 * search-quality's --ranking does, so a knob is judged on prefetch without editing the defaults
 * (that index is made without SearchSync's garbage collection beside build slices: build memory
 * only, no ranking changes).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { SearchSync } from "../src/core/search-sync.ts";
import type { RankingOptions } from "../src/search/ranking-options.ts";
import { ToolSearchIndex } from "../src/search/tool-search-index.ts";
import { Prefetcher, type PrefetchSession } from "../src/prefetch/prefetcher.ts";
import { buildMcpTool } from "../src/tool/build-tool.ts";
import { MAX_TOOL_NAME_LENGTH } from "../src/tool/names.ts";
import { textResult } from "../src/tool/result.ts";
import type { Tool } from "../src/tool/tool.ts";
import { JsonSchemaCompiler } from "../src/validate/ajv.ts";
import { parseArgs } from "./lib/args.ts";
import { defaultEvalDir, readJsonl, type EvalQuery, type EvalTool } from "./lib/eval-data.ts";
import { percentile, round } from "./lib/stats.ts";

const args = parseArgs(Bun.argv.slice(2), { tools: "value", queries: "value", rankings: "value", json: "flag", ranking: "value" });
const ranking = args.has("ranking") ? (JSON.parse(args.get("ranking")!) as Partial<RankingOptions>) : undefined;
const evalDir = defaultEvalDir();
const evalTools = readJsonl<EvalTool>(args.get("tools") ?? join(evalDir, "tools.jsonl"));
const queries = readJsonl<EvalQuery>(args.get("queries") ?? join(evalDir, "queries.dev.jsonl"));

/** Eval names may hold characters a tool name may not (BFCL's `Class.method`); pool names are cleaned, scores use the originals. */
const taken = new Set<string>();
function poolName(name: string, index: number): string {
  let cleaned = name.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, MAX_TOOL_NAME_LENGTH);
  if (taken.has(cleaned)) cleaned = `${cleaned.slice(0, MAX_TOOL_NAME_LENGTH - 8)}_${index}`;
  taken.add(cleaned);
  return cleaned;
}

const compiler = new JsonSchemaCompiler();
const originalName = new Map<string, string>();
const tools: Tool[] = evalTools.map((tool, index) => {
  const name = poolName(tool.name, index);
  originalName.set(name, tool.name);
  return buildMcpTool(
    {
      name,
      description: tool.description,
      inputJSONSchema: (tool.input_schema as Record<string, unknown> | undefined) ?? { type: "object" },
      mcpInfo: { server: tool.server, tool: tool.name },
      call: async () => textResult(""),
    },
    compiler,
  );
});
const byName = new Map(tools.map((tool) => [tool.name, tool]));
const sync = new SearchSync(ranking === undefined ? {} : { makeIndex: () => new ToolSearchIndex({ ranking }) });
const buildStart = Bun.nanoseconds();
sync.sync(tools);
const buildMs = (Bun.nanoseconds() - buildStart) / 1e6;
const prefetcher = new Prefetcher({ engine: sync.index, lookup: (name) => byName.get(name) });

const turnStartMs: number[] = [];
const answerMs: number[] = [];
const rows: { id: string; ranked: string[] }[] = [];
const hits = new Map<string, { queries: number; hits: number }>();
for (const query of queries) {
  const session: PrefetchSession = { id: query.id, delivery: "proxy", enabled: true, discovered: new Set() };
  const messages = [{ role: "user", content: query.query }];
  let start = Bun.nanoseconds();
  prefetcher.turnStarted(session, messages);
  turnStartMs.push((Bun.nanoseconds() - start) / 1e6);
  start = Bun.nanoseconds();
  const result = prefetcher.prefetch(session, messages);
  answerMs.push((Bun.nanoseconds() - start) / 1e6);
  prefetcher.forget(session.id);
  const ranked = result.suggestions.map((suggestion) => originalName.get(suggestion.name) ?? suggestion.name);
  rows.push({ id: query.id, ranked });
  const gold = new Set(query.gold_groups ? query.gold_groups.flat() : query.gold);
  const hit = ranked.some((name) => gold.has(name));
  for (const key of ["overall", query.source]) {
    const entry = hits.get(key) ?? { queries: 0, hits: 0 };
    entry.queries++;
    if (hit) entry.hits++;
    hits.set(key, entry);
  }
}

const rankingsPath = args.get("rankings");
if (rankingsPath) writeFileSync(rankingsPath, rows.map((row) => JSON.stringify(row)).join("\n") + "\n");
const sorted = (samples: number[]) => [...samples].sort((a, b) => a - b);
const hit3 = Object.fromEntries([...hits].map(([key, value]) => [key, { queries: value.queries, "hit@3": round(value.hits / value.queries) }]));
const report = {
  benchmark: "prefetch-quality",
  pool: tools.length,
  ...(ranking !== undefined && { ranking }),
  queries: queries.length,
  path: "Prefetcher.turnStarted + Prefetcher.prefetch (the daemon's toolpool/turnStarted + toolpool/prefetch)",
  indexBuildMs: round(buildMs, 1),
  "hit@3": hit3,
  latencyMs: {
    turnStartP50: round(percentile(sorted(turnStartMs), 0.5), 4),
    turnStartP99: round(percentile(sorted(turnStartMs), 0.99), 4),
    precomputedAnswerP50: round(percentile(sorted(answerMs), 0.5), 4),
    precomputedAnswerP99: round(percentile(sorted(answerMs), 0.99), 4),
  },
  target: { "hit@3": 0.82 },
};
console.log(args.has("json") ? JSON.stringify(report) : JSON.stringify(report, null, 2));
