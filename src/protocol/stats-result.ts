/** `toolpool/stats`: what the daemon recorded of its use over a window (types only; the client imports it). */

export interface CallGroupStats {
  /** A tool name, or a server name (`builtin` for built-in tools). */
  name: string;
  count: number;
  errors: number;
  timeouts: number;
  truncations: number;
  p50Ms: number;
  p99Ms: number;
}

export interface ServerUsageStats {
  name: string;
  connects: number;
  failures: number;
  restarts: number;
  parks: number;
  /** Time spent parked that ended inside the window, plus a park still running. */
  parkedMs: number;
  connectLatencyP50Ms: number | null;
  connectLatencyP99Ms: number | null;
}

export interface TokenStyleStats {
  delivery: string;
  announcements: string;
  sessions: number;
  /** Mean first-request size: tools array plus announcement. */
  firstRequestTokens: number;
  /** Mean size of the same pool sent in full (`standard`). */
  standardTokens: number;
  /** 1 − first / standard, over the sessions of this style; 0 when nothing was saved. */
  savedShare: number;
}

export interface StatsResult {
  /** The window: epoch ms (null: everything kept). */
  since: number | null;
  until: number;
  searches: {
    total: number;
    keyword: number;
    select: number;
    discover: number;
    zeroResults: number;
    /** The most frequent zero-result queries (text cut to 200 characters when stored). */
    zeroResultQueries: { query: string; count: number }[];
    /** Keyword searches after which the same session called a returned tool within `window` calls. */
    conversion: { keyword: number; converted: number; rate: number | null; window: number };
    selectMisses: number;
    didYouMeanOffers: number;
  };
  prefetch: { suggestions: number; laterCalled: number; rate: number | null };
  calls: { total: number; errors: number; tools: CallGroupStats[]; servers: CallGroupStats[] };
  servers: ServerUsageStats[];
  tokens: { counter: string; estimate: boolean; styles: TokenStyleStats[] };
}

export interface HistoryClearResult {
  /** The workspace cleared, or null for all of the history. */
  workspace: string | null;
  /** Rows removed, all tables together. */
  removed: number;
}
