import { describe, expect, test } from "bun:test";
import { parseConfig } from "../../src/config/load.ts";
import { CallQueue } from "../../src/mcp/call-queue.ts";
import { fixtureSpec, testPool, toolContext, waitFor } from "./helpers.ts";

const resultText = (result: { content: { type: string; text?: string }[] }) => result.content.map((block) => block.text ?? "").join("");

describe("per-server maxConcurrent with a bounded queue", () => {
  test("against a server whose calls hang: one runs, one waits, the next is refused at once with a retryable error; the waiter runs when a slot frees", async () => {
    await using pool = testPool([fixtureSpec("slow", {}, { maxConcurrent: 1, maxQueued: 1 })]);
    pool.start();
    await waitFor(() => pool.server("slow")?.state === "connected", "connected");
    const tool = (name: string) => pool.tools().find((each) => each.name === `mcp__slow__${name}`)!;
    const hang = new AbortController();
    const first = tool("wait_for_cancel").call({}, toolContext({ signal: hang.signal }));
    await waitFor(() => pool.server("slow")?.inFlight === 1, "the first call running");
    let secondDone = false;
    const second = tool("echo")
      .call({ text: "after the slot freed" }, toolContext())
      .then((result) => {
        secondDone = true;
        return result;
      });
    const refused = await tool("echo").call({ text: "no room" }, toolContext());
    expect(refused).toEqual({
      isError: true,
      content: [{ type: "text", text: 'MCP server "slow" is busy: 1 call(s) running (its maxConcurrent) and 1 waiting, the most its queue holds. echo did not run; retry in a few seconds.' }],
    });
    expect(secondDone).toBe(false);
    expect(pool.server("slow")?.inFlight).toBe(1);
    hang.abort(new Error("done waiting"));
    expect(resultText(await first)).toContain("was cancelled");
    expect(resultText(await second)).toBe("after the slot freed");
  });

  test("a waiting call whose signal aborts leaves the queue without taking a slot", async () => {
    const queue = new CallQueue(1, 2);
    const held = await queue.acquire(new AbortController().signal);
    const leaving = new AbortController();
    const waiting = queue.acquire(leaving.signal);
    const next = queue.acquire(new AbortController().signal);
    expect(queue.waiting).toBe(2);
    leaving.abort();
    expect((await waiting).kind).toBe("aborted");
    expect(queue.waiting).toBe(1);
    if (held.kind !== "admitted") throw new Error("expected a slot");
    held.release();
    held.release(); // twice is once
    expect((await next).kind).toBe("admitted");
    expect({ running: queue.running, waiting: queue.waiting }).toEqual({ running: 1, waiting: 0 });
  });

  test("the config key is bounded and named when wrong", () => {
    expect(() => parseConfig({ mcpServers: { s: { command: "x", maxConcurrent: 0 } } }, "test")).toThrow(/mcpServers\.s\.maxConcurrent/);
    expect(parseConfig({ mcpServers: { s: { command: "x", maxConcurrent: 4, maxQueued: 0 } } }, "test").mcpServers.s).toMatchObject({ maxConcurrent: 4, maxQueued: 0 });
  });
});
