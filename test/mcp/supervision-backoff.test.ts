/**
 * Supervision timing with a fake connector and a manual clock: the backoff sequence, parking, the
 * stable-connection reset and restart — checked without waiting a single backoff delay.
 */
import { describe, expect, test } from "bun:test";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { backoffDelay, DEFAULT_BACKOFF } from "../../src/mcp/backoff.ts";
import type { Connector, ServerConnection } from "../../src/mcp/server-connection.ts";
import { createLogger } from "../../src/runtime/logger.ts";
import { fixtureSpec, ManualTimers, testPool, waitFor } from "./helpers.ts";

class FakeConnection implements ServerConnection {
  readonly pid = undefined;
  readonly #lost: ((reason: string) => void)[] = [];
  closed = false;
  constructor(private readonly tools: McpTool[]) {}
  listTools = async () => ({ tools: this.tools, warnings: [] });
  callTool = async () => ({ content: [{ type: "text" as const, text: "ok" }] });
  onToolsChanged() {}
  onLost(listener: (reason: string) => void) {
    this.#lost.push(listener);
  }
  crash(reason: string) {
    for (const listener of this.#lost) listener(reason);
  }
  close = async () => {
    this.closed = true;
  };
}

function scriptedConnector(outcomes: ("fail" | "ok")[]) {
  const opened: FakeConnection[] = [];
  let attempts = 0;
  const connector: Connector = async () => {
    const outcome = outcomes[Math.min(attempts, outcomes.length - 1)];
    attempts++;
    if (outcome === "fail") throw new Error(`attempt ${attempts} refused`);
    const connection = new FakeConnection([{ name: "t", inputSchema: { type: "object" } }]);
    opened.push(connection);
    return connection;
  };
  return { connector, opened, attempts: () => attempts };
}

describe("backoffDelay", () => {
  test("doubles from 1 s to the 60 s ceiling; jitter takes up to half off", () => {
    const none = () => 0;
    expect([1, 2, 3, 4, 5, 6, 7, 8, 40].map((failures) => backoffDelay(failures, DEFAULT_BACKOFF, none))).toEqual([
      1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000,
    ]);
    expect(backoffDelay(3, DEFAULT_BACKOFF, () => 0.999999)).toBe(2000);
    expect(backoffDelay(3, DEFAULT_BACKOFF, () => 0.5)).toBe(3000);
  });
});

describe("supervision with a manual clock", () => {
  test("a server that always fails is retried at 1, 2, 4, 8 s and parked at the fifth failure, then never tried again", async () => {
    const timers = new ManualTimers();
    const script = scriptedConnector(["fail"]);
    await using pool = testPool([fixtureSpec("broken")], { timers, connector: script.connector, backoff: DEFAULT_BACKOFF });
    pool.start();
    const delays: (number | undefined)[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      await waitFor(() => pool.server("broken")?.state === "failed" && timers.pendingCount === 1, `failure ${attempt}`);
      expect(pool.server("broken")?.reason).toBe(`attempt ${attempt} refused`);
      delays.push(timers.fireNext());
    }
    await waitFor(() => pool.server("broken")?.state === "parked", "parked");
    expect(delays).toEqual([1000, 2000, 4000, 8000]);
    expect(script.attempts()).toBe(5);
    expect(timers.pendingCount).toBe(0);
    expect(pool.server("broken")).toMatchObject({
      state: "parked",
      restarts: 4,
      reason: "attempt 5 refused — parked after 5 failures in a row; run `toolpool servers restart broken` once it is fixed",
    });
    expect(pool.pendingServers()).toEqual([]);
  });

  test("a server that keeps failing makes one warning and one error (parked), not a warning per retry", async () => {
    const timers = new ManualTimers();
    const script = scriptedConnector(["fail"]);
    const lines: { level: string; message: string }[] = [];
    const logger = createLogger("info", (line, level) => lines.push({ level, message: (JSON.parse(line) as { message: string }).message }), { format: "json" });
    await using pool = testPool([fixtureSpec("broken")], { timers, connector: script.connector, backoff: DEFAULT_BACKOFF, logger });
    pool.start();
    for (let attempt = 1; attempt <= 4; attempt++) {
      await waitFor(() => pool.server("broken")?.state === "failed" && timers.pendingCount === 1, `failure ${attempt}`);
      timers.fireNext();
    }
    await waitFor(() => pool.server("broken")?.state === "parked", "parked");
    expect(lines.filter((line) => line.level === "warn" || line.level === "error")).toEqual([
      { level: "warn", message: "MCP server failed" },
      { level: "error", message: "MCP server parked" },
    ]);
  });

  test("restart un-parks; a connection that stayed up long enough starts the failure count over", async () => {
    const timers = new ManualTimers();
    const script = scriptedConnector(["fail", "fail", "fail", "fail", "fail", "ok"]);
    await using pool = testPool([fixtureSpec("flaky")], { timers, connector: script.connector, backoff: DEFAULT_BACKOFF });
    pool.start();
    for (let attempt = 1; attempt <= 4; attempt++) {
      await waitFor(() => timers.pendingCount === 1, `failure ${attempt}`);
      timers.fireNext();
    }
    await waitFor(() => pool.server("flaky")?.state === "parked", "parked");
    expect(pool.tools()).toEqual([]);
    const status = await pool.restart("flaky");
    expect([status.state, status.restarts, pool.tools().map((tool) => tool.name)]).toEqual(["connected", 5, ["mcp__flaky__t"]]);

    // Up for two minutes, then a crash: one failure, not the sixth in a row.
    timers.advance(120_000);
    script.opened[0]!.crash("the server process killed by SIGKILL");
    await waitFor(() => pool.server("flaky")?.state === "failed", "failed after crash");
    expect(timers.fireNext()).toBe(1000);
    await waitFor(() => pool.server("flaky")?.state === "connected", "reconnected");
    expect(script.opened[0]!.closed).toBe(true);
  });

  test("a call to a failed server whose next attempt is past the call's timeout fails at once with the reason and the next attempt", async () => {
    const timers = new ManualTimers();
    const script = scriptedConnector(["ok", "fail"]);
    // The fixture's timeout is 10 s; this backoff's first retry is in 20 s.
    await using pool = testPool([fixtureSpec("s")], { timers, connector: script.connector, backoff: { ...DEFAULT_BACKOFF, initialMs: 20_000 } });
    pool.start();
    await waitFor(() => pool.server("s")?.state === "connected", "connected");
    const tool = pool.tools()[0]!;
    script.opened[0]!.crash("the server process exited with code 1");
    await waitFor(() => pool.server("s")?.state === "failed", "failed");
    const result = await tool.call({}, { signal: new AbortController().signal, sessionId: "x", workspaceRoots: [], cwd: "/", sessionState: new Map() });
    expect(result).toEqual({
      isError: true,
      content: [{ type: "text", text: 'MCP server "s" is not connected: the server process exited with code 1. The next attempt is in 20 s.' }],
    });
  });

  test("a list_changed that arrives during the first listing is not lost", async () => {
    let listings = 0;
    const changed: (() => void)[] = [];
    const connection: ServerConnection = {
      pid: undefined,
      async listTools() {
        listings++;
        if (listings === 1) {
          // The server changes its list while our first tools/list is still in flight.
          for (const listener of changed) listener();
          return { tools: [{ name: "old", inputSchema: { type: "object" } }], warnings: [] };
        }
        return { tools: [{ name: "old", inputSchema: { type: "object" } }, { name: "new", inputSchema: { type: "object" } }], warnings: [] };
      },
      callTool: async () => ({ content: [] }),
      onToolsChanged: (listener) => changed.push(listener),
      onLost() {},
      close: async () => {},
    };
    await using pool = testPool([fixtureSpec("racy")], { timers: new ManualTimers(), connector: async () => connection });
    pool.start();
    await waitFor(() => pool.tools().some((tool) => tool.name === "mcp__racy__new"), "the second listing");
    expect(listings).toBe(2);
  });

  test("a list_changed on a new connection is listed even while the old connection's re-listing still hangs", async () => {
    const timers = new ManualTimers();
    const tool = (name: string) => ({ name, inputSchema: { type: "object" as const } });
    const opened: { changed: (() => void)[]; lost: ((reason: string) => void)[] }[] = [];
    const connector = async (): Promise<ServerConnection> => {
      const index = opened.length;
      const hooks = { changed: [] as (() => void)[], lost: [] as ((reason: string) => void)[] };
      opened.push(hooks);
      let listings = 0;
      return {
        pid: undefined,
        async listTools() {
          listings++;
          if (index === 0 && listings === 2) return new Promise<never>(() => {}); // the old connection's re-listing never answers
          return { tools: index === 0 || listings === 1 ? [tool("a")] : [tool("a"), tool("b")], warnings: [] };
        },
        callTool: async () => ({ content: [] }),
        onToolsChanged: (listener) => hooks.changed.push(listener),
        onLost: (listener) => hooks.lost.push(listener),
        close: async () => {},
      };
    };
    await using pool = testPool([fixtureSpec("s")], { timers, connector, backoff: DEFAULT_BACKOFF });
    pool.start();
    await waitFor(() => pool.server("s")?.state === "connected", "connected");
    for (const listener of opened[0]!.changed) listener(); // starts a re-listing that hangs
    for (const listener of opened[0]!.lost) listener("the server process exited with code 1");
    await waitFor(() => timers.pendingCount === 1, "the retry timer");
    timers.fireNext();
    await waitFor(() => opened.length === 2 && pool.server("s")?.state === "connected", "reconnected");
    for (const listener of opened[1]!.changed) listener();
    await waitFor(() => pool.tools().some((t) => t.name === "mcp__s__b"), "the new connection's re-listing");
  });

  test("a list_changed that arrives while a re-listing fails is listed again, not dropped with the failure", async () => {
    let listings = 0;
    const changed: (() => void)[] = [];
    const tool = (name: string) => ({ name, inputSchema: { type: "object" as const } });
    const connection: ServerConnection = {
      pid: undefined,
      async listTools() {
        listings++;
        if (listings === 1) return { tools: [tool("a")], warnings: [] };
        if (listings === 2) {
          // The second change arrives while this re-listing is in flight, and then the listing fails.
          for (const listener of changed) listener();
          throw new Error("tools/list timed out");
        }
        return { tools: [tool("a"), tool("b")], warnings: [] };
      },
      callTool: async () => ({ content: [] }),
      onToolsChanged: (listener) => changed.push(listener),
      onLost() {},
      close: async () => {},
    };
    await using pool = testPool([fixtureSpec("flaky")], { timers: new ManualTimers(), connector: async () => connection });
    pool.start();
    await waitFor(() => pool.tools().some((t) => t.name === "mcp__flaky__a"), "the first listing");
    for (const listener of changed) listener();
    await waitFor(() => pool.tools().some((t) => t.name === "mcp__flaky__b"), "the listing after the failed one");
    expect(listings).toBe(3);
  });
});
