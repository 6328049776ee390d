/**
 * Reading a transcript the client sends, in either wire format, as a flat sequence of events the
 * scans care about. The messages are untrusted input: every field is checked before it is read, and
 * anything unrecognised is skipped, never an error (a transcript we cannot fully read must still
 * assemble).
 *
 * Anthropic Messages: `content` is a string or blocks; `tool_use` blocks (assistant) name the call,
 * `tool_result` blocks (user) carry the result as a string or `text` / `tool_reference` blocks.
 * OpenAI chat: assistant `tool_calls: [{id, function: {name}}]`, results as `role: "tool"` messages
 * with `tool_call_id` and string (or text-part) content.
 * Mid-conversation tool changes: `tool_addition` / `tool_removal` blocks, read only from
 * `role: "system"` messages (a user or assistant message cannot change the model's tools).
 */
import { readToolChange } from "./tool-change-blocks.ts";

export type TranscriptEvent =
  /** Text the message itself carries (not text inside a tool result). */
  | { kind: "text"; role: string; text: string }
  /** One tool result: the tool that was called (when the call is in the transcript), its texts and
   * the `tool_reference` names it carries. */
  | { kind: "tool_result"; toolName: string | undefined; texts: string[]; references: string[] }
  /** One `tool_addition` or `tool_removal` block of a system message. */
  | { kind: "tool_change"; action: "addition" | "removal"; name: string };

/**
 * The events of a transcript, in order. `system` is the Anthropic `system` parameter (a string or
 * text blocks), read as a leading system message when given.
 */
export function* transcriptEvents(messages: readonly unknown[], system?: unknown): Generator<TranscriptEvent> {
  if (system !== undefined) yield* textsOf(system).map((text): TranscriptEvent => ({ kind: "text", role: "system", text }));
  const callNames = new Map<string, string>();
  for (const message of messages) {
    if (!isRecord(message) || typeof message.role !== "string") continue;
    const role = message.role;
    if (role === "assistant") rememberOpenAICalls(message.tool_calls, callNames);
    if (role === "tool") {
      const id = typeof message.tool_call_id === "string" ? message.tool_call_id : undefined;
      yield toolResultEvent(id === undefined ? undefined : callNames.get(id), message.content);
      continue;
    }
    if (typeof message.content === "string") {
      yield { kind: "text", role, text: message.content };
      continue;
    }
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (!isRecord(block)) continue;
      if (block.type === "text" && typeof block.text === "string") yield { kind: "text", role, text: block.text };
      else if (role === "system" && (block.type === "tool_addition" || block.type === "tool_removal")) {
        const change = readToolChange(block);
        if (change) yield { kind: "tool_change", ...change };
      }
      else if (block.type === "tool_use" && typeof block.id === "string" && typeof block.name === "string") {
        callNames.set(block.id, block.name);
      } else if (block.type === "tool_result") {
        const id = typeof block.tool_use_id === "string" ? block.tool_use_id : undefined;
        yield toolResultEvent(id === undefined ? undefined : callNames.get(id), block.content);
      }
    }
  }
}

function rememberOpenAICalls(toolCalls: unknown, callNames: Map<string, string>): void {
  if (!Array.isArray(toolCalls)) return;
  for (const call of toolCalls) {
    if (!isRecord(call) || typeof call.id !== "string" || !isRecord(call.function)) continue;
    if (typeof call.function.name === "string") callNames.set(call.id, call.function.name);
  }
}

function toolResultEvent(toolName: string | undefined, content: unknown): TranscriptEvent {
  const references: string[] = [];
  if (Array.isArray(content)) {
    for (const block of content) {
      if (isRecord(block) && block.type === "tool_reference" && typeof block.tool_name === "string") {
        references.push(block.tool_name);
      }
    }
  }
  return { kind: "tool_result", toolName, texts: textsOf(content), references };
}

/** The texts of a string or of an array of `{type: "text", text}` blocks. */
function textsOf(content: unknown): string[] {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  const texts: string[] = [];
  for (const block of content) {
    if (isRecord(block) && block.type === "text" && typeof block.text === "string") texts.push(block.text);
  }
  return texts;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
