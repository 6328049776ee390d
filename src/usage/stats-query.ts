/**
 * `toolpool/stats` read from the usage database: counts over a window, with percentiles computed
 * here (SQLite has none). Calls are read in pages with a yield between them: at the row cap (100k
 * calls) one read takes ~150 ms of work, which must not hold up the clients the daemon serves.
 */
import type { Database } from "bun:sqlite";
import type { CallGroupStats, ServerUsageStats, StatsResult, TokenStyleStats } from "../protocol/stats-result.ts";

export interface StatsQuery {
  /** Epoch ms; null reads everything kept. */
  since: number | null;
  until: number;
  /** How many zero-result queries (and tools, servers) to list. */
  top: number;
  conversionWindow: number;
  counter: { label: string; estimate: boolean };
  /** Parks still running now: server → since when (they count up to `until`). */
  parkedNow: ReadonlyMap<string, number>;
}

/** Call rows read per page; the event loop runs between pages. */
const CALL_PAGE_ROWS = 5_000;

export async function readStats(db: Database, query: StatsQuery, yieldNow: () => Promise<void> = () => new Promise((resolve) => setImmediate(resolve))): Promise<StatsResult> {
  const since = query.since ?? 0;
  const window = [since, query.until] as [number, number];
  const searches = db
    .query<{ kind: string; count: number; zero: number; converted: number; misses: number; dym: number }, [number, number]>(
      "SELECT kind, COUNT(*) AS count, SUM(zero) AS zero, SUM(converted) AS converted, SUM(select_misses) AS misses, SUM(did_you_mean) AS dym FROM searches WHERE at >= ? AND at <= ? GROUP BY kind",
    )
    .all(...window);
  const byKind = (kind: string) => searches.find((row) => row.kind === kind);
  const sum = (pick: (row: (typeof searches)[number]) => number) => searches.reduce((total, row) => total + (pick(row) ?? 0), 0);
  const keyword = byKind("keyword");
  const zeroResultQueries = db
    .query<{ query: string; count: number }, [number, number, number]>(
      "SELECT query, COUNT(*) AS count FROM searches WHERE zero = 1 AND kind != 'select' AND at >= ? AND at <= ? GROUP BY query ORDER BY count DESC, query LIMIT ?",
    )
    .all(...window, query.top);

  const prefetch = db
    .query<{ count: number; called: number | null }, [number, number]>("SELECT COUNT(*) AS count, SUM(called) AS called FROM prefetches WHERE at >= ? AND at <= ?")
    .get(...window) ?? { count: 0, called: 0 };

  const page = db.query<CallRow & { id: number; tool: string; server: string | null }, [number, number, number, number]>(
    "SELECT id, tool, server, duration_ms, error, timeout, truncated FROM calls WHERE id > ? AND at >= ? AND at <= ? ORDER BY id LIMIT ?",
  );
  const calls: (CallRow & { tool: string; server: string | null })[] = [];
  for (let after = 0; ; ) {
    await yieldNow();
    const rows = page.all(after, ...window, CALL_PAGE_ROWS);
    for (const row of rows) calls.push(row);
    if (rows.length < CALL_PAGE_ROWS) break;
    after = rows[rows.length - 1]!.id;
  }

  return {
    since: query.since,
    until: query.until,
    searches: {
      total: sum((row) => row.count),
      keyword: keyword?.count ?? 0,
      select: byKind("select")?.count ?? 0,
      discover: byKind("discover")?.count ?? 0,
      zeroResults: searches.filter((row) => row.kind !== "select").reduce((total, row) => total + row.zero, 0),
      zeroResultQueries,
      conversion: {
        keyword: keyword?.count ?? 0,
        converted: keyword?.converted ?? 0,
        rate: keyword && keyword.count > 0 ? round(keyword.converted / keyword.count) : null,
        window: query.conversionWindow,
      },
      selectMisses: sum((row) => row.misses),
      didYouMeanOffers: sum((row) => row.dym),
    },
    prefetch: {
      suggestions: prefetch.count,
      laterCalled: prefetch.called ?? 0,
      rate: prefetch.count > 0 ? round((prefetch.called ?? 0) / prefetch.count) : null,
    },
    calls: {
      total: calls.length,
      errors: calls.filter((row) => row.error === 1).length,
      tools: groupCalls(calls, (row) => row.tool, query.top),
      servers: groupCalls(calls, (row) => row.server ?? "builtin", query.top),
    },
    servers: serverStats(db, window, query.parkedNow),
    tokens: { counter: query.counter.label, estimate: query.counter.estimate, styles: tokenStyles(db, window) },
  };
}

interface CallRow {
  duration_ms: number;
  error: number;
  timeout: number;
  truncated: number;
}

function groupCalls<Row extends CallRow>(rows: readonly Row[], key: (row: Row) => string, top: number): CallGroupStats[] {
  // Counted in one pass; only the durations are kept per group, for the percentiles.
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const name = key(row);
    const group = groups.get(name);
    if (group) group.push(row);
    else groups.set(name, [row]);
  }
  return [...groups]
    .map(([name, members]) => {
      const durations = members.map((row) => row.duration_ms).sort((a, b) => a - b);
      return {
        name,
        count: members.length,
        errors: members.filter((row) => row.error === 1).length,
        timeouts: members.filter((row) => row.timeout === 1).length,
        truncations: members.filter((row) => row.truncated === 1).length,
        p50Ms: round(percentile(durations, 50), 1),
        p99Ms: round(percentile(durations, 99), 1),
      };
    })
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name))
    .slice(0, top);
}

function serverStats(db: Database, window: [number, number], parkedNow: ReadonlyMap<string, number>): ServerUsageStats[] {
  const rows = db
    .query<{ server: string; kind: string; latency_ms: number | null; parked_ms: number | null }, [number, number]>(
      "SELECT server, kind, latency_ms, parked_ms FROM server_events WHERE at >= ? AND at <= ? ORDER BY id",
    )
    .all(...window);
  const servers = new Map<string, { events: typeof rows }>();
  for (const row of rows) (servers.get(row.server) ?? servers.set(row.server, { events: [] }).get(row.server)!).events.push(row);
  for (const name of parkedNow.keys()) if (!servers.has(name)) servers.set(name, { events: [] });
  return [...servers]
    .map(([name, { events }]) => {
      const count = (kind: string) => events.filter((row) => row.kind === kind).length;
      const latencies = events.filter((row) => row.kind === "connect" && row.latency_ms !== null).map((row) => row.latency_ms!).sort((a, b) => a - b);
      const ongoing = parkedNow.get(name);
      const parkedMs = events.reduce((total, row) => total + (row.parked_ms ?? 0), 0) + (ongoing === undefined ? 0 : Math.max(0, window[1] - Math.max(ongoing, window[0])));
      return {
        name,
        connects: count("connect"),
        failures: count("failure"),
        restarts: count("restart"),
        parks: count("parked"),
        parkedMs: Math.round(parkedMs),
        connectLatencyP50Ms: latencies.length > 0 ? round(percentile(latencies, 50), 1) : null,
        connectLatencyP99Ms: latencies.length > 0 ? round(percentile(latencies, 99), 1) : null,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

function tokenStyles(db: Database, window: [number, number]): TokenStyleStats[] {
  return db
    .query<{ delivery: string; announcements: string; sessions: number; sent: number; standard: number }, [number, number]>(
      "SELECT delivery, announcements, COUNT(*) AS sessions, AVG(sent_tokens) AS sent, AVG(standard_tokens) AS standard FROM first_requests WHERE at >= ? AND at <= ? GROUP BY delivery, announcements ORDER BY delivery, announcements",
    )
    .all(...window)
    .map((row) => ({
      delivery: row.delivery,
      announcements: row.announcements,
      sessions: row.sessions,
      firstRequestTokens: Math.round(row.sent),
      standardTokens: Math.round(row.standard),
      savedShare: row.standard > 0 ? round(Math.max(0, 1 - row.sent / row.standard)) : 0,
    }));
}

/** Nearest-rank percentile of sorted values (0 for none). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

function round(value: number, digits = 4): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
