/**
 * The prefetch query: the last real user text of the transcript, at most 500 characters. Tool
 * results are not user text, and neither are the blocks the daemon itself asked the client to insert
 * (announcements, discovery attachments, compaction markers) — searching on those would only echo
 * earlier suggestions back.
 */
import { transcriptEvents } from "../assembly/transcript.ts";

export const MAX_QUERY_CHARS = 500;

const INJECTED_BLOCK =
  /<(tool-discovery|available-deferred-tools|deferred-tools-delta|discovered-deferred-tools|system-reminder)>[\s\S]*?<\/\1>/g;

export function lastUserText(messages: readonly unknown[]): string {
  let last = "";
  for (const event of transcriptEvents(messages)) {
    if (event.kind !== "text" || event.role !== "user") continue;
    const text = event.text.replace(INJECTED_BLOCK, " ").replace(/\s+/g, " ").trim();
    if (text) last = text;
  }
  return last.length > MAX_QUERY_CHARS ? last.slice(0, MAX_QUERY_CHARS) : last;
}

/** Whether an assistant turn has begun in this transcript (turn zero has none). */
export function hasAssistantTurn(messages: readonly unknown[]): boolean {
  return messages.some(
    (message) => typeof message === "object" && message !== null && (message as { role?: unknown }).role === "assistant",
  );
}
