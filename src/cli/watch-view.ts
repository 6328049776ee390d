/**
 * One frame of `toolpool status --watch`, as plain lines: pure, so a test can pin it. The loop in
 * watch.ts gathers a WatchSnapshot each second and draws these lines (with cursor control only on
 * a terminal). Lines are cut to the terminal's width, because a wrapped line would throw the
 * redraw out of step.
 */
import type { ServerSummary, StatusResult, ToolSummary } from "../protocol/methods.ts";
import { formatDuration } from "./format.ts";

export interface TokenFacts {
  /** Tokens of the first request with the whole pool sent in full (standard delivery). */
  full: number;
  /** Tokens of the deferred (proxy) first request: tools array plus announcement. */
  lean: number;
  counter: string;
}

export interface WatchSnapshot {
  status: StatusResult;
  tools: readonly ToolSummary[];
  /** From toolpool/servers; undefined when the daemon has no such method. */
  servers?: readonly ServerSummary[];
  callsPerSecond: number | undefined;
  tokens: TokenFacts | undefined;
  /** What the watch itself holds open on the daemon, left out of the counts shown. */
  own: { sessions: number; connections: number };
  at: Date;
}

export function renderWatch(snapshot: WatchSnapshot, width = 100): string[] {
  const { status } = snapshot;
  const deferred = snapshot.tools.filter((tool) => tool.deferred).length;
  const rate = snapshot.callsPerSecond === undefined ? "–" : snapshot.callsPerSecond.toFixed(1);
  const lines = [
    `toolpool ${status.version} (${status.tier}) · pid ${status.pid} · up ${formatDuration(status.uptimeMs)} · ${status.socket}`,
    `sessions  ${Math.max(0, status.sessions.active - snapshot.own.sessions)} active, ${status.sessions.detached} detached · connections ${Math.max(0, status.connections - snapshot.own.connections)} · memory ${(status.memory.rssBytes / 1048576).toFixed(1)} MiB`,
    `tools     ${status.tools.total} (${status.tools.builtin} built-in, ${status.tools.mcp} MCP) · ${snapshot.tools.length - deferred} core, ${deferred} deferred`,
    `calls     ${status.calls.total} total · ${rate}/s · ${status.calls.inFlight} in flight`,
    tokenLine(snapshot.tokens),
    "",
    ...serverLines(snapshot),
    "",
    `updated ${snapshot.at.toTimeString().slice(0, 8)} · q or Ctrl-C quits`,
  ];
  return lines.map((line) => (line.length > width ? `${line.slice(0, Math.max(0, width - 1))}…` : line));
}

function tokenLine(tokens: TokenFacts | undefined): string {
  if (!tokens) return "tokens    (measuring…)";
  const saved = tokens.full - tokens.lean;
  if (saved <= 0) return `tokens    first request ${compact(tokens.lean)} deferred vs ${compact(tokens.full)} in full: nothing saved with a pool this small (${tokens.counter})`;
  const percent = Math.round((saved / tokens.full) * 100);
  // "first request": the tools array plus the announcement (docs/operations.md, toolpool stats).
  return `tokens    first request ${compact(tokens.lean)} vs ${compact(tokens.full)} in full → ${compact(saved)} saved (${percent}%, ${tokens.counter})`;
}

function serverLines(snapshot: WatchSnapshot): string[] {
  if (snapshot.servers === undefined) {
    // An older daemon without toolpool/servers: what the pool itself tells about servers.
    const counts = new Map<string, number>();
    for (const tool of snapshot.tools) if (tool.server) counts.set(tool.server, (counts.get(tool.server) ?? 0) + 1);
    if (counts.size === 0) return ["MCP servers: none"];
    return [`MCP servers (${counts.size}; states need a newer daemon)`, ...[...counts].map(([name, count]) => `  ${name.padEnd(20)} ${String(count).padStart(5)} tools`)];
  }
  if (snapshot.servers.length === 0) return ["MCP servers: none configured"];
  const nameWidth = Math.min(24, Math.max(4, ...snapshot.servers.map((server) => server.name.length)));
  return [
    `MCP servers (${snapshot.servers.length})`,
    `  ${"NAME".padEnd(nameWidth)}  ${"STATE".padEnd(11)}  TOOLS  RESTARTS  NOTE`,
    ...snapshot.servers.map((server) => {
      const note = [server.stale ? "cached list" : "", server.inFlight ? `${server.inFlight} in flight` : "", firstLine(server.reason)].filter(Boolean).join("; ");
      return `  ${server.name.padEnd(nameWidth)}  ${marker(server.state)}  ${String(server.toolCount).padStart(5)}  ${String(server.restarts).padStart(8)}  ${note}`;
    }),
  ];
}

/** The state with a mark a glance can read: ● up, ◐ on its way, ○ off, ✗ broken. */
function marker(state: string): string {
  const mark = state === "connected" ? "●" : state === "pending" ? "◐" : state === "failed" || state === "parked" ? "✗" : "○";
  return `${mark} ${state}`.padEnd(11);
}

function firstLine(text: string | undefined): string {
  return text?.split("\n")[0] ?? "";
}

function compact(tokens: number): string {
  return tokens >= 1000 ? `${(tokens / 1000).toFixed(1)}k` : String(tokens);
}
