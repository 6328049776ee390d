import { FIELD_TEXT_LIMIT } from "../search/document-fields.ts";

/**
 * The MCP client pool's hard edges. Each bounds what one misbehaving server can cost the daemon;
 * runtime flags and config may tune within them, never past them.
 */

/** A call's time limit when the server's config names none (SPEC §10). */
export const DEFAULT_SERVER_TIMEOUT_MS = 60_000;
/**
 * However much progress a server reports, a call ends here. Compile-time on purpose: a server that
 * streams progress forever must not hold a session forever.
 */
export const HARD_CALL_CAP_MS = 10 * 60_000;
/** Time for spawn + initialize (the tools/list after it has the server's own timeout). A hung server is failed, not waited on. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/**
 * Servers connecting at once in the background; on-demand starts (a call is waiting) skip the queue.
 * Many servers start slowly for reasons other than CPU (npx downloads, remote handshakes), so this is
 * not tied to the core count: on 2 cores, 2 at a time made 20 servers take 4.4 s instead of 2.9 s
 * and did not make the daemon's first answers faster (bench/mcp-pool.ts).
 */
export const DEFAULT_CONNECT_PARALLELISM = 8;

/** tools/list pages read per listing; a server that pages forever is cut off here. */
export const MAX_LIST_PAGES = 100;
/** Tools kept per server; the rest are dropped with a warning. */
export const MAX_TOOLS_PER_SERVER = 5_000;
/**
 * Characters of kept tool definitions (their JSON) per server; the listing keeps no tool past them
 * and asks for no more pages. Each tool inside every per-tool limit, 1,000 tools of 250K-character
 * schemas were 250 MB kept (RSS peak 1.26 GB, another client's ping held 4.7 s), 5,000 would be
 * 1.25 GB; 5,000 tools of real size (2 KB descriptions) are ~11 MB, and 60 tools of two 250K schemas and 64K of icons each 34 MB.
 */
export const MAX_SERVER_DEFINITION_CHARS = 64 * 1024 * 1024;
/** Longer descriptions are cut with a visible marker (SPEC §5). */
export const MAX_DESCRIPTION_CHARS = 2_048;
/** An input schema larger than this (serialized) is refused: it would swamp every request it rides in. */
export const MAX_SCHEMA_CHARS = 256 * 1024;
/** Characters of a search hint kept (definition-bounds.ts): the index reads no more of a field. */
export const MAX_HINT_CHARS = FIELD_TEXT_LIMIT;
/** A definition larger than this once trimmed (two schemas at their limit, icons, hint) is refused. */
export const MAX_KEPT_DEFINITION_CHARS = 1024 * 1024;
/** Objects and arrays nested deeper than this in a definition: real schemas nest a dozen levels. */
export const MAX_DEFINITION_DEPTH = 256;

/**
 * One JSON-RPC line from a stdio server may be this long. Far above the result cap, so a 12 MiB
 * result is read, then truncated — rather than killing the server mid-message.
 */
export const MAX_SERVER_LINE_BYTES = 64 * 1024 * 1024;
/** Text characters of one call result kept for the model; the rest is cut with a note. */
export const MAX_RESULT_TEXT_CHARS = 100_000;
/**
 * Base64 characters of images kept per result. The daemon's clients read lines of at most 8 MiB
 * (src/protocol/limits.ts), so a result must fit well inside that.
 */
export const MAX_RESULT_IMAGE_CHARS = 4 * 1024 * 1024;
/** structuredContent larger than this (serialized) is dropped with a note. */
export const MAX_STRUCTURED_CONTENT_CHARS = 100_000;

/** Bytes of stderr kept per server: enough to see why it died, bounded against a flood. */
export const STDERR_RING_BYTES = 64 * 1024;
/** Between SIGTERM to a server's process group and SIGKILL to whatever is left. */
export const STOP_GRACE_MS = 2_000;

/** Restart backoff: first delay, ceiling, and the share of each delay randomized (jitter). */
export const BACKOFF_INITIAL_MS = 1_000;
export const BACKOFF_MAX_MS = 60_000;
export const BACKOFF_JITTER = 0.5;
/** Consecutive rapid failures after which a server is parked (no more spawns until restart). */
export const PARK_AFTER_FAILURES = 5;
/** A connection that lived this long was not a "rapid" failure: the failure count starts over. */
export const STABLE_CONNECTION_MS = 60_000;

/** Re-listings after tools/list_changed: this many at once, then one per interval (relist-throttle.ts). */
export const RELIST_BURST = 3;
export const RELIST_INTERVAL_MS = 1_000;
/**
 * Tools that left a server are kept in the catalog cache (so one that comes back is compared with
 * its first version) up to this many per server, and for at most this long; older ones are pruned.
 */
export const MAX_ABSENT_TOOLS_PER_SERVER = 500;
export const ABSENT_TOOL_TTL_MS = 30 * 24 * 60 * 60 * 1000;
