import { describe, expect, test } from "bun:test";
import { DaemonError, ToolpoolClient } from "../../src/client/client.ts";
import { defaultSocketPath } from "../../src/protocol/default-socket.ts";
import { startTestDaemon } from "../helpers/daemon-harness.ts";
import { echoTool, gateTool } from "../helpers/test-tools.ts";

describe("ToolpoolClient cancellation", () => {
  test("a signal that is already aborted rejects at once and the call never runs", async () => {
    const { tool, state } = gateTool();
    await using harness = await startTestDaemon({ builtins: [tool, echoTool] });
    const client = await ToolpoolClient.connect(harness.socketPath);
    try {
      const error = await client.call({ name: "Gate", input: {} }, { signal: AbortSignal.abort() }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DaemonError);
      expect((error as DaemonError).code).toBe(-32800);
      expect((await client.call({ name: "Echo", input: { text: "after" } })).isError).toBe(false);
      expect(state.maxRunning).toBe(0);
      expect((await client.status()).calls).toEqual({ total: 1, inFlight: 0 });
    } finally {
      state.release.resolve();
      client.close();
    }
  });

  test("a long-lived signal does not collect one abort listener per finished request", async () => {
    await using harness = await startTestDaemon({ builtins: [echoTool] });
    const client = await ToolpoolClient.connect(harness.socketPath);
    const controller = new AbortController();
    let listeners = 0;
    const signal = controller.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((...args: Parameters<typeof add>) => {
      listeners++;
      add(...args);
    }) as typeof signal.addEventListener;
    signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
      listeners--;
      remove(...args);
    }) as typeof signal.removeEventListener;
    try {
      for (let index = 0; index < 20; index++) await client.call({ name: "Echo", input: { text: String(index) } }, { signal });
      expect(listeners).toBe(0);
    } finally {
      client.close();
    }
  });
});

describe("hostile: a request the daemon would refuse without its id", () => {
  test("too deep, too many members or over the line limit: refused at once by the client, naming the limit; the connection keeps working", async () => {
    await using harness = await startTestDaemon({ builtins: [echoTool] });
    const client = await ToolpoolClient.connect(harness.socketPath);
    try {
      let deep: unknown = "x";
      for (let index = 0; index < 200; index++) deep = { a: deep };
      const wide = Object.fromEntries(Array.from({ length: 150_000 }, (_, index) => [`k${index}`, index]));
      const outcomes = [];
      for (const input of [{ text: "x", deep }, { text: "x", ...wide }, { text: "x".repeat(9 * 1024 * 1024) }]) {
        // Without the check the daemon answers such a line with id null: the call would wait forever.
        const outcome = await Promise.race([client.call({ name: "Echo", input }).then(() => "answered", (error: unknown) => error), Bun.sleep(5_000).then(() => "no answer in 5 s")]);
        outcomes.push(outcome instanceof DaemonError ? { code: outcome.code, message: outcome.message.replace(/\d+/g, "N") } : outcome);
      }
      expect(outcomes).toEqual([
        { code: -32600, message: "Invalid request: the request is JSON nested deeper than N levels (the daemon's limit); nothing was sent to the daemon" },
        { code: -32600, message: "Invalid request: the request is JSON with more than N,N object members (the daemon's limit); nothing was sent to the daemon" },
        { code: -32600, message: "Invalid request: the request is N bytes, over the daemon's N-byte line limit; nothing was sent to the daemon" },
      ]);
      expect(await client.call({ name: "Echo", input: { text: "still here" } })).toMatchObject({ isError: false });
    } finally {
      client.close();
    }
  });
});

describe("ToolpoolClient.connect() without a path", () => {
  test("uses the default socket ($TOOLPOOL_SOCKET, else $XDG_RUNTIME_DIR/toolpool/toolpool.sock)", async () => {
    await using daemon = await startTestDaemon({ builtins: [] });
    const saved = process.env.TOOLPOOL_SOCKET;
    process.env.TOOLPOOL_SOCKET = daemon.socketPath;
    try {
      const client = await ToolpoolClient.connect();
      expect((await client.status()).socket).toBe(daemon.socketPath);
      client.close();
    } finally {
      if (saved === undefined) delete process.env.TOOLPOOL_SOCKET;
      else process.env.TOOLPOOL_SOCKET = saved;
    }
    expect(defaultSocketPath({ XDG_RUNTIME_DIR: "/run/user/1000/" }, 1000)).toBe("/run/user/1000/toolpool/toolpool.sock");
    expect(defaultSocketPath({}, 1000)).toBe("/tmp/toolpool-1000/toolpool.sock");
    // Nothing there: the usual NotRunningError, naming the default path, not ERR_MISSING_ARGS.
    await expect(ToolpoolClient.connect()).rejects.toThrow(`no toolpool daemon is running on ${process.env.XDG_RUNTIME_DIR}/toolpool/toolpool.sock`);
  });
});
