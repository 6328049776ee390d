/**
 * Compaction: when a client replaces older messages with a summary, the evidence of discovery
 * (tool_reference blocks, ToolSearch results, attachments) goes with them. Before summarizing, the
 * client asks for this block and puts it in the summary message; the transcript scan reads it back:
 *
 *   <discovered-deferred-tools>
 *   Deferred tools loaded earlier in this conversation. To see one's definition again, call ToolSearch with "select:<name>".
 *   mcp__github__create_issue
 *   mcp__slack__post_message
 *   </discovered-deferred-tools>
 *
 * One name a line, nothing else on the line, so the block reads as a list to the model and parses
 * without a second copy of the names. `compactionBlockFor(messages)` (scan-transcript.ts) renders it
 * straight from the messages about to be summarized.
 */
import { TOOL_SEARCH_TOOL_NAME } from "../deferral/meta-tools.ts";
import { nameLines, taggedBlocks } from "./discovered-line.ts";
import { COMPACTION_TAG } from "./marker-tags.ts";

/** The block for a summary, or null when nothing was discovered (nothing to carry over). */
export function renderCompactionBlock(discovered: Iterable<string>): string | null {
  const names = [...new Set(discovered)].sort();
  if (names.length === 0) return null;
  return [
    `<${COMPACTION_TAG}>`,
    `Deferred tools loaded earlier in this conversation. To see one's definition again, call ${TOOL_SEARCH_TOOL_NAME} with "select:<name>".`,
    ...names,
    `</${COMPACTION_TAG}>`,
  ].join("\n");
}

export function parseCompactionBlocks(text: string): string[] {
  return taggedBlocks(text, COMPACTION_TAG).flatMap(nameLines);
}
