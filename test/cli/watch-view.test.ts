import { expect, test } from "bun:test";
import type { StatusResult } from "../../src/protocol/methods.ts";
import { renderWatch, type WatchSnapshot } from "../../src/cli/watch-view.ts";

const status: StatusResult = {
  version: "0.1.0",
  tier: "pro",
  features: ["PREFETCH"],
  compiled: true,
  pid: 4242,
  socket: "/run/user/1000/toolpool/toolpool.sock",
  uptimeMs: 125_000,
  sessions: { active: 3, detached: 1 },
  connections: 4,
  tools: { total: 3, builtin: 2, mcp: 1 },
  calls: { total: 57, inFlight: 1 },
  memory: { rssBytes: 80 * 1048576, heapUsedBytes: 1 },
  mcpServers: { total: 0 },
};

const tool = (name: string, deferred: boolean, server?: string) => ({
  name,
  description: "",
  source: server ? ("mcp" as const) : ("builtin" as const),
  ...(server && { server }),
  deferred,
  enabled: true,
  readOnly: true,
  concurrencySafe: true,
  destructive: false,
  openWorld: false,
  alwaysLoad: false,
});

const snapshot: WatchSnapshot = {
  status,
  tools: [tool("Read", false), tool("Sleep", true), tool("mcp__memory__read_graph", true, "memory")],
  servers: [
    { name: "memory", state: "connected", transport: "stdio", startup: "eager", toolCount: 9, stale: false, changedTools: [], restarts: 0, inFlight: 1 },
    { name: "broken", state: "parked", reason: "exited with code 1\nstderr: boom", transport: "stdio", startup: "eager", toolCount: 0, stale: true, changedTools: [], restarts: 5, inFlight: 0 },
  ],
  callsPerSecond: 2.5,
  tokens: { full: 45_300, lean: 2_100, counter: "estimate: word pieces" },
  own: { sessions: 1, connections: 1 },
  at: new Date(2026, 0, 1, 12, 0, 1),
};

test("one frame of status --watch, pinned: the watch's own session and connection are left out", () => {
  expect(renderWatch(snapshot, 120)).toEqual([
    "toolpool 0.1.0 (pro) · pid 4242 · up 2m5s · /run/user/1000/toolpool/toolpool.sock",
    "sessions  2 active, 1 detached · connections 3 · memory 80.0 MiB",
    "tools     3 (2 built-in, 1 MCP) · 1 core, 2 deferred",
    "calls     57 total · 2.5/s · 1 in flight",
    "tokens    first request 2.1k vs 45.3k in full → 43.2k saved (95%, estimate: word pieces)",
    "",
    "MCP servers (2)",
    "  NAME    STATE        TOOLS  RESTARTS  NOTE",
    "  memory  ● connected      9         0  1 in flight",
    "  broken  ✗ parked         0         5  cached list; exited with code 1",
    "",
    "updated 12:00:01 · q or Ctrl-C quits",
  ]);
});

test("narrow terminals get cut lines (a wrapped line would break the redraw); no servers method, no measurements yet", () => {
  const lines = renderWatch({ ...snapshot, servers: undefined, tokens: undefined, callsPerSecond: undefined }, 40);
  expect(lines.every((line) => line.length <= 40)).toBe(true);
  expect(lines[0]).toBe("toolpool 0.1.0 (pro) · pid 4242 · up 2m…");
  expect(lines[3]).toBe("calls     57 total · –/s · 1 in flight");
  expect(lines[4]).toBe("tokens    (measuring…)");
  expect(lines.slice(6, 8)).toEqual(["MCP servers (1; states need a newer dae…", "  memory                   1 tools"]);
});
