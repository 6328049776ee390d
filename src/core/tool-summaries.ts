/**
 * `toolpool/tools` and the pool's part of `toolpool/status`: each tool of the pool (or of a named
 * profile's view of it) as the operator sees it — source, deferral, whether it is enabled, its hints
 * answered for every input (the cautious answer where they depend on it), its MCP catalog flags.
 */
import type { Config } from "../config/schema.ts";
import { isDeferredTool } from "../deferral/is-deferred.ts";
import type { McpPool } from "../mcp/mcp-pool.ts";
import { applyProfile, ProfileError, resolveProfile } from "../pool/profile.ts";
import type { Pool } from "../pool/assemble.ts";
import { ErrorCode, RpcError } from "../protocol/jsonrpc.ts";
import type { StatusResult, ToolSummary, ToolsResult } from "../protocol/admin-results.ts";

export function toolSummaries(pool: Pool, mcp: McpPool | undefined, config: Config, profile: string | undefined): ToolsResult {
  const shown = profile === undefined ? pool : applyProfile(pool, namedProfile(config, profile));
  return {
    // Annotated, so a field ToolSummary lacks is an error here (an inferred return is not checked).
    tools: shown.tools.map((tool): ToolSummary => ({
      name: tool.name,
      description: tool.description,
      source: tool.isMcp ? "mcp" : "builtin",
      ...(tool.mcpInfo && { server: tool.mcpInfo.server }),
      deferred: isDeferredTool(tool),
      enabled: tool.isEnabled(),
      // What holds for every input; where it depends on the input, the cautious answer.
      readOnly: tool.hints.readOnlyHint === true,
      concurrencySafe: tool.isConcurrencySafe({}),
      destructive: tool.hints.destructiveHint ?? true,
      openWorld: tool.hints.openWorldHint ?? true,
      alwaysLoad: tool.alwaysLoad,
      ...mcp?.toolFlags(tool),
    })),
    collisions: shown.collisions.map((collision) => ({ ...collision, dropped: [...collision.dropped] })),
  };
}

/** The pool's tools by source and the MCP servers by state, plus `total`. */
/** `maxToolsInArray`: the config's limit, shown beside the tools the guard deferred (when it deferred any). */
export function poolStatus(
  pool: Pool,
  mcp: McpPool | undefined,
  maxToolsInArray: number,
  /** Requests the tools array limit changed at assembly, and its last warning. */
  arrayLimit?: { requests: number; last: string },
): Pick<StatusResult, "tools" | "mcpServers" | "guard" | "arrayLimit"> {
  const mcpTools = pool.tools.filter((tool) => tool.isMcp).length;
  const counts: Record<string, number> = { total: 0 };
  for (const server of mcp?.servers() ?? []) {
    counts.total = (counts.total ?? 0) + 1;
    counts[server.state] = (counts[server.state] ?? 0) + 1;
  }
  const guarded = pool.guarded ?? [];
  return {
    tools: { total: pool.tools.length, builtin: pool.tools.length - mcpTools, mcp: mcpTools },
    ...(guarded.length > 0 && { guard: { maxToolsInArray, deferred: [...guarded] } }),
    ...(arrayLimit && { arrayLimit: { maxToolsInArray, ...arrayLimit } }),
    mcpServers: counts,
  };
}

function namedProfile(config: Config, name: string) {
  try {
    return resolveProfile(name, config);
  } catch (error) {
    if (!(error instanceof ProfileError)) throw error;
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params: field "profile": ${error.message}`);
  }
}
