/**
 * What `toolpool serve` prints in a terminal while its MCP servers connect: one line per server
 * as it settles (connected with its tool count and time, failed with the reason, lazy waiting),
 * then a summary. The daemon serves from the first moment; this only shows what is happening.
 * Servers still connecting after `timeoutMs` are named, and keep trying in the background.
 */
import type { ServerSummary } from "../protocol/methods.ts";
import { plural } from "./format.ts";

export interface StartupProgressOptions {
  /** The pool's current view of its servers (Daemon#mcp().servers(), or toolpool/servers). */
  servers: () => readonly ServerSummary[];
  write: (text: string) => void;
  intervalMs?: number;
  timeoutMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** Not settled yet: a line is printed once a server leaves these states. */
const UNSETTLED: ReadonlySet<string> = new Set(["pending"]);

export async function reportStartupProgress(options: StartupProgressOptions): Promise<void> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? Bun.sleep;
  const started = now();
  let servers = options.servers();
  if (servers.length === 0) return;
  options.write(`MCP servers: starting ${servers.length} (${servers.map((server) => server.name).join(", ")})\n`);
  const reported = new Set<string>();
  const width = Math.min(28, Math.max(...servers.map((server) => server.name.length)));
  for (;;) {
    for (const server of servers) {
      if (reported.has(server.name) || UNSETTLED.has(server.state)) continue;
      reported.add(server.name);
      options.write(`${settledLine(server, width, now() - started)}\n`);
    }
    const waiting = servers.filter((server) => !reported.has(server.name));
    if (waiting.length === 0) {
      options.write(`${summaryLine(servers)}\n`);
      return;
    }
    if (now() - started >= (options.timeoutMs ?? 30_000)) {
      options.write(`MCP servers still connecting after ${Math.round((now() - started) / 1000)} s: ${waiting.map((server) => server.name).join(", ")} (they keep trying; toolpool servers shows them)\n`);
      return;
    }
    await sleep(options.intervalMs ?? 100);
    servers = options.servers();
  }
}

function settledLine(server: ServerSummary, width: number, elapsedMs: number): string {
  const name = server.name.padEnd(width);
  switch (server.state) {
    case "connected":
      return `  ✓ ${name}  ${String(server.toolCount).padStart(4)} ${server.toolCount === 1 ? "tool " : "tools"}  ${(elapsedMs / 1000).toFixed(1)} s`;
    case "idle":
      return `  · ${name}  lazy: starts when one of its tools is needed${server.toolCount ? ` (${plural(server.toolCount, "tool")} cached)` : ""}`;
    case "disabled":
      return `  · ${name}  disabled in the config`;
    default:
      return `  ✗ ${name}  ${server.state}: ${(server.reason ?? "no reason given").split("\n")[0]}${server.nextRetryAt ? " (retrying)" : ""}`;
  }
}

function summaryLine(servers: readonly ServerSummary[]): string {
  const counts = new Map<string, number>();
  for (const server of servers) counts.set(server.state, (counts.get(server.state) ?? 0) + 1);
  const tools = servers.filter((server) => server.state === "connected").reduce((sum, server) => sum + server.toolCount, 0);
  const states = [...counts].map(([state, count]) => `${count} ${state}`).join(", ");
  return `MCP servers ready: ${states}; ${plural(tools, "tool")} from connected servers (details: toolpool servers)`;
}
