/** Hard edges of the wire. Each exists so one client cannot exhaust the daemon for the others. */

/** A line longer than this closes that connection (the daemon cannot answer what it cannot read). */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;
/** Deeper JSON is refused before parsing: deep nesting is never legitimate and costs stack. */
export const MAX_JSON_DEPTH = 64;
/** Requests one connection may have unanswered at once. */
export const MAX_IN_FLIGHT_PER_CONNECTION = 256;
/** Bytes the daemon will buffer for a client that does not read; past it the connection is closed. */
export const MAX_OUTBOUND_BYTES = 64 * 1024 * 1024;
/** How long SIGTERM waits for in-flight calls before cancelling them. */
export const DRAIN_TIMEOUT_MS = 5_000;
/** Everything shutdown does fits in this; the process exits right after (SPEC §11: 10 s). */
export const STOP_BUDGET_MS = 9_500;
/** Sessions kept for resumption after their connection closes. */
export const MAX_DETACHED_SESSIONS = 1_000;
/** How long a detached session is kept for resumption. */
export const DETACHED_SESSION_TTL_MS = 60 * 60 * 1000;
