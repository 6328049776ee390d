/**
 * The wire shapes of Anthropic's mid-conversation tool changes, in one place so a correction is
 * made once. A change is a `role: "system"` message inserted between turns whose content holds
 * one block per tool:
 *
 *   {"role": "system", "content": [
 *     {"type": "tool_addition", "tool": {"type": "tool_reference", "name": "mcp__github__create_issue"}},
 *     {"type": "tool_addition", "tool": {"type": "tool_definition", "definition": {name, description, input_schema}}},
 *     {"type": "tool_removal",  "tool": {"type": "tool_reference", "name": "mcp__jira__create_ticket"}}]}
 *
 * By reference names a tool of the request's fixed `tools[]` (beta
 * `mid-conversation-tool-changes-2026-07-01`); by value (`tool_definition`) carries the whole
 * definition and needs the `inline-tools-2026-09-15` beta. Sources: issue 25's text, the release notes
 * of @langchain/anthropic 1.5.12 and @ai-sdk/anthropic 3.0.139 (beta names, `tool: {type:
 * "tool_definition", definition}`), and the Bedrock ToolAdditionBlock / ToolRemovalBlock reference
 * ("each block references a single tool via its tool field"). The exact block schema was not in the
 * stored copy of Anthropic's page; if it differs, correct it here.
 */
import type { AnthropicWireTool } from "./wire-format.ts";

export const TOOL_ADDITION = "tool_addition";
export const TOOL_REMOVAL = "tool_removal";

/** By-reference tool changes. */
export const MID_CONVERSATION_TOOLS_BETA = "mid-conversation-tool-changes-2026-07-01";
/** By-value tool additions (`tool_definition`). */
export const INLINE_TOOLS_BETA = "inline-tools-2026-09-15";

export interface ToolReferenceTarget {
  type: "tool_reference";
  name: string;
}
export type ToolChangeTarget = ToolReferenceTarget | { type: "tool_definition"; definition: AnthropicWireTool };

/** An addition names or defines its tool; a removal only names it. */
export type ToolChangeBlock = { type: typeof TOOL_ADDITION; tool: ToolChangeTarget } | { type: typeof TOOL_REMOVAL; tool: ToolReferenceTarget };

export interface ToolChangeMessage {
  role: "system";
  content: ToolChangeBlock[];
}

export function toolReference(name: string): ToolReferenceTarget {
  return { type: "tool_reference", name };
}

export function toolDefinition(definition: AnthropicWireTool): ToolChangeTarget {
  return { type: "tool_definition", definition };
}

/** One system message: the additions first, then the removals, each in the order given. */
export function toolChangeMessage(additions: readonly ToolChangeTarget[], removals: readonly string[]): ToolChangeMessage {
  return {
    role: "system",
    content: [
      ...additions.map((tool): ToolChangeBlock => ({ type: TOOL_ADDITION, tool })),
      ...removals.map((name): ToolChangeBlock => ({ type: TOOL_REMOVAL, tool: toolReference(name) })),
    ],
  };
}

/** What one block read from a transcript says; undefined for anything else. Untrusted input. */
export function readToolChange(block: unknown): { action: "addition" | "removal"; name: string } | undefined {
  if (!isRecord(block) || (block.type !== TOOL_ADDITION && block.type !== TOOL_REMOVAL) || !isRecord(block.tool)) return undefined;
  const action = block.type === TOOL_ADDITION ? "addition" : "removal";
  const tool = block.tool;
  // A tool change's reference carries `name` (the API's BetaToolChangeToolReference), unlike the
  // `tool_reference` content block of a tool result, which carries `tool_name`.
  if (tool.type === "tool_reference" && typeof tool.name === "string") return { action, name: tool.name };
  // A removal names its tool; only an addition may carry a definition.
  if (action === "addition" && tool.type === "tool_definition" && isRecord(tool.definition) && typeof tool.definition.name === "string") {
    return { action, name: tool.definition.name };
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
