/**
 * The transcript is the source of truth (SPEC §8): what was discovered, and what the model was told,
 * is rebuilt from the messages alone on every request, so a restarted daemon, a resumed session and
 * a compacted conversation all agree with the one that never stopped.
 *
 * Discovered, from:
 *  - `tool_reference` blocks in any tool result (native ToolSearch);
 *  - the discovered line in results of ToolSearch calls (proxy ToolSearch). Only ToolSearch's own
 *    results count, so a web page or file that happens to contain the line discovers nothing;
 *  - `<tool-discovery>` attachments (prefetch) and `<discovered-deferred-tools>` blocks (compaction)
 *    in message text of any role.
 *  - `tool_addition` blocks of system messages (mid-conversation delivery).
 * Loaded (mid-conversation), from `tool_addition` / `tool_removal` blocks replayed in order: the
 * last change for each name wins.
 * Announced, from `<deferred-tools-delta>` blocks in non-assistant message text, replayed in order
 * (text the model wrote itself is not something it was told).
 */
import { TOOL_SEARCH_TOOL_NAME } from "../deferral/meta-tools.ts";
import { emptyAnnouncedState, replayDeltas, type AnnouncedState } from "./announcements.ts";
import { parseCompactionBlocks, renderCompactionBlock } from "./compaction.ts";
import { parseDiscoveredLines } from "./discovered-line.ts";
import { parseToolDiscovery } from "./tool-discovery-attachment.ts";
import { transcriptEvents } from "./transcript.ts";
import { isValidToolName } from "../tool/names.ts";

export interface ScanOptions {
  /** Anthropic's `system` parameter (a string or text blocks), scanned like a leading message. */
  system?: unknown;
}

export interface TranscriptScan extends AnnouncedState {
  /** Every tool name the transcript made available, in the order first seen. */
  discovered: Set<string>;
  /** name → whether the transcript's last tool change for it added (true) or removed (false) it. */
  toolChanges: Map<string, boolean>;
}

export function scanTranscript(messages: readonly unknown[], options: ScanOptions = {}): TranscriptScan {
  const discovered = new Set<string>();
  const state = emptyAnnouncedState();
  const toolChanges = new Map<string, boolean>();
  const discover = (names: readonly string[]) => {
    for (const name of names) if (isValidToolName(name)) discovered.add(name);
  };
  for (const event of transcriptEvents(messages, options.system)) {
    if (event.kind === "tool_result") {
      discover(event.references);
      if (event.toolName === TOOL_SEARCH_TOOL_NAME) for (const text of event.texts) discover(parseDiscoveredLines(text));
      continue;
    }
    if (event.kind === "tool_change") {
      if (!isValidToolName(event.name)) continue;
      if (event.action === "addition") discovered.add(event.name);
      toolChanges.set(event.name, event.action === "addition");
      continue;
    }
    discover(parseToolDiscovery(event.text));
    discover(parseCompactionBlocks(event.text));
    if (event.role !== "assistant") replayDeltas(event.text, state);
  }
  return { discovered, toolChanges, ...state };
}

/**
 * The compaction block for the messages about to be summarized: everything they discovered, or
 * null when they discovered nothing. The client puts it in the summary message.
 */
export function compactionBlockFor(messages: readonly unknown[], options: ScanOptions = {}): string | null {
  return renderCompactionBlock(scanTranscript(messages, options).discovered);
}
