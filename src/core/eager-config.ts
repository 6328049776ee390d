/**
 * The daemon config's eager policy (src/deferral/eager-policy.ts): the per-tool `defer` map and
 * `maxToolsInArray`. Per-server `defer` is applied where a server's tools are built (src/mcp/pool-tool.ts),
 * so it covers servers from `mcpConfig` files and projects too.
 */
import type { Config } from "../config/schema.ts";
import { MAX_EAGER_MCP_CHARS, type EagerPolicy } from "../deferral/eager-policy.ts";
import type { Pool } from "../pool/assemble.ts";
import type { Logger } from "../runtime/logger.ts";

export function eagerPolicyOf(config: Pick<Config, "defer" | "maxToolsInArray">): EagerPolicy {
  return { tools: new Map(Object.entries(config.defer)), servers: new Map(), maxTools: config.maxToolsInArray };
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
