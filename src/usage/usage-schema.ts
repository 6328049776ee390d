/**
 * The usage database (`usage.sqlite` in the state dir): what is kept, and how much of it. Every
 * table is capped — event tables keep their newest rows, aggregate tables their most recently used
 * — so the file stays small however long the daemon runs; text is cut before it is stored.
 */

export const USAGE_DATABASE_FILE = "usage.sqlite";
export const USAGE_SCHEMA_VERSION = "1";

/** Query text kept per search: enough to recognise it, not a transcript. */
export const MAX_QUERY_CHARS = 200;
/** Tool, server and workspace names beyond this are cut (a pool name is at most 64 in practice). */
export const MAX_NAME_CHARS = 256;
export const MAX_WORKSPACE_CHARS = 1_024;
/** Result names kept per search (what the conversion check compares calls with). */
export const MAX_STORED_RESULTS = 10;

/** Rows kept per table: events newest first, aggregates most recently used first. */
export const ROW_CAPS = {
  searches: 50_000,
  calls: 100_000,
  prefetches: 20_000,
  server_events: 10_000,
  first_requests: 10_000,
  tool_use: 20_000,
  follows: 50_000,
  together: 50_000,
  search_terms: 100_000,
} as const;

export type UsageTable = keyof typeof ROW_CAPS;

/** Rows read back per workspace to seed its prior (the most recently used first). */
export const MAX_PRIOR_TOOLS = 2_000;
export const MAX_PRIOR_FOLLOWS = 10_000;
export const MAX_PRIOR_TERMS = 20_000;

export const USAGE_SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS searches (
  id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, at INTEGER NOT NULL, workspace TEXT NOT NULL,
  session TEXT NOT NULL, kind TEXT NOT NULL, query TEXT NOT NULL, results TEXT NOT NULL,
  zero INTEGER NOT NULL, select_misses INTEGER NOT NULL, did_you_mean INTEGER NOT NULL,
  converted INTEGER NOT NULL DEFAULT 0, called_tool TEXT);
CREATE INDEX IF NOT EXISTS searches_at ON searches (at);
CREATE TABLE IF NOT EXISTS calls (
  id INTEGER PRIMARY KEY, at INTEGER NOT NULL, workspace TEXT NOT NULL, session TEXT NOT NULL,
  tool TEXT NOT NULL, server TEXT, duration_ms REAL NOT NULL, error INTEGER NOT NULL,
  timeout INTEGER NOT NULL, truncated INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS calls_at ON calls (at);
CREATE TABLE IF NOT EXISTS prefetches (
  id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, at INTEGER NOT NULL, workspace TEXT NOT NULL,
  session TEXT NOT NULL, tool TEXT NOT NULL, called INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS prefetches_at ON prefetches (at);
CREATE TABLE IF NOT EXISTS server_events (
  id INTEGER PRIMARY KEY, at INTEGER NOT NULL, server TEXT NOT NULL, kind TEXT NOT NULL,
  latency_ms REAL, parked_ms REAL);
CREATE INDEX IF NOT EXISTS server_events_at ON server_events (at);
CREATE TABLE IF NOT EXISTS first_requests (
  id INTEGER PRIMARY KEY, at INTEGER NOT NULL, workspace TEXT NOT NULL, session TEXT NOT NULL,
  delivery TEXT NOT NULL, announcements TEXT NOT NULL, sent_tokens INTEGER NOT NULL,
  standard_tokens INTEGER NOT NULL, counter TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS first_requests_at ON first_requests (at);
CREATE TABLE IF NOT EXISTS tool_use (
  workspace TEXT NOT NULL, tool TEXT NOT NULL, calls INTEGER NOT NULL, last_at INTEGER NOT NULL,
  PRIMARY KEY (workspace, tool));
CREATE INDEX IF NOT EXISTS tool_use_last ON tool_use (last_at);
CREATE TABLE IF NOT EXISTS follows (
  workspace TEXT NOT NULL, from_tool TEXT NOT NULL, to_tool TEXT NOT NULL, count INTEGER NOT NULL,
  last_at INTEGER NOT NULL, PRIMARY KEY (workspace, from_tool, to_tool));
CREATE INDEX IF NOT EXISTS follows_last ON follows (last_at);
CREATE TABLE IF NOT EXISTS together (
  workspace TEXT NOT NULL, a TEXT NOT NULL, b TEXT NOT NULL, count INTEGER NOT NULL,
  last_at INTEGER NOT NULL, PRIMARY KEY (workspace, a, b));
CREATE INDEX IF NOT EXISTS together_last ON together (last_at);
CREATE TABLE IF NOT EXISTS search_terms (
  workspace TEXT NOT NULL, term TEXT NOT NULL, tool TEXT NOT NULL, count INTEGER NOT NULL,
  last_at INTEGER NOT NULL, PRIMARY KEY (workspace, term, tool));
CREATE INDEX IF NOT EXISTS search_terms_last ON search_terms (last_at);
`;

/** Tables whose rows belong to a workspace (`history clear --workspace` empties its rows of each). */
export const WORKSPACE_TABLES = ["searches", "calls", "prefetches", "first_requests", "tool_use", "follows", "together", "search_terms"] as const;

/** What the store writes: events as the tracker derived them, in order. */
export type StoredEvent =
  | {
      type: "search";
      key: string;
      at: number;
      workspace: string;
      session: string;
      kind: string;
      query: string;
      results: readonly string[];
      selectMisses: number;
      didYouMean: boolean;
    }
  | { type: "conversion"; key: string; tool: string }
  | {
      type: "call";
      at: number;
      workspace: string;
      session: string;
      tool: string;
      server: string | null;
      durationMs: number;
      isError: boolean;
      timedOut: boolean;
      truncated: boolean;
    }
  /** A known tool's successful call: the aggregates the prior reads. */
  | { type: "use"; at: number; workspace: string; tool: string; previous: string | null; together: readonly string[] }
  /** A known tool called successfully within a few calls after a keyword search with these terms. */
  | { type: "searchCall"; at: number; workspace: string; tool: string; terms: readonly string[] }
  | { type: "prefetch"; key: string; at: number; workspace: string; session: string; tool: string }
  | { type: "prefetchHit"; key: string }
  | { type: "server"; at: number; server: string; kind: ServerEventKind; latencyMs: number | null; parkedMs: number | null }
  | {
      type: "firstRequest";
      at: number;
      workspace: string;
      session: string;
      delivery: string;
      announcements: string;
      sentTokens: number;
      standardTokens: number;
      counter: string;
    };

/** `unparked` ends a park and carries how long it lasted. */
export type ServerEventKind = "connect" | "failure" | "restart" | "parked" | "unparked";

export function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
