/**
 * What the daemon reports about itself, as one small typed seam. Off by default: the no-op below
 * costs nothing and loads nothing; the OpenTelemetry implementation (otel-metrics.ts) is required
 * only when telemetry is switched on (create-metrics.ts).
 *
 * Nothing a client or a model wrote goes in: no query text, no tool input, no unknown tool name —
 * only counts, durations, and names the operator's own pool defines.
 */

export type SearchKind = "keyword" | "select" | "discover";
/** Where a search came from: a model's ToolSearch call, or `toolpool/search` (the CLI). */
export type SearchSource = "tool_search" | "cli";
export type CallOutcome = "ok" | "error" | "refused";

export interface SearchEvent {
  kind: SearchKind;
  /** Tools returned. Zero counts as a zero-result search. */
  results: number;
  source: SearchSource;
  /** The session's delivery (native/proxy/standard); absent for the CLI. */
  delivery?: string;
}

export interface CallEvent {
  /** A tool of the pool, or undefined when the name matched none (never the name sent). */
  tool: string | undefined;
  /** The MCP server of the tool; undefined for a built-in. */
  server: string | undefined;
  durationMs: number;
  outcome: CallOutcome;
  delivery: string;
  /** `ExecuteExtraTool` for a call it made on the model's behalf (that call is counted as itself too). */
  via?: string;
}

export interface TokensEvent {
  /** Tokens the request's tools array saved against sending every tool in full (may be negative). */
  saved: number;
  delivery: string;
  /** How tokens were counted (e.g. `chars/2.5 (estimate)`). */
  counter: string;
}

export interface ServerUpSource {
  name: string;
  state: string;
}

export interface Metrics {
  /** False for the no-op: callers skip work that only feeds metrics. */
  readonly enabled: boolean;
  search(event: SearchEvent): void;
  call(event: CallEvent): void;
  tokensSaved(event: TokensEvent): void;
  /** Read at every export: one `toolpool.mcp.server.up` point per server (1 connected, 0 otherwise). */
  watchServers(read: () => readonly ServerUpSource[]): void;
  /** Exports what is pending and stops, within `timeoutMs`. */
  shutdown(timeoutMs: number): Promise<void>;
}

export const noopMetrics: Metrics = {
  enabled: false,
  search: () => {},
  call: () => {},
  tokensSaved: () => {},
  watchServers: () => {},
  shutdown: async () => {},
};
