/**
 * Tokens per task over scripted trajectories, per delivery style. Prints JSON.
 *
 * A task is one labelled request: the LiveMCPBench tasks of the dev set (527 tools, 70 servers, from
 * ../shared/eval) and the requests written against the real-server pool (bench/data). Each style's
 * trajectory, counted with js-tiktoken o200k_base (compare styles, not providers):
 *
 * - standard: the first request's tools array holds every tool in full; no search.
 * - list / servers: ToolSearch + ExecuteExtraTool (proxy) or ToolSearch (native) and the list or
 *   servers announcement; one keyword search with the task's text (default max_results 5), answered
 *   as today (every match in full).
 * - compact: the servers announcement and the compact answer (`search_compact_answers` on).
 *
 * Then, for each step of the task (a gold group: any member will do), if no member was delivered in
 * full yet, the model selects one — a member it saw on a compact line, else the first (as if it had
 * found the name another way: the same cost in every search style) — and that `select:` answer is
 * counted. What is counted is what the tooling adds to the context: the first request's tools array
 * and announcement, each ToolSearch call's input and answer; in native delivery a loaded tool's
 * definition (it joins the tools array) instead of a proxy answer's schema text. The tools' own call
 * results are the same in every style and unknown here, so they are left out (they would add the same
 * number to every style). hit@5: a gold tool among the search's first five matches — what the model
 * is shown, in full or as a line.
 *
 *   bun run bench/tokens-per-task.ts [--eval-dir DIR]
 */
import { getEncoding } from "js-tiktoken";
import { join } from "node:path";
import { assembleRequest, type AssembleSettings } from "../src/assembly/assemble-request.ts";
import { baseWireTool, emitWireTool } from "../src/assembly/wire-format.ts";
import { createExecuteExtraTool } from "../src/builtin/execute-extra-tool.ts";
import { CLEAR_FIRST_RATIO, NAMED_FIRST_RATIO } from "../src/builtin/tool-search-compact.ts";
import { createToolSearchTool, runToolSearch, type ToolSearchDeps } from "../src/builtin/tool-search.ts";
import { assemblePool, type Pool } from "../src/pool/assemble.ts";
import { searchDocumentFromTool, type CatalogTool } from "../src/search/tool-document.ts";
import { ToolSearchIndex } from "../src/search/tool-search-index.ts";
import { buildMcpTool } from "../src/tool/build-tool.ts";
import { mcpServerPrefix } from "../src/tool/names.ts";
import { resultText, textResult, type ToolResult } from "../src/tool/result.ts";
import type { JsonSchema, Tool } from "../src/tool/tool.ts";
import { JsonSchemaCompiler } from "../src/validate/ajv.ts";
import { mean, percentile } from "./lib/stats.ts";
import { defaultEvalDir, readJsonl, type EvalQuery, type EvalTool } from "./lib/eval-data.ts";
import { readRealCatalogs, readRealRequests, realCatalogTools } from "./lib/real-servers.ts";

const TARGET_REDUCTION = 0.9;
const argValue = (flag: string) => {
  const at = process.argv.indexOf(flag);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const evalDir = argValue("--eval-dir") ?? defaultEvalDir();
const median = (samples: readonly number[]) => percentile(samples, 50);
const encoder = getEncoding("o200k_base");
const tokens = (text: string) => encoder.encode(text).length;
const compiler = new JsonSchemaCompiler();

interface Task {
  id: string;
  query: string;
  steps: string[][];
}

interface Fixture {
  name: string;
  pool: Pool;
  index: ToolSearchIndex;
  instructions: ReadonlyMap<string, string>;
  tasks: Task[];
}

function toolOf(catalog: CatalogTool & { server: string; rawToolName: string }): Tool {
  return buildMcpTool(
    {
      name: catalog.name,
      description: catalog.description ?? "",
      inputJSONSchema: ((catalog.inputSchema ?? catalog.input_schema) as JsonSchema | undefined) ?? { type: "object" },
      mcpInfo: { server: catalog.server, tool: catalog.rawToolName },
      call: async () => textResult(""),
    },
    compiler,
  );
}

function fixture(name: string, catalogs: (CatalogTool & { server: string; rawToolName: string })[], instructions: Map<string, string>, tasks: Task[]): Fixture {
  const pool = assemblePool({ builtins: [], mcpTools: catalogs.map(toolOf) });
  const index = new ToolSearchIndex();
  for (const tool of catalogs) index.add(searchDocumentFromTool(tool));
  // Only tasks whose every step names a tool of the pool can be scored.
  const known = tasks.filter((task) => task.steps.length > 0 && task.steps.every((step) => step.some((tool) => pool.get(tool) !== undefined)));
  return { name, pool, index, instructions, tasks: known };
}

function liveMcpBench(): Fixture {
  const rows = readJsonl<EvalTool>(join(evalDir, "tools.jsonl")).filter((row) => row.source === "livemcpbench");
  const catalogs = rows.map((row) => {
    const prefix = `${mcpServerPrefix(row.server)}__`;
    return { name: row.name, server: row.server, rawToolName: row.name.startsWith(prefix) ? row.name.slice(prefix.length) : row.name, description: row.description, inputSchema: row.input_schema };
  });
  const instructions = new Map(rows.filter((row) => row.server_description).map((row) => [row.server, row.server_description!]));
  const tasks = readJsonl<EvalQuery>(join(evalDir, "queries.dev.jsonl"))
    .filter((query) => query.source === "livemcpbench")
    .map((query) => ({ id: query.id, query: query.query, steps: query.gold_groups ?? query.gold.map((gold) => [gold]) }));
  return fixture("livemcpbench_dev", catalogs, instructions, tasks);
}

function realServers(): Fixture {
  const catalogs = readRealCatalogs();
  const tools = realCatalogTools(catalogs).map((tool) => ({ ...tool, server: tool.server!, rawToolName: tool.rawToolName! }));
  const instructions = new Map(catalogs.filter((catalog) => catalog.instructions).map((catalog) => [catalog.server, catalog.instructions!]));
  const tasks = readRealRequests().map((request) => ({ id: request.id, query: request.query, steps: request.gold_groups ?? [request.gold] }));
  return fixture("real_servers", tools, instructions, tasks);
}

type Style = "list" | "servers" | "compact";
// Standard is the baseline of every tool in full: no tools array limit here (a real session's
// maxToolsInArray would defer past it, assembly/array-guard.ts).
const base: AssembleSettings = { model: "claude-sonnet-4-5", provider: "anthropic", format: "anthropic", delivery: "auto", announcements: "list", maxToolsInArray: Number.MAX_SAFE_INTEGER };
const emitted = (tool: Tool) => JSON.stringify(emitWireTool(baseWireTool(tool, "anthropic")));

function firstRequest(fx: Fixture, delivery: "standard" | "native" | "proxy", style: Style): number {
  const announcements = style === "list" ? "list" : "servers";
  const metaTools = (kind: "native" | "proxy" | "mid-conversation") => ({
    toolSearch: createToolSearchTool({ engine: fx.index, lookup: fx.pool.get, delivery: kind, announcements, compact: style === "compact" }),
    executeExtraTool: createExecuteExtraTool({ lookup: fx.pool.get }),
  });
  const result = assembleRequest({ settings: { ...base, delivery, announcements }, tools: fx.pool.tools, messages: [], metaTools, serverInstructions: fx.instructions });
  return tokens(JSON.stringify(result.tools)) + (result.announcement ? tokens(result.announcement.text) : 0);
}

/** What one ToolSearch call adds: its input, and its answer (text, plus loaded definitions in native). */
function callCost(fx: Fixture, answer: ToolResult, query: string, delivery: "native" | "proxy"): number {
  let total = tokens(JSON.stringify({ query })) + tokens(resultText(answer));
  if (delivery === "native") {
    for (const block of answer.content) if (block.type === "tool_reference") total += tokens(emitted(fx.pool.get(block.tool_name)!));
  }
  return total;
}

interface TaskOutcome {
  tokens: number;
  hit5: boolean;
  selects: number;
  fullFirst?: { gold: boolean };
}

function runTask(fx: Fixture, task: Task, delivery: "native" | "proxy", style: Style, first: number): TaskOutcome {
  const deps: ToolSearchDeps = { engine: { query: (text, options) => fx.index.query(text, options) }, lookup: fx.pool.get, delivery, compact: style === "compact" };
  const answer = runToolSearch(deps, task.query, 5);
  const structured = answer.structuredContent as { matches: string[]; full?: string[] };
  const shown = structured.matches.slice(0, 5);
  const delivered = new Set(style === "compact" ? (structured.full ?? []) : structured.matches);
  let total = first + callCost(fx, answer, task.query, delivery);
  let selects = 0;
  for (const step of task.steps) {
    if (step.some((tool) => delivered.has(tool))) continue;
    const pick = step.find((tool) => shown.includes(tool)) ?? step.find((tool) => fx.pool.get(tool) !== undefined)!;
    const query = `select:${pick}`;
    total += callCost(fx, runToolSearch(deps, query, 5), query, delivery);
    delivered.add(pick);
    selects++;
  }
  const gold = new Set(task.steps.flat());
  const full = structured.full?.[0];
  return { tokens: total, hit5: shown.some((name) => gold.has(name)), selects, ...(full !== undefined && { fullFirst: { gold: gold.has(full) } }) };
}

const round = (value: number, digits = 4) => Number(value.toFixed(digits));

function measureFixture(fx: Fixture) {
  const standard = firstRequest(fx, "standard", "list");
  const byDelivery = (delivery: "native" | "proxy") => {
    const rows: Record<string, unknown> = {};
    for (const style of ["list", "servers", "compact"] as const) {
      const first = firstRequest(fx, delivery, style);
      const outcomes = fx.tasks.map((task) => runTask(fx, task, delivery, style, first));
      const perTask = outcomes.map((outcome) => outcome.tokens);
      const withFull = outcomes.filter((outcome) => outcome.fullFirst !== undefined);
      rows[style] = {
        first_request: first,
        median: median(perTask),
        mean: round(mean(perTask), 1),
        reduction_median: round(1 - median(perTask) / standard),
        reduction_mean: round(1 - mean(perTask) / standard),
        hit_at_5: round(outcomes.filter((outcome) => outcome.hit5).length / outcomes.length),
        selects_per_task: round(mean(outcomes.map((outcome) => outcome.selects)), 3),
        ...(style === "compact" && {
          clear_first_rate: round(withFull.length / outcomes.length),
          clear_first_is_gold: withFull.length === 0 ? null : round(withFull.filter((outcome) => outcome.fullFirst!.gold).length / withFull.length),
        }),
      };
    }
    return rows;
  };
  const proxy = byDelivery("proxy");
  const native = byDelivery("native");
  const compact = proxy.compact as { reduction_median: number; hit_at_5: number };
  const servers = proxy.servers as { hit_at_5: number };
  return {
    pool: fx.name,
    tools: fx.pool.tools.length,
    servers: new Set(fx.pool.tools.map((tool) => tool.mcpInfo?.server)).size,
    tasks: fx.tasks.length,
    standard: { tokens_per_task: standard, hit_at_5: null },
    proxy,
    native,
    meets_goal_proxy_compact: compact.reduction_median >= TARGET_REDUCTION && compact.hit_at_5 >= servers.hit_at_5,
  };
}

console.log(
  JSON.stringify({
    benchmark: "tokens per task, scripted trajectories",
    tokenizer: "o200k_base (js-tiktoken)",
    counted: "first request (tools array + announcement) + each ToolSearch call's input and answer (+ loaded definitions in native); call results left out (the same in every style)",
    clear_first_ratio: CLEAR_FIRST_RATIO,
    named_first_ratio: NAMED_FIRST_RATIO,
    target_reduction: TARGET_REDUCTION,
    fixtures: [liveMcpBench(), realServers()].map(measureFixture),
  }),
);
