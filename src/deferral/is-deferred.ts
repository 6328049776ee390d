/**
 * Which tools wait behind ToolSearch. The order is the rule (SPEC §6, seed 003): an explicit
 * `alwaysLoad` wins over everything, the meta-tools are never deferred (the model needs them to reach
 * the rest), every MCP tool is deferred, and a built-in decides for itself with `shouldDefer`.
 */
import type { Tool } from "../tool/tool.ts";
import { isMetaToolName } from "./meta-tools.ts";

/** The fields of a tool that deferral reads; a full `Tool` satisfies it. */
export type DeferralFacts = Pick<Tool, "name" | "alwaysLoad" | "isMcp" | "shouldDefer">;

/** Why a tool is (or is not) deferred, in the order the rules are tried. */
export type DeferralRule = "always_load" | "meta_tool" | "mcp_tool" | "should_defer" | "core";

export function deferralRule(tool: DeferralFacts): DeferralRule {
  if (tool.alwaysLoad) return "always_load";
  if (isMetaToolName(tool.name)) return "meta_tool";
  if (tool.isMcp) return "mcp_tool";
  return tool.shouldDefer ? "should_defer" : "core";
}

export function isDeferredTool(tool: DeferralFacts): boolean {
  const rule = deferralRule(tool);
  return rule === "mcp_tool" || rule === "should_defer";
}
