import { describe, expect, test } from "bun:test";
import { reportStartupProgress } from "../../src/cli/startup-progress.ts";
import type { ServerSummary } from "../../src/protocol/methods.ts";
import { startTestDaemon } from "../helpers/daemon-harness.ts";
import { echoTool } from "../helpers/test-tools.ts";
import { FIXTURE_SERVER } from "../mcp/helpers.ts";

const server = (name: string, state: string, extra: Partial<ServerSummary> = {}): ServerSummary => ({
  name,
  state,
  transport: "stdio",
  startup: "eager",
  toolCount: 0,
  stale: false,
  changedTools: [],
  restarts: 0,
  inFlight: 0,
  ...extra,
});

describe("start-up progress of MCP servers (toolpool serve in a terminal)", () => {
  test("one tool is counted in the singular, in the line, the cache note and the summary", async () => {
    let written = "";
    await reportStartupProgress({
      servers: () => [server("thinking", "connected", { toolCount: 1 }), server("later", "idle", { startup: "lazy", toolCount: 1 })],
      write: (text) => {
        written += text;
      },
      now: () => 0,
      sleep: async () => {},
    });
    expect(written).toContain("  ✓ thinking     1 tool   0.0 s");
    expect(written).toContain("(1 tool cached)");
    expect(written).toContain("; 1 tool from connected servers");
  });

  test("a line per server as it settles, then a summary (manual clock)", async () => {
    let clock = 0;
    const frames: ServerSummary[][] = [
      [server("memory", "pending"), server("broken", "pending"), server("later", "idle", { startup: "lazy", toolCount: 3 })],
      [server("memory", "connected", { toolCount: 9 }), server("broken", "pending"), server("later", "idle", { toolCount: 3 })],
      [server("memory", "connected", { toolCount: 9 }), server("broken", "failed", { reason: "exited with code 1\nstderr: boom", nextRetryAt: "x" }), server("later", "idle", { toolCount: 3 })],
    ];
    let call = 0;
    let written = "";
    await reportStartupProgress({
      servers: () => frames[Math.min(call++, frames.length - 1)]!,
      write: (text) => {
        written += text;
      },
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
      },
    });
    expect(written.split("\n")).toEqual([
      "MCP servers: starting 3 (memory, broken, later)",
      "  · later   lazy: starts when one of its tools is needed (3 tools cached)",
      "  ✓ memory     9 tools  0.1 s",
      "  ✗ broken  failed: exited with code 1 (retrying)",
      "MCP servers ready: 1 connected, 1 failed, 1 idle; 9 tools from connected servers (details: toolpool servers)",
      "",
    ]);
  });

  test("servers still pending at the timeout are named; no servers, no output", async () => {
    let clock = 0;
    let written = "";
    await reportStartupProgress({
      servers: () => [server("slow", "pending")],
      write: (text) => {
        written += text;
      },
      timeoutMs: 1_000,
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
      },
    });
    expect(written).toBe(
      "MCP servers: starting 1 (slow)\nMCP servers still connecting after 1 s: slow (they keep trying; toolpool servers shows them)\n",
    );
    let silent = "";
    await reportStartupProgress({ servers: () => [], write: (text) => (silent += text) });
    expect(silent).toBe("");
  });

  test("against a daemon's real pool: a fixture server connects, a crashing one fails", async () => {
    await using harness = await startTestDaemon({
      builtins: [echoTool],
      config: {
        mcpServers: {
          fixture: { command: process.execPath, args: [FIXTURE_SERVER] },
          crashing: { command: process.execPath, args: [FIXTURE_SERVER], env: { FIXTURE_CRASH_ON_START: "1" } },
        },
      },
    });
    let written = "";
    await reportStartupProgress({ servers: () => harness.daemon.core.mcp()?.servers() ?? [], write: (text) => (written += text), intervalMs: 10 });
    const lines = written.trimEnd().split("\n");
    expect(lines[0]).toBe("MCP servers: starting 2 (fixture, crashing)");
    expect(lines.slice(1, 3).sort()).toEqual([expect.stringMatching(/^ {2}✓ fixture {3}\s+\d+ tools {2}\d+\.\d s$/), expect.stringMatching(/^ {2}✗ crashing {2}(failed|parked): /)].sort());
    expect(lines[3]).toMatch(/^MCP servers ready: (1 connected, 1 (failed|parked)|1 (failed|parked), 1 connected); \d+ tools from connected servers/);
  }, 30_000);
});
