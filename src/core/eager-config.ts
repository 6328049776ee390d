/**
 * The daemon config's eager policy (src/deferral/eager-policy.ts): the per-tool `defer` map and
 * `maxToolsInArray`. Per-server `defer` is applied where a server's tools are built (src/mcp/pool-tool.ts),
 * so it covers servers from `mcpConfig` files and projects too.
 */
import type { Config } from "../config/schema.ts";
import { deferSettingFor, MAX_EAGER_MCP_CHARS, type EagerPolicy } from "../deferral/eager-policy.ts";
import type { Pool } from "../pool/assemble.ts";
import type { Logger } from "../runtime/logger.ts";
import type { Tool } from "../tool/tool.ts";
import { mcpServerPrefix } from "../tool/names.ts";

export function eagerPolicyOf(config: Pick<Config, "defer" | "maxToolsInArray">): EagerPolicy {
  return { tools: new Map(Object.entries(config.defer)), servers: new Map(), maxTools: config.maxToolsInArray };
}

/**
 * Which tools the operator defers always — the config's `defer` map, else the server entry's `defer`
 * (as the tool was built) — for the config of the moment; the policy is made once per config.
 */
export function operatorDeferredOf(config: () => Pick<Config, "defer" | "maxToolsInArray">): () => (tool: Tool) => boolean {
  let last: { config: unknown; test: (tool: Tool) => boolean } | undefined;
  return () => {
    const current = config();
    if (last?.config !== current) {
      const policy = eagerPolicyOf(current);
      last = { config: current, test: (tool) => deferSettingFor(tool, policy).setting === "always" };
    }
    return last.test;
  };
}

/** A warning once per change of the guarded set, not per rebuild: a big server reconnecting must not flood the log. */
export function guardWarning(logger: () => Logger): (pool: Pick<Pool, "guarded">, maxToolsInArray: number) => void {
  let logged = "";
  return (pool, maxToolsInArray) => {
    const guarded = pool.guarded ?? [];
    const key = guarded.join(",");
    if (key === logged) return;
    logged = key;
    if (guarded.length === 0) return;
    logger().warn(`more eager tools than the tools array may hold (maxToolsInArray, or ${MAX_EAGER_MCP_CHARS / (1024 * 1024)} MiB of MCP tool definitions): the excess is deferred`, {
      maxToolsInArray,
      deferred: guarded.length,
      tools: guarded.slice(0, 20).join(", "),
    });
  };
}

/**
 * The config's `defer` entries that name no tool: a name that is no built-in of this binary, or
 * `mcp__<server>__…` of a server whose listing has no tool of that name. A misspelt key is a setting
 * silently lost (the config refuses unknown keys for that reason), but tools come and go with their
 * servers, so it is a warning, not an error; a server not listed yet is not judged.
 */
export function unmatchedDeferKeys(defer: Readonly<Record<string, unknown>>, builtins: readonly Pick<Tool, "name">[], mcpTools: readonly Pick<Tool, "name" | "mcpInfo">[]): string[] {
  const keys = Object.keys(defer);
  if (keys.length === 0) return [];
  const names = new Set([...builtins, ...mcpTools].map((tool) => tool.name));
  const listed = new Set(mcpTools.flatMap((tool) => (tool.mcpInfo === undefined ? [] : [`${mcpServerPrefix(tool.mcpInfo.server)}__`])));
  return keys.filter((key) => !names.has(key) && (!key.startsWith("mcp__") || [...listed].some((prefix) => key.startsWith(prefix)))).sort();
}

/** A warning once per change of the unmatched `defer` keys. */
export function deferKeyWarning(logger: () => Logger): (unmatched: readonly string[]) => void {
  let logged = "";
  return (unmatched) => {
    const key = unmatched.join(",");
    if (key === logged) return;
    logged = key;
    if (unmatched.length === 0) return;
    logger().warn("config defer names no tool (a built-in of this binary, or a tool its MCP server lists): the setting does nothing", {
      names: unmatched.slice(0, 20).join(", "),
      count: unmatched.length,
    });
  };
}
