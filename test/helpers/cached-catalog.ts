/**
 * A large pool for a compiled daemon without running a server per 5,000 tools: the tools are
 * written into the catalog cache of a state dir, under lazy servers that are never started (a lazy
 * server with a cached list is known from the cache alone, mcp-pool.ts). The daemon started with
 * that XDG_STATE_HOME and the returned `mcpServers` has every tool in its pool at once, and no
 * search index yet: it builds it in the background once the pool settles (search-warm.ts), or for
 * the first search that comes before that.
 */
import { join } from "node:path";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { CatalogCache } from "../../src/mcp/catalog-cache.ts";
import { MAX_TOOLS_PER_SERVER } from "../../src/mcp/limits.ts";
import { silentLogger } from "../../src/runtime/logger.ts";

export interface CachedTool {
  name: string;
  description: string;
  inputSchema?: unknown;
}

/** Writes `tools` into `<stateHome>/toolpool/catalog.sqlite`, MAX_TOOLS_PER_SERVER a server; returns the servers' config. */
export function seedCachedServers(stateHome: string, tools: readonly CachedTool[], prefix = "big"): Record<string, { command: string; startup: "lazy" }> {
  if (tools.length === 0) throw new Error("seedCachedServers: no tools");
  const cache = CatalogCache.open(join(stateHome, "toolpool", "catalog.sqlite"), silentLogger);
  const servers: Record<string, { command: string; startup: "lazy" }> = {};
  try {
    for (let start = 0, server = 0; start < tools.length; start += MAX_TOOLS_PER_SERVER, server++) {
      const name = `${prefix}${String(server).padStart(2, "0")}`;
      const definitions = tools.slice(start, start + MAX_TOOLS_PER_SERVER).map(
        (tool): McpTool => ({ name: tool.name, description: tool.description, inputSchema: (tool.inputSchema ?? { type: "object" }) as McpTool["inputSchema"] }),
      );
      cache.save(name, definitions, Date.now());
      // Never run: lazy, and known from the cache. `false` exits at once if something did start it.
      servers[name] = { command: "false", startup: "lazy" };
    }
  } finally {
    cache.close();
  }
  return servers;
}

/** A valid MCP tool name (`[a-zA-Z0-9_-]`, short enough for `mcp__<server>__` in front) made unique by `index`. */
export function cachedToolName(raw: string, index: number): string {
  return `${raw.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 36)}_${index}`;
}
