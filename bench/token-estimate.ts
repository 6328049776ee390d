/**
 * How close the named token estimate (src/usage/token-estimate.ts, used by `toolpool stats` and
 * `status --watch`) is to a real tokenizer (o200k_base, js-tiktoken): on the first request of each
 * delivery style over the LiveMCPBench pool (tools array plus announcement), and on every source's
 * tool definitions and name lists. Also shows what characters ÷ 2.5 would have said. Prints JSON.
 *
 *   bun run bench/token-estimate.ts
 */
import { getEncoding } from "js-tiktoken";
import { join } from "node:path";
import { assembleRequest, type AssembleSettings } from "../src/assembly/assemble-request.ts";
import { createExecuteExtraTool } from "../src/builtin/execute-extra-tool.ts";
import { builtinTools } from "../src/builtin/list.ts";
import { createToolSearchTool, type ToolSearchEngine } from "../src/builtin/tool-search.ts";
import { assemblePool } from "../src/pool/assemble.ts";
import { buildMcpTool } from "../src/tool/build-tool.ts";
import { mcpServerPrefix } from "../src/tool/names.ts";
import { textResult } from "../src/tool/result.ts";
import type { JsonSchema } from "../src/tool/tool.ts";
import { estimateTokens, TOKEN_COUNTER } from "../src/usage/token-estimate.ts";
import { JsonSchemaCompiler } from "../src/validate/ajv.ts";
import { defaultEvalDir, readJsonl, type EvalTool } from "./lib/eval-data.ts";

const encoder = getEncoding("o200k_base");
const real = (text: string) => encoder.encode(text).length;
const ratio = (estimate: number, actual: number) => Math.round((estimate / actual) * 1000) / 1000;
const compare = (text: string) => {
  const actual = real(text);
  return { o200k: actual, estimate: estimateTokens(text), ratio: ratio(estimateTokens(text), actual), charsOver2_5: ratio(Math.ceil(text.length / 2.5), actual) };
};

const rows = readJsonl<EvalTool>(join(defaultEvalDir(), "tools.jsonl"));
const compiler = new JsonSchemaCompiler();
const mcpTools = rows
  .filter((row) => row.source === "livemcpbench")
  .map((row) => {
    const prefix = `${mcpServerPrefix(row.server)}__`;
    const raw = row.name.startsWith(prefix) ? row.name.slice(prefix.length) : row.name;
    return buildMcpTool({ name: row.name, description: row.description, inputJSONSchema: (row.input_schema ?? { type: "object" }) as JsonSchema, mcpInfo: { server: row.server, tool: raw }, call: async () => textResult("") }, compiler);
  });
const pool = assemblePool({ builtins: builtinTools(), mcpTools });
const engine: ToolSearchEngine = { query: () => ({ kind: "keyword", matches: [] }) };
const metaTools = (delivery: "native" | "proxy" | "mid-conversation") => ({
  toolSearch: createToolSearchTool({ engine, lookup: pool.get, delivery }),
  executeExtraTool: createExecuteExtraTool({ lookup: pool.get }),
});
// Standard is the baseline of every tool in full: no tools array limit here (a real session's
// maxToolsInArray would defer past it, assembly/array-guard.ts).
const base: AssembleSettings = { model: "claude-sonnet-4-5", provider: "anthropic", format: "anthropic", delivery: "auto", announcements: "list", maxToolsInArray: Number.MAX_SAFE_INTEGER };
const firstRequest = (delivery: "standard" | "native" | "proxy") => {
  const assembled = assembleRequest({ settings: { ...base, delivery }, tools: pool.tools, messages: [], metaTools });
  return compare(JSON.stringify(assembled.tools) + (assembled.announcement?.text ?? ""));
};

const bySource = Object.fromEntries(
  ["livemcpbench", "toolbench", "bfcl", "mcp-zero"].map((source) => {
    const tools = rows.filter((row) => row.source === source);
    return [
      source,
      {
        definitions: compare(JSON.stringify(tools.map((row) => ({ name: row.name, description: row.description, input_schema: row.input_schema })))),
        names: compare(tools.map((row) => row.name).join("\n")),
      },
    ];
  }),
);

console.log(
  JSON.stringify(
    {
      benchmark: "token-estimate",
      counter: TOKEN_COUNTER.label,
      reference: "o200k_base (js-tiktoken); ratio = estimate / o200k",
      livemcpbenchFirstRequest: { standard: firstRequest("standard"), native: firstRequest("native"), proxy: firstRequest("proxy") },
      bySource,
    },
    null,
    2,
  ),
);
