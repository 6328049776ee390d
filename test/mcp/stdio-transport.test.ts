/**
 * The daemon's stdio transport against a hostile server that writes megabytes of messages at once:
 * it hands them over a few per event-loop turn, so the thread that serves every client is not held
 * until the whole burst is parsed and answered.
 */
import { expect, test } from "bun:test";
import type { ChildHandle } from "../../src/mcp/child-process.ts";
import { StderrRing } from "../../src/mcp/stderr-ring.ts";
import { MESSAGES_PER_TURN, StdioProcessTransport } from "../../src/mcp/stdio-transport.ts";
import { systemTimers } from "../../src/mcp/timers.ts";

test("hostile: a burst of 5,000 messages in one read gives the event loop a turn every few messages", async () => {
  const line = `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x".repeat(200) } })}\n`;
  const burst = new TextEncoder().encode(line.repeat(5_000));
  const { promise: exited, resolve: exit } = Promise.withResolvers<{ code: number | null; signal: string | null }>();
  const child: ChildHandle = {
    // Above Linux's PID_MAX_LIMIT (2^22): the group signals the transport sends at exit reach nobody.
    pid: 2 ** 22 + 17,
    stdout: new ReadableStream({
      start(controller) {
        controller.enqueue(burst);
      },
    }),
    stderr: new ReadableStream({ start: () => {} }),
    exited,
    write: async () => {},
    endInput: () => {},
  };
  const transport = new StdioProcessTransport({ command: "hostile", args: [], env: {}, spawn: () => child, timers: systemTimers, stderr: new StderrRing(10_000), maxLineBytes: 1 << 20, graceMs: 10 });
  let delivered = 0;
  const { promise: all, resolve: allDelivered } = Promise.withResolvers<void>();
  // The most messages handed over between two turns of the event loop (what a client's request waits behind).
  let sinceTurn = 0;
  let mostInOneTurn = 0;
  let turning = true;
  const turn = () => {
    sinceTurn = 0;
    if (turning) setImmediate(turn);
  };
  setImmediate(turn);
  transport.onmessage = () => {
    mostInOneTurn = Math.max(mostInOneTurn, ++sinceTurn);
    if (++delivered === 5_000) allDelivered();
  };
  await transport.start();
  await all;
  turning = false;
  expect({ delivered, fitsOneTurn: mostInOneTurn <= MESSAGES_PER_TURN }).toEqual({ delivered: 5_000, fitsOneTurn: true });
  exit({ code: 0, signal: null });
  await transport.close();
});
