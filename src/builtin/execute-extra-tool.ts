/**
 * ExecuteExtraTool: in proxy delivery, the one fixed entrance through which the model runs a
 * deferred tool — so the tools array never has to change. Built per session by
 * `createExecuteExtraTool(deps)`.
 *
 * It is a router, not a runner: its `redirect` names the target and the call pipeline
 * (`executeTool`) then checks, schedules, times and caps that target exactly as if it had been
 * called by name. It refuses, with the exact next step, a core tool (call it directly) and the
 * meta-tools. A deferred tool this conversation never discovered runs when its params validate
 * (a blind call); when they do not, the pipeline answers with the tool's schema.
 */
import { z } from "zod";
import { isDeferredTool } from "../deferral/is-deferred.ts";
import { EXECUTE_EXTRA_TOOL_NAME, isMetaToolName, TOOL_SEARCH_TOOL_NAME } from "../deferral/meta-tools.ts";
import { buildTool, NO_PATHS } from "../tool/build-tool.ts";
import { errorResult } from "../tool/result.ts";
import type { Tool, ToolInput, ToolRedirect } from "../tool/tool.ts";
import description from "./execute-extra-tool.txt" with { type: "text" };

export interface ExecuteExtraToolDeps {
  /** The pool's lookup, by name or alias. */
  lookup: (name: string) => Tool | undefined;
  /** Default `isDeferredTool`. */
  isDeferred?: (tool: Tool) => boolean;
}

const inputSchema = z.strictObject({
  tool_name: z.string().min(1).describe("The exact name of a deferred tool ToolSearch returned."),
  params: z
    .looseObject({})
    .optional()
    .describe("The tool's input, a JSON object following the input schema ToolSearch showed (default {})."),
});

export function createExecuteExtraTool(deps: ExecuteExtraToolDeps): Tool {
  const isDeferred = deps.isDeferred ?? isDeferredTool;
  const redirect = (input: ToolInput): ToolRedirect => {
    const name = String(input.tool_name);
    const tool = deps.lookup(name);
    if (!tool) {
      return { ok: false, message: `No tool named "${name}" exists. Find the right name with ${TOOL_SEARCH_TOOL_NAME} {"query": "<what the tool does>"}.` };
    }
    const refused = refusal(tool, isDeferred);
    if (refused) return { ok: false, message: refused };
    return { ok: true, tool, input: input.params ?? {} };
  };
  return buildTool({
    name: EXECUTE_EXTRA_TOOL_NAME,
    description,
    inputSchema,
    // Every capability question (read-only, concurrency, hints, timeout, result cap) is answered by
    // the target inside the pipeline; this tool's own answers are the fail-closed defaults.
    redirect,
    access: () => NO_PATHS,
    async call() {
      return errorResult(`${EXECUTE_EXTRA_TOOL_NAME} runs only through the daemon's call pipeline, which hands the call to its target.`);
    },
  });
}

function refusal(tool: Tool, isDeferred: (tool: Tool) => boolean): string | undefined {
  if (isMetaToolName(tool.name)) return `${tool.name} is in your tool list: call it directly, not through ${EXECUTE_EXTRA_TOOL_NAME}.`;
  if (!isDeferred(tool)) {
    return `${tool.name} is a core tool already in your tool list: call it directly with your normal tool interface, not through ${EXECUTE_EXTRA_TOOL_NAME}.`;
  }
  return undefined;
}
