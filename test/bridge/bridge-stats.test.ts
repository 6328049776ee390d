import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { bridgeStatsPath, readBridgeStats, removeBridgeStats, writeBridgeStats } from "../../src/bridge/bridge-stats.ts";
import { status } from "../../src/cli/commands.ts";
import { startTestDaemon } from "../helpers/daemon-harness.ts";

describe("HTTP bridge stats for `toolpool status`", () => {
  test("status shows a live bridge's eviction count; a dead bridge's file and garbage are ignored", async () => {
    await using daemon = await startTestDaemon({ builtins: [] });
    const live = bridgeStatsPath(daemon.socketPath);
    writeBridgeStats(live, { pid: process.pid, url: "http://127.0.0.1:1234/mcp", sessions: 64, evictions: 936, startedAt: "2026-01-01T00:00:00.000Z" });
    // pid 2^31-1 is not running.
    writeBridgeStats(bridgeStatsPath(daemon.socketPath, 2_147_483_646), { pid: 2_147_483_646, url: "http://x/mcp", sessions: 1, evictions: 1, startedAt: "" });
    writeFileSync(bridgeStatsPath(daemon.socketPath, 7), "{not json");
    const lines: string[] = [];
    const options = { socket: daemon.socketPath, json: false, out: (text: string) => lines.push(text), err: () => {} };
    expect(await status(options)).toBe(0);
    expect(lines.join("\n")).toContain(`  HTTP bridge pid ${process.pid} at http://127.0.0.1:1234/mcp: 936 idle sessions evicted`);
    expect(lines.join("\n")).not.toContain("http://x/mcp");
    const json: string[] = [];
    await status({ ...options, json: true, out: (text) => json.push(text) });
    expect(JSON.parse(json[0]!).httpBridges).toEqual([{ pid: process.pid, url: "http://127.0.0.1:1234/mcp", sessions: 64, evictions: 936, startedAt: "2026-01-01T00:00:00.000Z" }]);
    removeBridgeStats(live);
    expect(readBridgeStats(daemon.socketPath)).toEqual([]);
  });
});
