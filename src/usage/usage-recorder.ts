/**
 * The one seam every part of the daemon records usage through. Each method is synchronous, cheap
 * and never throws: it only puts an event on a bounded queue (see event-queue.ts), so recording can
 * never hold up or fail a call. Two consumers read what is recorded: the stats store
 * (`toolpool stats`) and the per-workspace prior that ranking learns from.
 */

/** A session's identity for usage: its id and its workspace (its first workspace root). */
export interface UsageSession {
  readonly sessionId: string;
  readonly workspace: string;
}

export interface SearchRecord extends UsageSession {
  kind: "select" | "keyword" | "discover";
  query: string;
  /** The tools the search returned, best first. */
  results: readonly string[];
  /** `select:` names that resolved to nothing. */
  selectMisses: number;
  /** Whether the answer offered "did you mean". */
  didYouMean: boolean;
}

export interface CallRecord extends UsageSession {
  /** The tool that ran (ExecuteExtraTool's target, not ExecuteExtraTool). */
  tool: string;
  server?: string;
  durationMs: number;
  isError: boolean;
  timedOut: boolean;
  truncated: boolean;
  /** Whether the name resolved to a tool of the pool (an unknown name teaches the prior nothing). */
  known: boolean;
}

export interface PrefetchRecord extends UsageSession {
  /** The user text the suggestions answer: its words are learned if a suggestion is called. */
  query: string;
  suggestions: readonly string[];
}

/** A session's first request: what it sent (tools array plus announcement) against `standard`. */
export interface FirstRequestRecord extends UsageSession {
  delivery: string;
  announcements: string;
  sentTokens: number;
  standardTokens: number;
  /** The counting method, named (e.g. "estimate: word pieces"). */
  counter: string;
}

export interface UsageRecorder {
  search(record: SearchRecord): void;
  call(record: CallRecord): void;
  prefetch(record: PrefetchRecord): void;
  /** An MCP server entered `state` (connected, failed, parked, pending…). */
  server(name: string, state: string): void;
  firstRequest(record: FirstRequestRecord): void;
}

/** Records nothing (recording switched off, or a test that does not care). */
export const noUsageRecorder: UsageRecorder = {
  search() {},
  call() {},
  prefetch() {},
  server() {},
  firstRequest() {},
};
