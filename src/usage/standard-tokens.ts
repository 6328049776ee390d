/**
 * What `standard` delivery would send for a pool: every enabled tool in full, no announcement.
 * Counted per tool and remembered per tool object (a pool change rebuilds the pool, not its tools),
 * so only new tools are serialized: a 7k-tool pool costs ~150 ms the first time, nothing after.
 */
import { baseWireTool, emitWireTool } from "../assembly/wire-format.ts";
import { isMetaToolName } from "../deferral/meta-tools.ts";
import type { Tool } from "../tool/tool.ts";
import { estimateTokens } from "./token-estimate.ts";

export type ToolTokenCache = WeakMap<Tool, number>;

export function standardTokens(tools: readonly Tool[], format: "anthropic" | "openai", cache: ToolTokenCache = new WeakMap()): number {
  // The array's brackets and commas: the separators between tools' JSON.
  let total = 1;
  for (const tool of tools) {
    if (!tool.isEnabled() || isMetaToolName(tool.name)) continue;
    let tokens = cache.get(tool);
    if (tokens === undefined) {
      tokens = estimateTokens(JSON.stringify(emitWireTool(baseWireTool(tool, format))));
      cache.set(tool, tokens);
    }
    total += tokens;
  }
  return total;
}
