/**
 * The pool's client side per server revision: a server that speaks only 2026-07-28 (found by
 * `server/discover`, stateless requests, changes over `subscriptions/listen`) and one that speaks
 * only 2025-06-18 (initialize) are pooled side by side, searched and called over the socket.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ToolpoolClient } from "../../src/client/client.ts";
import { startMcpDaemon } from "./mcp-daemon.ts";
import { tempDir, waitFor } from "./helpers.ts";

setDefaultTimeout(30_000);

const FIXTURES = join(import.meta.dir, "..", "fixtures", "mcp");
const only2026 = (env: Record<string, string> = {}) => ({ command: process.execPath, args: [join(FIXTURES, "revision-2026-server.ts")], env, timeoutMs: 10_000 });
const only2025 = () => ({ command: process.execPath, args: [join(FIXTURES, "revision-2025-06-18-server.ts")], timeoutMs: 10_000 });

const startDaemon = startMcpDaemon;

describe("servers of either revision in one pool", () => {
  test("a 2026-07-28-only server and a 2025-06-18-only server are pooled, searched and called over the socket", async () => {
    const log = join(tempDir(), "requests.jsonl");
    await using running = await startDaemon({ moon: only2026({ FIXTURE_LOG_FILE: log }), tide: only2025() });
    const { client } = running;
    await waitFor(() => running.daemon.core.mcp()?.server("moon")?.state === "connected" && running.daemon.core.mcp()?.server("tide")?.state === "connected", "both servers connected");

    const moon = JSON.stringify(await client.search({ query: "phase of the moon" }));
    expect(moon).toContain("mcp__moon__lunar_phase");
    const tide = JSON.stringify(await client.search({ query: "tide times harbour" }));
    expect(tide).toContain("mcp__tide__tide_table");
    expect(await client.call({ name: "mcp__moon__lunar_phase", input: { date: "2026-08-28" } })).toMatchObject({ isError: false, content: [{ type: "text", text: "full moon on 2026-08-28" }] });
    expect(await client.call({ name: "mcp__tide__tide_table", input: { harbour: "Brest" } })).toMatchObject({ isError: false, content: [{ type: "text", text: "high tide at Brest 06:12" }] });

    // Subscribed before listing (no change can slip between). Every request to the 2026 server named the revision and our capabilities; it never saw initialize.
    const requests = readFileSync(log, "utf8").trim().split("\n").map((line) => JSON.parse(line) as { method: string; _meta: Record<string, unknown> });
    expect(requests.map((request) => request.method)).toEqual(["server/discover", "subscriptions/listen", "tools/list", "tools/call"]);
    for (const request of requests) {
      expect(request._meta).toMatchObject({ "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "toolpool" } });
    }
  });

  test("a 2026-07-28 server's list change arrives over subscriptions/listen and the new tool is pooled", async () => {
    await using running = await startDaemon({ moon: only2026() });
    await waitFor(() => running.daemon.core.pool().get("mcp__moon__lunar_phase"), "the server's tools");
    await running.client.call({ name: "mcp__moon__add_tool", input: { name: "eclipse_dates" } });
    await waitFor(() => running.daemon.core.pool().get("mcp__moon__eclipse_dates"), "the added tool in the pool");
    expect(await running.client.call({ name: "mcp__moon__eclipse_dates", input: {} })).toMatchObject({ isError: false, content: [{ type: "text", text: "ran eclipse_dates" }] });
  });
});

describe("a 2026-07-28 server over Streamable HTTP", () => {
  test("another toolpool's HTTP bridge is pooled statelessly (the Mcp-* headers agree with each body), searched and called", async () => {
    const { startBridgeDaemon } = await import("../bridge/fixtures.ts");
    const { startHttpBridge } = await import("../../src/bridge/http-bridge.ts");
    const { DaemonBridge } = await import("../../src/bridge/daemon-bridge.ts");
    await using upstream = await startBridgeDaemon();
    await using bridge = startHttpBridge({
      token: "test-token-0123456789abcdefghijklmnopqrstuv",
      address: { hostname: "127.0.0.1", port: 0 },
      createBridge: () => new DaemonBridge({ connect: () => ToolpoolClient.connect(upstream.socketPath) }),
      version: "upstream",
      log: () => {},
    });
    await using running = await startDaemon({ up: { type: "http", url: bridge.url, timeoutMs: 10_000 } });
    await waitFor(() => running.daemon.core.mcp()?.server("up")?.state === "connected", "the HTTP server connected");
    // Stateless: no MCP session was opened on the upstream bridge.
    expect(bridge.sessionCount()).toBe(0);
    expect(JSON.stringify(await running.client.search({ query: "select:mcp__up__Echo" }))).toContain("mcp__up__Echo");
    expect(await running.client.call({ name: "mcp__up__Echo", input: { text: "over 2026 HTTP" } })).toMatchObject({ isError: false, content: [{ type: "text", text: "over 2026 HTTP" }] });
  });
});
