/**
 * ToolSearch's answer for mid-conversation delivery: no tool_reference blocks (they would load the
 * tool a second way); the discovered line is the transcript's evidence, and the next request's
 * tool_addition message loads the tools — those it can. And, for native and mid-conversation alike,
 * what an answer may load: only as many tools as the request's tools array can still take
 * (core/array-room.ts); the others are named "Not loaded" (`not_addable`), never "not found".
 */
import { formatDiscoveredLine } from "../assembly/discovered-line.ts";
import type { ToolResult } from "../tool/result.ts";
import type { Tool } from "../tool/tool.ts";

/** Which of an answer's tools the session's tools array can take (core/array-room.ts), in the order asked. */
export interface ArrayRoom {
  addable: string[];
  /** Past the room left under the provider's tool-count limit. */
  full: string[];
  /** mid-conversation without inline tools: its pinned array was fixed without them. */
  fixedWithout: string[];
  /** The limit (`maxToolsInArray`) and the room there was before this answer. */
  limit: number;
  room: number;
}

/**
 * The tools an answer loads (those `addable` takes, in order) and the notes naming the others; sets
 * `not_addable` on the structured answer when there are any (and `matches` to the loaded ones,
 * unless `narrowMatches` is false). Without `addable`, all load.
 */
export function withinRoom(found: readonly Tool[], structured: Record<string, unknown>, addable?: (names: readonly string[]) => ArrayRoom, narrowMatches = true): { loaded: Tool[]; notes: string[] } {
  if (addable === undefined || found.length === 0) return { loaded: [...found], notes: [] };
  const room = addable(found.map((tool) => tool.name));
  const taken = new Set(room.addable);
  const loaded = found.filter((tool) => taken.has(tool.name));
  const notes: string[] = [];
  if (room.full.length > 0) {
    notes.push(
      `Not loaded: ${room.full.join(", ")}. They exist, but the tools array this conversation sends holds at most ${room.limit} tools (maxToolsInArray) and had room for ${room.room} more: load fewer at once.`,
    );
  }
  if (room.fixedWithout.length > 0) {
    notes.push(`Not loaded: ${room.fixedWithout.join(", ")}. This conversation's tools array was fixed without them (its tool-count limit, or they joined the pool later), and they cannot be added to it mid-conversation.`);
  }
  const left = [...room.fixedWithout, ...room.full];
  if (left.length > 0) {
    // A compact answer's matches are the tools it names on lines, loaded or not: they stay.
    if (narrowMatches) structured.matches = loaded.map((tool) => tool.name);
    structured.not_addable = found.map((tool) => tool.name).filter((name) => left.includes(name));
  }
  return { loaded, notes };
}

/** The answer, and the tools it delivered (found by the session; not the ones it could not add). */
export function midConversationResult(
  found: readonly Tool[],
  notes: readonly string[],
  structured: Record<string, unknown>,
  addable?: (names: readonly string[]) => ArrayRoom,
): { result: ToolResult; delivered: string[] } {
  const room = withinRoom(found, structured, addable);
  const names = room.loaded.map((tool) => tool.name);
  const lines = names.length > 0 ? [`Loaded ${names.length} tool(s): ${names.join(", ")}. They are added to your tools before your next turn; call them directly then.`] : [];
  const parts = [[...lines, ...room.notes, ...notes].join("\n")];
  if (names.length > 0) parts.push(formatDiscoveredLine(names));
  return { result: { content: [{ type: "text", text: parts.join("\n\n") }], isError: false, structuredContent: structured }, delivered: names };
}
