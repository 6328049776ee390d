// test-plan: one tier — the HTTP bridge's session table, no feature() on its path.
import { describe, expect, test } from "bun:test";
import { DaemonBridge } from "../../src/bridge/daemon-bridge.ts";
import { startHttpBridge } from "../../src/bridge/http-bridge.ts";
import { SessionTable } from "../../src/bridge/http-sessions.ts";
import { ToolpoolClient } from "../../src/client/client.ts";
import { startBridgeDaemon, waitUntil } from "./fixtures.ts";

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "one-shot", version: "1" } },
};

/** What the MCP Inspector CLI does per command: initialize, initialized, tools/list — and no DELETE. */
async function oneShot(url: string): Promise<{ status: number; hasToolSearch: boolean }> {
  const init = await fetch(url, { method: "POST", headers: HEADERS, body: JSON.stringify(INITIALIZE) });
  const sessionId = init.headers.get("mcp-session-id");
  await init.text();
  if (init.status !== 200 || !sessionId) return { status: init.status, hasToolSearch: false };
  const session = { ...HEADERS, "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" };
  const initialized = await fetch(url, { method: "POST", headers: session, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
  await initialized.text();
  const list = await fetch(url, { method: "POST", headers: session, body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }) });
  const text = await list.text();
  return { status: list.status, hasToolSearch: text.includes('"ToolSearch"') };
}

describe("HTTP bridge session eviction", () => {
  test("1,000 sequential one-shot clients that never DELETE all succeed; evictions are logged and counted", async () => {
    await using daemon = await startBridgeDaemon();
    const logs: string[] = [];
    await using bridge = startHttpBridge({
    token: "test-token-0123456789abcdefghijklmnopqrstuv",
      address: { hostname: "127.0.0.1", port: 0 },
      createBridge: () => new DaemonBridge({ connect: () => ToolpoolClient.connect(daemon.socketPath) }),
      version: "test",
      log: (line) => logs.push(line),
    });
    const failures: { index: number; status: number }[] = [];
    const started = performance.now();
    for (let index = 0; index < 1_000; index++) {
      const result = await oneShot(bridge.url);
      if (result.status !== 200 || !result.hasToolSearch) failures.push({ index, status: result.status });
    }
    expect(failures).toEqual([]);
    expect(bridge.sessionCount()).toBe(64);
    expect(bridge.evictions()).toBe(1_000 - 64);
    // Summed up: the first eviction in full, the rest counted into a line per minute; the sum is exact.
    await bridge.stop();
    const full = logs.filter((line) => line.includes("evicted HTTP session"));
    const summed = logs.flatMap((line) => /evicted (\d+) more idle HTTP session/.exec(line)?.[1] ?? []).map(Number);
    expect(full.length + summed.reduce((sum, count) => sum + count, 0)).toBe(1_000 - 64);
    expect(full.length + summed.length).toBeLessThanOrEqual(2 * Math.ceil((performance.now() - started) / 60_000));
    expect(full[0]).toMatch(/^toolpool mcp: evicted HTTP session [0-9a-f-]{36} \(idle \d+ ms, least recently used\) to admit a new client \(limit 64 sessions\); further evictions are summed up every 60 s$/);
    // Evicted sessions close their daemon connections: no more than the live sessions stay open.
    await waitUntil(() => daemon.daemon.connections.size <= 64, "evicted sessions' daemon connections to close");
  }, 120_000);

  test("an evicted client gets 404 (so it initializes again); the least recently used idle session goes first", async () => {
    await using daemon = await startBridgeDaemon();
    await using bridge = startHttpBridge({
    token: "test-token-0123456789abcdefghijklmnopqrstuv",
      address: { hostname: "127.0.0.1", port: 0 },
      createBridge: () => new DaemonBridge({ connect: () => ToolpoolClient.connect(daemon.socketPath) }),
      version: "test",
      log: () => {},
      maxSessions: 2,
      evictAfterIdleMs: 0,
    });
    const open = async () => {
      const response = await fetch(bridge.url, { method: "POST", headers: HEADERS, body: JSON.stringify(INITIALIZE) });
      await response.text();
      return response.headers.get("mcp-session-id")!;
    };
    const listWith = async (id: string) => {
      const response = await fetch(bridge.url, {
        method: "POST",
        headers: { ...HEADERS, "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" }),
      });
      await response.text();
      return response.status;
    };
    const a = await open();
    const b = await open();
    expect(await listWith(a)).toBe(200); // a is now the most recently used
    const c = await open(); // evicts b
    expect({ a: await listWith(a), b: await listWith(b), c: await listWith(c), evictions: bridge.evictions() }).toEqual({ a: 200, b: 404, c: 200, evictions: 1 });
  });
});

describe("SessionTable (unit)", () => {
  const record = (closed: string[], id: string) => ({ close: () => closed.push(id) });

  test("never evicts a session with a request in flight; waits for one idle under the bound", () => {
    let now = 1_000;
    const closed: string[] = [];
    const table = new SessionTable({ maxSessions: 2, evictAfterIdleMs: 50, now: () => now });
    const done: Record<string, () => void> = {};
    for (const id of ["a", "b"]) {
      expect(table.admit()).toEqual({ kind: "admitted" });
      // Registered with its initialize in flight: not evictable until that answer is sent.
      done[id] = table.opened(id, record(closed, id));
    }
    expect(table.admit()).toEqual({ kind: "full" });
    done.b!();
    const doneA = table.begin("a")!;
    done.a!();
    table.begin("b");
    expect(table.admit()).toEqual({ kind: "full" });
    now += 10;
    doneA();
    expect(table.admit()).toEqual({ kind: "wait", ms: 50 });
    now += 50;
    expect(table.admit()).toEqual({ kind: "admitted" });
    expect({ closed, evictions: table.evictions(), size: table.size }).toEqual({ closed: ["a"], evictions: 1, size: 1 });
    // The admitted slot is reserved until it opens or is abandoned: a second open is not admitted past the cap.
    expect(table.admit()).toEqual({ kind: "full" });
    table.abandoned();
    expect(table.admit()).toEqual({ kind: "admitted" });
  });

  test("sweep closes only idle sessions past the bound", () => {
    let now = 0;
    const closed: string[] = [];
    const table = new SessionTable({ maxSessions: 4, evictAfterIdleMs: 0, now: () => now });
    for (const id of ["a", "b", "c"]) {
      table.admit();
      table.opened(id, record(closed, id))();
    }
    table.begin("b");
    now = 500;
    table.begin("c")!();
    expect(table.sweep(100)).toBe(1);
    expect(closed).toEqual(["a"]);
  });
});
