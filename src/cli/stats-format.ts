/** `toolpool stats` for a person: a few aligned sections, one figure per line. */
import type { CallGroupStats, StatsResult } from "../protocol/stats-result.ts";

export function formatStats(stats: StatsResult, since: string | undefined): string {
  const { searches, prefetch, calls, tokens } = stats;
  const lines = [
    `usage ${since ? `over the last ${since}` : "over all kept history"}`,
    "",
    `searches   ${searches.total} (${searches.keyword} keyword, ${searches.select} select, ${searches.discover} discover)`,
    `  search→call conversion ${percent(searches.conversion.rate)} (${searches.conversion.converted} of ${searches.conversion.keyword} keyword searches led to a call of a result within ${searches.conversion.window} calls)`,
    `  zero results ${searches.zeroResults} · select: misses ${searches.selectMisses} · did-you-mean offers ${searches.didYouMeanOffers}`,
    ...searches.zeroResultQueries.map((entry) => `    ${String(entry.count).padStart(5)}× ${JSON.stringify(entry.query.length > 80 ? `${entry.query.slice(0, 79)}…` : entry.query)}`),
    `prefetch   ${prefetch.suggestions} suggestions, ${prefetch.laterCalled} later called (${percent(prefetch.rate)})`,
    `calls      ${calls.total}, ${calls.errors} errors`,
    ...table("tool", calls.tools),
    ...table("server", calls.servers),
    ...serverLines(stats),
    `tokens     first request (tools array + announcement) vs standard, ${tokens.counter}`,
    ...(tokens.styles.length === 0
      ? ["  (no session has sent a first request in this window)"]
      : tokens.styles.map(
          (style) =>
            `  ${`${style.delivery}/${style.announcements}`.padEnd(18)} ${String(style.sessions).padStart(5)} session(s)  ${compact(style.firstRequestTokens)} vs ${compact(style.standardTokens)}  saved ${percent(style.savedShare)}`,
        )),
  ];
  return lines.join("\n");
}

function table(label: string, groups: readonly CallGroupStats[]): string[] {
  if (groups.length === 0) return [];
  const width = Math.min(48, Math.max(label.length, ...groups.map((group) => group.name.length)));
  return [
    `  ${label.toUpperCase().padEnd(width)}  CALLS  ERRORS  TIMEOUTS  TRUNC    P50 ms    P99 ms`,
    ...groups.map(
      (group) =>
        `  ${group.name.padEnd(width)}  ${String(group.count).padStart(5)}  ${String(group.errors).padStart(6)}  ${String(group.timeouts).padStart(8)}  ${String(group.truncations).padStart(5)}  ${group.p50Ms.toFixed(1).padStart(8)}  ${group.p99Ms.toFixed(1).padStart(8)}`,
    ),
  ];
}

function serverLines(stats: StatsResult): string[] {
  if (stats.servers.length === 0) return ["servers    no MCP server events"];
  return [
    "servers    connects, failures, restarts, parked time, connect latency p50/p99",
    ...stats.servers.map(
      (server) =>
        `  ${server.name.padEnd(24)} ${server.connects} up, ${server.failures} failed, ${server.restarts} restarts, parked ${(server.parkedMs / 1000).toFixed(0)} s, ${server.connectLatencyP50Ms ?? "–"}/${server.connectLatencyP99Ms ?? "–"} ms`,
    ),
  ];
}

function percent(share: number | null): string {
  return share === null ? "–" : `${Math.round(share * 1000) / 10}%`;
}

function compact(tokens: number): string {
  return tokens >= 1000 ? `${(tokens / 1000).toFixed(1)}k` : String(tokens);
}
