/**
 * From the daemon's assembled tools array (Anthropic or OpenAI format) to MCP's tool shape, with
 * the hints MCP hosts use to decide whether to ask before a call. The pool's facts come from
 * `toolpool/tools`; the session's own meta-tools are not in the pool, so their hints are stated here.
 */
import type { Tool as McpTool, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { ToolSummary } from "../protocol/methods.ts";

const META_TOOL_HINTS: Record<string, ToolAnnotations> = {
  // ToolSearch only reads the index.
  ToolSearch: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  // ExecuteExtraTool's nature is the nature of whatever it runs: no hint is the honest answer.
};

type JsonObject = Record<string, unknown>;

/** One assembled tool in MCP shape; undefined for an entry that is neither format. */
export function toMcpTool(wire: unknown, facts: ReadonlyMap<string, ToolSummary>): McpTool | undefined {
  const fields = wireFields(wire);
  if (!fields) return undefined;
  const annotations = META_TOOL_HINTS[fields.name] ?? annotationsFrom(facts.get(fields.name));
  return {
    name: fields.name,
    description: fields.description,
    inputSchema: { ...fields.schema, type: "object" },
    ...(annotations && { annotations }),
  };
}

export function toMcpTools(wireTools: readonly unknown[], summaries: readonly ToolSummary[]): McpTool[] {
  const facts = new Map(summaries.map((summary) => [summary.name, summary]));
  return wireTools.map((wire) => toMcpTool(wire, facts)).filter((tool): tool is McpTool => tool !== undefined);
}

function wireFields(wire: unknown): { name: string; description: string; schema: JsonObject } | undefined {
  if (!isObject(wire)) return undefined;
  // OpenAI: {type: "function", function: {name, description, parameters}}.
  const fn = isObject(wire.function) ? wire.function : undefined;
  const source = fn ?? wire;
  const schema = fn ? fn.parameters : wire.input_schema;
  if (typeof source.name !== "string" || !isObject(schema)) return undefined;
  return { name: source.name, description: typeof source.description === "string" ? source.description : "", schema };
}

function annotationsFrom(summary: ToolSummary | undefined): ToolAnnotations | undefined {
  if (!summary) return undefined;
  return { readOnlyHint: summary.readOnly, destructiveHint: summary.destructive, openWorldHint: summary.openWorld };
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
