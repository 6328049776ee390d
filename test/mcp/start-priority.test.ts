/**
 * A call that needs a server does not wait behind the start queue, and a call that arrives while
 * its server is in a short backoff waits for the reconnect (bounded by its own timeout) instead of
 * failing at once. Fake connectors and a manual clock: nothing waits a real backoff.
 */
import { describe, expect, test } from "bun:test";
import { DEFAULT_BACKOFF } from "../../src/mcp/backoff.ts";
import type { Connector, ServerConnection } from "../../src/mcp/server-connection.ts";
import { fixtureSpec, ManualTimers, testPool, toolContext, waitFor } from "./helpers.ts";

function fakeConnection(name: string, lost: ((reason: string) => void)[] = []): ServerConnection {
  return {
    pid: undefined,
    listTools: async () => ({ tools: [{ name: "t", inputSchema: { type: "object" as const } }], warnings: [] }),
    callTool: async () => ({ content: [{ type: "text" as const, text: `answer from ${name}` }] }),
    onToolsChanged() {},
    onLost: (listener) => lost.push(listener),
    close: async () => {},
  };
}

/** A start that never finishes (until the pool stops it). */
function hangUntilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }));
}

describe("start queue priority", () => {
  test("a call to a server still queued behind others starts it at once", async () => {
    const connecting: string[] = [];
    // One start at a time, and the first never finishes: everyone else queues behind it.
    const connector: Connector = async (spec, deps) => {
      connecting.push(spec.name);
      if (spec.name === "stuck") return hangUntilAborted(deps.signal);
      return fakeConnection(spec.name);
    };
    const names = ["stuck", ...Array.from({ length: 27 }, (_, index) => `s${index}`), "needed"];
    await using pool = testPool(names.map((name) => fixtureSpec(name)), { connector, connectParallelism: 1, timers: new ManualTimers() });
    pool.start();
    await waitFor(() => connecting.includes("stuck"), "the first start");
    const result = await pool.callTool("needed", "t", {}, toolContext());
    expect(result).toEqual({ isError: false, content: [{ type: "text", text: "answer from needed" }] });
    expect(connecting).toEqual(["stuck", "needed"]);
    expect(pool.server("s0")?.state).toBe("pending");
  });

  test("ensureStarted (a selection) promotes a queued server too", async () => {
    const connector: Connector = async (spec, deps) => (spec.name === "stuck" ? hangUntilAborted(deps.signal) : fakeConnection(spec.name));
    await using pool = testPool(["stuck", "a", "b", "wanted"].map((name) => fixtureSpec(name)), { connector, connectParallelism: 1, timers: new ManualTimers() });
    pool.start();
    const status = await pool.ensureStarted("wanted");
    expect(status?.state).toBe("connected");
    expect(pool.server("a")?.state).toBe("pending");
  });
});

describe("a call during a short backoff", () => {
  test("waits for the reconnect and is answered by the new connection", async () => {
    const timers = new ManualTimers();
    const lost: ((reason: string) => void)[] = [];
    let opened = 0;
    const connector: Connector = async () => {
      opened++;
      return fakeConnection(`connection ${opened}`, lost);
    };
    await using pool = testPool([fixtureSpec("s")], { timers, connector, backoff: DEFAULT_BACKOFF });
    pool.start();
    await waitFor(() => pool.server("s")?.state === "connected", "connected");
    for (const listener of lost) listener("the server process exited with code 1");
    expect(pool.server("s")?.state).toBe("failed");
    let settled = false;
    const call = pool.callTool("s", "t", {}, toolContext()).finally(() => (settled = true));
    await Bun.sleep(0);
    expect(settled).toBe(false); // waiting, not failed at once
    expect(timers.fireNext()).toBe(1_000); // the retry keeps its backoff time
    expect(await call).toEqual({ isError: false, content: [{ type: "text", text: "answer from connection 2" }] });
  });

  test("fails with the reason when the reconnect fails, and when its own timeout comes first", async () => {
    const timers = new ManualTimers();
    const lost: ((reason: string) => void)[] = [];
    let attempts = 0;
    const connector: Connector = async () => {
      attempts++;
      if (attempts > 1) throw new Error(`attempt ${attempts} refused`);
      return fakeConnection("first", lost);
    };
    await using pool = testPool([fixtureSpec("s", {}, { timeoutMs: 5_000 })], { timers, connector, backoff: { ...DEFAULT_BACKOFF, initialMs: 3_000 } });
    pool.start();
    await waitFor(() => pool.server("s")?.state === "connected", "connected");
    for (const listener of lost) listener("the server process exited with code 1");
    const first = pool.callTool("s", "t", {}, toolContext());
    timers.fireNext(); // the retry at 3 s, which is refused
    expect(await first).toEqual({ isError: true, content: [{ type: "text", text: 'MCP server "s" failed to start: attempt 2 refused' }] });
    // Now the next attempt is 6 s away, past this server's 5 s timeout: the call fails at once.
    const second = await pool.callTool("s", "t", {}, toolContext());
    expect(second).toEqual({
      isError: true,
      content: [{ type: "text", text: 'MCP server "s" is not connected: attempt 2 refused. The next attempt is in 6 s.' }],
    });
  });
});
