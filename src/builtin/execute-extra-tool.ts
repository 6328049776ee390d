/**
 * ExecuteExtraTool: in proxy delivery, the one fixed entrance through which the model runs a
 * deferred tool — so the tools array never has to change. Built per session by
 * `createExecuteExtraTool(deps)`.
 *
 * It refuses, with the exact next step, a tool this transcript never discovered (the model would be
 * guessing its schema), a core tool (call it directly) and the meta-tools; anything else goes
 * through the normal pipeline (`executeTool`: enabled → validate → permissions → call → cap), so a
 * deferred tool is checked exactly as if it had been called by name.
 */
import { z } from "zod";
import { isDeferredTool } from "../deferral/is-deferred.ts";
import { EXECUTE_EXTRA_TOOL_NAME, isMetaToolName, TOOL_SEARCH_TOOL_NAME } from "../deferral/meta-tools.ts";
import { executeTool, type ExecuteOptions } from "../tool/execute.ts";
import { buildTool, NO_PATHS } from "../tool/build-tool.ts";
import { errorResult, type ToolResult } from "../tool/result.ts";
import type { Tool, ToolContext, ToolInput } from "../tool/tool.ts";
import description from "./execute-extra-tool.txt" with { type: "text" };

/** Runs a tool by name through the normal pipeline. */
export type ToolExecutor = (name: string, input: ToolInput, context: ToolContext) => Promise<ToolResult>;

export interface ExecuteExtraToolDeps {
  /** The pool's lookup, by name or alias. */
  lookup: (name: string) => Tool | undefined;
  /** Default `isDeferredTool`. */
  isDeferred?: (tool: Tool) => boolean;
  /** The discovered set of the session's current transcript (from the last assemble's scan). */
  discovered: () => ReadonlySet<string>;
  execute: ToolExecutor;
}

/** The executor most sessions want: `executeTool` with the session's options. */
export function pipelineExecutor(options: ExecuteOptions): ToolExecutor {
  return (name, input, context) => executeTool(name, input, context, options);
}

/**
 * The inner call keeps its own deadline (`executeTool` applies the target's timeout); this outer
 * one only has to outlast it, so it is set far above any tool's.
 */
const OUTER_TIMEOUT_MS = 24 * 60 * 60 * 1000;

const inputSchema = z.strictObject({
  tool_name: z.string().min(1).describe("The exact name of a deferred tool ToolSearch returned."),
  params: z
    .looseObject({})
    .optional()
    .describe("The tool's input, a JSON object following the input schema ToolSearch showed (default {})."),
});

export function createExecuteExtraTool(deps: ExecuteExtraToolDeps): Tool {
  const isDeferred = deps.isDeferred ?? isDeferredTool;
  /** The target when the call would be let through, for the capability questions below. */
  const target = (input: ToolInput): Tool | undefined => {
    const tool = typeof input.tool_name === "string" ? deps.lookup(input.tool_name) : undefined;
    return tool && refusal(tool, deps, isDeferred) === undefined ? tool : undefined;
  };
  const params = (input: ToolInput): ToolInput => (isObject(input.params) ? input.params : {});
  return buildTool({
    name: EXECUTE_EXTRA_TOOL_NAME,
    description,
    inputSchema,
    access: () => NO_PATHS,
    timeoutMs: OUTER_TIMEOUT_MS,
    // The inner result is already capped at the target's own limit.
    maxResultSizeChars: Number.MAX_SAFE_INTEGER,
    // Scheduling follows the tool that actually runs; an unknown or refused one is fail-closed.
    isConcurrencySafe: (input) => target(input)?.isConcurrencySafe(params(input)) ?? false,
    isDestructive: (input) => target(input)?.isDestructive(params(input)) ?? false,
    isOpenWorld: (input) => target(input)?.isOpenWorld(params(input)) ?? false,
    // The session's permission rules are applied to the target by the inner pipeline, against the
    // target's own read-only answer. Judged here as well, a write through ExecuteExtraTool would be
    // refused by an allow list that names the target ("mcp__github") but not this router. A deny
    // rule on ExecuteExtraTool itself still applies.
    isReadOnly: () => true,
    permissionSubject: (input) => (typeof input.tool_name === "string" ? input.tool_name : undefined),
    async call(input, context) {
      const tool = deps.lookup(input.tool_name);
      if (!tool) {
        return errorResult(
          `No tool named "${input.tool_name}" exists. Find the right name with ${TOOL_SEARCH_TOOL_NAME} {"query": "<what the tool does>"}.`,
        );
      }
      const refused = refusal(tool, deps, isDeferred);
      if (refused) return errorResult(refused);
      return deps.execute(tool.name, input.params ?? {}, context);
    },
  });
}

function refusal(tool: Tool, deps: ExecuteExtraToolDeps, isDeferred: (tool: Tool) => boolean): string | undefined {
  if (isMetaToolName(tool.name)) return `${tool.name} is in your tool list: call it directly, not through ${EXECUTE_EXTRA_TOOL_NAME}.`;
  if (!isDeferred(tool)) {
    return `${tool.name} is a core tool already in your tool list: call it directly with your normal tool interface, not through ${EXECUTE_EXTRA_TOOL_NAME}.`;
  }
  if (!deps.discovered().has(tool.name)) {
    return `${tool.name} has not been loaded in this conversation, so its input schema is unknown to you. Call ${TOOL_SEARCH_TOOL_NAME} with {"query": "select:${tool.name}"} first, then call ${EXECUTE_EXTRA_TOOL_NAME} again with params that follow the schema it shows.`;
  }
  return undefined;
}

function isObject(value: unknown): value is ToolInput {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
