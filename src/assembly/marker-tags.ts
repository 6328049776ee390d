/**
 * The tags of the blocks the daemon writes into a conversation and reads back out of it
 * (scan-transcript.ts): one home, so the writers, the reader and quoted-markers.ts (which defuses
 * them in a server's text) cannot drift apart.
 */
/** The list announcement (announcements.ts). */
export const LIST_TAG = "available-deferred-tools";
/** The servers announcement (announcements.ts). */
export const SERVERS_TAG = "available-deferred-servers";
/** What changed in the pool since the last announcement (announcements.ts). */
export const DELTA_TAG = "deferred-tools-delta";
/** What a compacted conversation had discovered (compaction.ts). */
export const COMPACTION_TAG = "discovered-deferred-tools";
/** A prefetch attachment (tool-discovery-attachment.ts). */
export const TOOL_DISCOVERY_TAG = "tool-discovery";

export const MARKER_TAGS: readonly string[] = [TOOL_DISCOVERY_TAG, COMPACTION_TAG, DELTA_TAG, LIST_TAG, SERVERS_TAG];
