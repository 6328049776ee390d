/**
 * The two meta-tools deferral rests on, and the beta that native delivery needs. They are the
 * entrances to every deferred tool, so they are never deferred themselves.
 */

/** The search meta-tool: finds deferred tools and loads (native) or shows (proxy) them. */
export const TOOL_SEARCH_TOOL_NAME = "ToolSearch";

/** The proxy-delivery router: runs a discovered deferred tool by name. */
export const EXECUTE_EXTRA_TOOL_NAME = "ExecuteExtraTool";

/**
 * The Anthropic beta that enables `defer_loading` on tool definitions and `tool_reference` blocks in
 * tool results. Sent only in native delivery, and never when experimental betas are disabled.
 */
export const ADVANCED_TOOL_USE_BETA = "advanced-tool-use-2025-11-20";

export function isMetaToolName(name: string): boolean {
  return name === TOOL_SEARCH_TOOL_NAME || name === EXECUTE_EXTRA_TOOL_NAME;
}
