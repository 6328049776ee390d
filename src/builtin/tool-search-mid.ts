/**
 * ToolSearch's answer for mid-conversation delivery: no tool_reference blocks (they would load the
 * tool a second way); the discovered line is the transcript's evidence, and the next request's
 * tool_addition message loads the tools — those it can: a tool the conversation's fixed tools array
 * was pinned without joins only by value (inline tools), so without them it is named, not loaded.
 */
import { formatDiscoveredLine } from "../assembly/discovered-line.ts";
import type { ToolResult } from "../tool/result.ts";
import type { Tool } from "../tool/tool.ts";

/** The answer, and the tools it delivered (found by the session; not the ones it could not add). */
export function midConversationResult(
  found: readonly Tool[],
  notes: readonly string[],
  structured: Record<string, unknown>,
  addable: (name: string) => boolean = () => true,
): { result: ToolResult; delivered: string[] } {
  const names = found.map((tool) => tool.name).filter((name) => addable(name));
  const left = found.map((tool) => tool.name).filter((name) => !names.includes(name));
  const lines = names.length > 0 ? [`Loaded ${names.length} tool(s): ${names.join(", ")}. They are added to your tools before your next turn; call them directly then.`] : [];
  if (left.length > 0) {
    structured.matches = names;
    structured.not_addable = left;
    lines.push(`Not loaded: ${left.join(", ")}. This conversation's tools array was fixed without them (its tool-count limit, or they joined the pool later), and they cannot be added to it mid-conversation.`);
  }
  const parts = [[...lines, ...notes].join("\n")];
  if (names.length > 0) parts.push(formatDiscoveredLine(names));
  return { result: { content: [{ type: "text", text: parts.join("\n\n") }], isError: false, structuredContent: structured }, delivered: names };
}
