/**
 * Initial tools-array size in each delivery style, on real MCP tools: the 527 LiveMCPBench tools
 * (70 servers) from ../shared/eval/tools.jsonl as MCP tools, plus this binary's built-ins. Prints
 * JSON. Tokens are counted with js-tiktoken's o200k_base (an OpenAI tokenizer: Anthropic's differs,
 * so read the numbers as sizes relative to each other, which is what the reduction is).
 *
 *   bun run bench/tool-tokens.ts [--eval-dir DIR]
 *   bun run --feature=PROACTIVE bench/tool-tokens.ts     (include gated built-ins)
 */
import { getEncoding } from "js-tiktoken";
import { assembleRequest, type AssembleSettings } from "../src/assembly/assemble-request.ts";
import { baseWireTool, emitWireTool } from "../src/assembly/wire-format.ts";
import { isDeferredTool } from "../src/deferral/is-deferred.ts";
import { createExecuteExtraTool } from "../src/builtin/execute-extra-tool.ts";
import { builtinTools } from "../src/builtin/list.ts";
import { createToolSearchTool, type ToolSearchEngine } from "../src/builtin/tool-search.ts";
import { assemblePool, type Pool } from "../src/pool/assemble.ts";
import { applyProfile, resolveProfile } from "../src/pool/profile.ts";
import { buildMcpTool } from "../src/tool/build-tool.ts";
import { mcpServerPrefix, mcpToolName } from "../src/tool/names.ts";
import { textResult } from "../src/tool/result.ts";
import type { JsonSchema, Tool } from "../src/tool/tool.ts";
import { JsonSchemaCompiler } from "../src/validate/ajv.ts";
import { defaultEvalDir, readJsonl, type EvalTool } from "./lib/eval-data.ts";
import { join } from "node:path";

const TARGET_REDUCTION = 0.95;
const SOURCE = "livemcpbench";

function evalDir(): string {
  const at = process.argv.indexOf("--eval-dir");
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : defaultEvalDir();
}

function loadMcpTools(dir: string): { tools: Tool[]; servers: number; nameMismatches: string[] } {
  const compiler = new JsonSchemaCompiler();
  const rows = readJsonl<EvalTool>(join(dir, "tools.jsonl")).filter((row) => row.source === SOURCE);
  const nameMismatches: string[] = [];
  const tools = rows.map((row) => {
    // Eval names are already `mcp__<server>__<tool>` (server part sanitized): strip back to the tool name.
    const prefix = `${mcpServerPrefix(row.server)}__`;
    const raw = row.name.startsWith(prefix) ? row.name.slice(prefix.length) : row.name;
    const name = mcpToolName(row.server, raw);
    if (name !== row.name) nameMismatches.push(row.name);
    return buildMcpTool(
      {
        name,
        description: row.description,
        inputJSONSchema: (row.input_schema ?? { type: "object" }) as JsonSchema,
        mcpInfo: { server: row.server, tool: raw },
        call: async () => textResult(""),
      },
      compiler,
    );
  });
  return { tools, servers: new Set(rows.map((row) => row.server)).size, nameMismatches };
}

const { tools: mcpTools, servers, nameMismatches } = loadMcpTools(evalDir());
const builtins = builtinTools();
const pool = assemblePool({ builtins, mcpTools });
// The array's bytes do not depend on the engine; ToolSearch is never called here.
const engine: ToolSearchEngine = { query: () => ({ kind: "keyword", matches: [] }) };
const metaToolsFor = (announcements: AssembleSettings["announcements"]) => (delivery: "native" | "proxy" | "mid-conversation") => ({
  toolSearch: createToolSearchTool({ engine, lookup: pool.get, delivery, announcements }),
  executeExtraTool: createExecuteExtraTool({ lookup: pool.get }),
});
const metaTools = metaToolsFor("list");
const encoder = getEncoding("o200k_base");
const tokens = (text: string) => encoder.encode(text).length;

/** LiveMCPBench's server descriptions, standing in for the servers' `instructions`. */
const serverDescriptions = new Map(
  readJsonl<EvalTool>(join(evalDir(), "tools.jsonl"))
    .filter((row) => row.source === SOURCE && row.server_description)
    .map((row) => [row.server, row.server_description!]),
);

/**
 * A session whose profile leaves the built-ins out (`exclude: ["group:builtin"]`), as an MCP host
 * that has its own shell and file tools (Claude Code, Cursor) would pick: the pool is the 527 tools.
 */
const mcpOnly = applyProfile(pool, resolveProfile("mcp-only", { toolGroups: {}, profiles: { "mcp-only": { include: [], exclude: ["group:builtin"] } } }));

function measure(settings: AssembleSettings, serverInstructions?: ReadonlyMap<string, string>, from: Pool = pool) {
  // The session's ToolSearch description depends on its announcement style.
  const result = assembleRequest({ settings, tools: from.tools, messages: [], metaTools: metaToolsFor(settings.announcements), ...(serverInstructions && { serverInstructions }) });
  const json = JSON.stringify(result.tools);
  return {
    delivery: result.delivery,
    tools: result.tools.length,
    bytes: Buffer.byteLength(json),
    tokens: tokens(json),
    announcement_tokens: result.announcement ? tokens(result.announcement.text) : 0,
    estimate_chars_2_5: result.counts.toolTokens,
  };
}

// Standard is the baseline of every tool in full: no tools array limit here (a real session's
// maxToolsInArray would defer past it, assembly/array-guard.ts).
const base: AssembleSettings = { model: "claude-sonnet-4-5", provider: "anthropic", format: "anthropic", delivery: "auto", announcements: "list", maxToolsInArray: Number.MAX_SAFE_INTEGER };
const standard = measure({ ...base, delivery: "standard" });
const native = measure({ ...base, delivery: "native" });
const proxy = measure({ ...base, delivery: "proxy" });
const openaiStandard = measure({ ...base, format: "openai", provider: "openai", model: "gpt-4o", delivery: "standard" });
const openaiProxy = measure({ ...base, format: "openai", provider: "openai", model: "gpt-4o", delivery: "proxy" });

// The first request of a session: tools array plus the announcement, per announcement style.
const firstRequest = (delivery: "native" | "proxy", announcements: AssembleSettings["announcements"], instructions?: ReadonlyMap<string, string>) => {
  const measured = measure({ ...base, delivery, announcements }, instructions);
  return { tools_array: measured.tokens, announcement: measured.announcement_tokens, total: measured.tokens + measured.announcement_tokens };
};
const styles = (delivery: "native" | "proxy") => {
  const rows = {
    list: firstRequest(delivery, "list"),
    delta: firstRequest(delivery, "delta"),
    servers: firstRequest(delivery, "servers"),
    servers_with_instructions: firstRequest(delivery, "servers", serverDescriptions),
  };
  // The core built-ins (Bash, Read, …) are sent in full in every style; this is the share of the rest.
  const core = tokens(JSON.stringify(pool.tools.filter((tool) => tool.isEnabled() && !isDeferredTool(tool)).map(emitted)));
  return Object.fromEntries(
    Object.entries(rows).map(([style, row]) => [
      style,
      { ...row, reduction_vs_standard: reduction(row.total, standard.tokens), core_builtin_tokens: core, reduction_beyond_core: reduction(row.total - core, standard.tokens - core) },
    ]),
  );
};

/** The same three styles for the mcp-only profile, against standard for that profile. */
const profileStyles = (delivery: "native" | "proxy") => {
  const standardMcp = measure({ ...base, delivery: "standard" }, undefined, mcpOnly).tokens;
  const row = (announcements: AssembleSettings["announcements"], instructions?: ReadonlyMap<string, string>) => {
    const measured = measure({ ...base, delivery, announcements }, instructions, mcpOnly);
    const total = measured.tokens + measured.announcement_tokens;
    return { tools_array: measured.tokens, announcement: measured.announcement_tokens, total, reduction_vs_standard: reduction(total, standardMcp) };
  };
  return {
    standard: standardMcp,
    tools_in_array: measure({ ...base, delivery, announcements: "servers" }, undefined, mcpOnly).tools,
    list: row("list"),
    delta: row("delta"),
    servers: row("servers"),
    servers_with_instructions: row("servers", serverDescriptions),
  };
};

const emitted = (tool: Tool) => emitWireTool(baseWireTool(tool, "anthropic"));
const reduction = (tokens: number, from: number) => Number((1 - tokens / from).toFixed(4));

console.log(
  JSON.stringify(
    {
      benchmark: "initial tools-array tokens per delivery style",
      tokenizer: "o200k_base (js-tiktoken) over JSON.stringify(tools); an OpenAI tokenizer, so compare styles, not providers",
      eval: {
        source: SOURCE,
        mcp_tools: mcpTools.length,
        servers,
        name_mismatches: nameMismatches.length,
        // The MCP client caps descriptions at 2048 characters; these tools come straight from the file.
        descriptions_over_2048_chars_uncapped: mcpTools.filter((tool) => tool.description.length > 2048).length,
      },
      builtins: builtins.map((tool) => tool.name),
      format: "anthropic",
      tools_array_tokens: { standard: standard.tokens, native: native.tokens, proxy: proxy.tokens },
      tools_in_array: { standard: standard.tools, native: native.tools, proxy: proxy.tools },
      tools_array_bytes: { standard: standard.bytes, native: native.bytes, proxy: proxy.bytes },
      reduction_vs_standard: { native: reduction(native.tokens, standard.tokens), proxy: reduction(proxy.tokens, standard.tokens) },
      target_reduction: TARGET_REDUCTION,
      meets_target: {
        native: reduction(native.tokens, standard.tokens) >= TARGET_REDUCTION,
        proxy: reduction(proxy.tokens, standard.tokens) >= TARGET_REDUCTION,
      },
      meta_tool_tokens: {
        ToolSearch_native: tokens(JSON.stringify(emitted(metaTools("native").toolSearch))),
        ToolSearch_proxy: tokens(JSON.stringify(emitted(metaTools("proxy").toolSearch))),
        ExecuteExtraTool: tokens(JSON.stringify(emitted(metaTools("proxy").executeExtraTool))),
      },
      list_announcement_tokens: native.announcement_tokens,
      with_list_announcement: {
        native: native.tokens + native.announcement_tokens,
        proxy: proxy.tokens + proxy.announcement_tokens,
        reduction_native: reduction(native.tokens + native.announcement_tokens, standard.tokens),
        reduction_proxy: reduction(proxy.tokens + proxy.announcement_tokens, standard.tokens),
      },
      first_request_by_announcement: {
        note: "tokens of the tools array plus the announcement a session's first request carries; standard sends every tool in full and no announcement",
        standard: standard.tokens,
        target_reduction_servers: 0.97,
        native: styles("native"),
        proxy: styles("proxy"),
        mcp_only_profile: {
          note: 'a session with profile {"exclude":["group:builtin"]}: the pool is the 527 MCP tools, the first request ToolSearch (and ExecuteExtraTool in proxy) plus the announcement',
          native: profileStyles("native"),
          proxy: profileStyles("proxy"),
        },
      },
      servers_announcement_text: measureText(),
      openai_format_tokens: {
        standard: openaiStandard.tokens,
        proxy: openaiProxy.tokens,
        reduction_proxy: reduction(openaiProxy.tokens, openaiStandard.tokens),
      },
      assemble_estimate_chars_per_2_5: { standard: standard.estimate_chars_2_5, native: native.estimate_chars_2_5, proxy: proxy.estimate_chars_2_5 },
    },
    null,
    2,
  ),
);

function measureText(): string {
  const result = assembleRequest({ settings: { ...base, delivery: "native", announcements: "servers" }, tools: pool.tools, messages: [], metaTools });
  return (result.announcement?.text ?? "").split("\n").slice(0, 6).join("\n") + "\n…";
}
