/** Hard edges of the wire. Each exists so one client cannot exhaust the daemon for the others. */

/** A line longer than this closes that connection (the daemon cannot answer what it cannot read). */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;
/** Deeper JSON is refused before parsing: deep nesting is never legitimate and costs stack. */
export const MAX_JSON_DEPTH = 64;
/** Object members in one line, counted before parsing: parsing a wide object is what stalls the thread. */
export const MAX_JSON_MEMBERS = 100_000;
/** Requests one connection may have unanswered at once. */
export const MAX_IN_FLIGHT_PER_CONNECTION = 256;
/** Bytes the daemon will buffer for a client that does not read; past it the connection is closed. */
export const MAX_OUTBOUND_BYTES = 64 * 1024 * 1024;
/**
 * How long one line may stay unfinished before its connection is closed. A local client writes an
 * 8 MiB line in milliseconds; one that holds a partial line open only pins our memory.
 */
export const PARTIAL_LINE_TIMEOUT_MS = 30_000;
/**
 * Bytes of buffered input (unfinished lines) plus unsent output across every connection together.
 * Past it the connection holding the most is dropped first: 100 connections of 8 MiB partial
 * lines, or 20 pipelining clients that never read, must not cost the daemon gigabytes.
 */
export const BUFFER_BUDGET_BYTES = 64 * 1024 * 1024;
/** Bounds an operator may set `connections.bufferBudgetBytes` within (one full line must fit twice). */
export const MIN_BUFFER_BUDGET_BYTES = 2 * MAX_LINE_BYTES;
export const MAX_BUFFER_BUDGET_BYTES = 2 * 1024 * 1024 * 1024;
/**
 * Unsent output past which the daemon stops reading that connection's requests (back-pressure)
 * until its client has read what is queued: a client that pipelines and never reads stalls itself.
 */
export const OUTBOUND_PAUSE_BYTES = 1024 * 1024;
/** How long SIGTERM waits for in-flight calls before cancelling them. */
export const DRAIN_TIMEOUT_MS = 5_000;
/** Everything shutdown does fits in this; the process exits right after (SPEC §11: 10 s). */
export const STOP_BUDGET_MS = 9_500;
/** Sessions kept for resumption after their connection closes. */
export const MAX_DETACHED_SESSIONS = 1_000;
/** How long a detached session is kept for resumption. */
export const DETACHED_SESSION_TTL_MS = 60 * 60 * 1000;

/** Attributes a session keeps (flag rules read them): a few short values, not a store. */
export const MAX_SESSION_ATTRIBUTES = 64;
