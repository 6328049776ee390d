// test-plan: one tier — MCP server events in the usage history, no feature() on their path.
/** Usage history of real MCP server processes: connects, failures, restarts, parks, timeouts, truncations. */
import { expect, setDefaultTimeout, test } from "bun:test";
import type { StatsResult } from "../../src/protocol/stats-result.ts";
import { startMcpDaemon } from "./mcp-daemon.ts";
import { FIXTURE_SERVER, waitFor } from "./helpers.ts";

setDefaultTimeout(30_000);

test("server events and MCP call outcomes reach toolpool/stats", async () => {
  const mcpServers = {
    fx: { command: process.execPath, args: [FIXTURE_SERVER], timeoutMs: 1_000 },
    bad: { command: process.execPath, args: [FIXTURE_SERVER], env: { FIXTURE_CRASH_ON_START: "1" } },
  };
  await using running = await startMcpDaemon(mcpServers);
  const { client } = running;
  await waitFor(async () => (await client.servers()).servers.find((server) => server.name === "bad")?.state === "parked", "bad parked");
  await waitFor(async () => (await client.servers()).servers.find((server) => server.name === "fx")?.state === "connected", "fx connected");
  expect((await client.call({ name: "mcp__fx__echo", input: { text: "x" } })).isError).toBe(false);
  expect((await client.call({ name: "mcp__fx__hang", input: {} })).isError).toBe(true);
  expect((await client.call({ name: "mcp__fx__big", input: { bytes: 300_000 } })).isError).toBe(false);

  // A plain MCP connection's first request is its tools/list: measured like a harness's assemble.
  await client.request("tools/list", {});
  const stats: StatsResult = await client.stats();
  expect(stats.tokens.styles.map((style) => [style.delivery, style.sessions, style.firstRequestTokens < style.standardTokens])).toEqual([["proxy", 1, true]]);
  const fx = stats.servers.find((server) => server.name === "fx");
  const bad = stats.servers.find((server) => server.name === "bad");
  expect(fx).toMatchObject({ connects: 1, failures: 0, restarts: 0, parks: 0, parkedMs: 0 });
  expect(fx?.connectLatencyP50Ms).toBeGreaterThan(0);
  // Five failed attempts in a row park it (FAST_BACKOFF.parkAfter): four of them were retries.
  expect(bad).toMatchObject({ connects: 0, failures: 5, restarts: 4, parks: 1, connectLatencyP50Ms: null });
  expect(stats.calls.servers.find((server) => server.name === "fx")).toMatchObject({ count: 3, errors: 1, timeouts: 1, truncations: 1 });
  expect(stats.calls.tools.find((tool) => tool.name === "mcp__fx__hang")).toMatchObject({ count: 1, errors: 1, timeouts: 1 });
  expect(stats.calls.tools.find((tool) => tool.name === "mcp__fx__big")).toMatchObject({ count: 1, errors: 0, truncations: 1 });
});
