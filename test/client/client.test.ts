import { describe, expect, test } from "bun:test";
import { DaemonError, ToolpoolClient } from "../../src/client/client.ts";
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
