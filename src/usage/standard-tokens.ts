/** What `standard` delivery would send for a pool: every enabled tool in full, no announcement. */
import { baseWireTool, emitWireTool } from "../assembly/wire-format.ts";
import { isMetaToolName } from "../deferral/meta-tools.ts";
import type { Tool } from "../tool/tool.ts";
import { estimateTokens } from "./token-estimate.ts";

export function standardTokens(tools: readonly Tool[], format: "anthropic" | "openai"): number {
  const sent = tools.filter((tool) => tool.isEnabled() && !isMetaToolName(tool.name)).map((tool) => emitWireTool(baseWireTool(tool, format)));
  return estimateTokens(JSON.stringify(sent));
}
