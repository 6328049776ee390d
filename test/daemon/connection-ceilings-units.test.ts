/** The pure parts of the connection ceilings: the framer's hold/release, the shared budget, fair turns. */
import { describe, expect, test } from "bun:test";
import { LineFramer } from "../../src/protocol/line-framer.ts";
import { ConnectionBudget, type BudgetMember } from "../../src/daemon/connection-budget.ts";
import { DispatchTurns } from "../../src/daemon/dispatch-turns.ts";
import { RelistThrottle } from "../../src/mcp/relist-throttle.ts";
import { createLogger } from "../../src/runtime/logger.ts";
import { ManualTimers } from "../mcp/helpers.ts";

describe("LineFramer hold/release", () => {
  test("held mid-chunk, the rest waits unparsed and comes out in order on release", () => {
    const lines: string[] = [];
    const framer = new LineFramer(1024, { line: (line) => { lines.push(line); if (line === "b") framer.hold(); }, overflow: () => {} });
    framer.push(Buffer.from("a\nb\nc\nd"));
    expect(lines).toEqual(["a", "b"]);
    framer.push(Buffer.from("e\nf\n"));
    expect([lines.length, framer.pendingBytes, framer.bufferedBytes]).toEqual([2, 0, 7]);
    framer.release();
    expect(lines).toEqual(["a", "b", "c", "de", "f"]);
    expect(framer.bufferedBytes).toBe(0);
  });

  test("discard drops the unfinished line and everything held", () => {
    const lines: string[] = [];
    const framer = new LineFramer(1024, { line: (line) => lines.push(line), overflow: () => {} });
    framer.push(Buffer.from("par"));
    framer.hold();
    framer.push(Buffer.from("tial\nx\n"));
    framer.discard();
    framer.release();
    framer.push(Buffer.from("y\n"));
    expect([lines, framer.bufferedBytes]).toEqual([[], 0]);
  });
});

describe("ConnectionBudget", () => {
  const member = (id: number, bytes: number, dropped: number[]): BudgetMember & { bytes: number } => {
    const self = { id: String(id), bytes, bufferedBytes: () => self.bytes, drop: () => dropped.push(id) };
    return self;
  };

  test("past the budget the largest holder is dropped, then the next, until the sum fits", () => {
    const logged: string[] = [];
    const budget = new ConnectionBudget(100, createLogger("warn", (line) => logged.push(line)));
    const dropped: number[] = [];
    const members = [member(1, 30, dropped), member(2, 50, dropped), member(3, 10, dropped)];
    for (const entry of members) budget.report(entry, entry.bytes);
    expect([dropped, budget.totalBytes]).toEqual([[], 90]);
    const big = member(4, 45, dropped);
    budget.report(big, 45);
    expect(dropped).toEqual([2]);
    expect(budget.totalBytes).toBe(85);
    expect(logged.length).toBe(1);
    expect(JSON.parse(logged[0]!)).toMatchObject({ connection: "2", bytes: 50, budgetBytes: 100 });
  });

  test("stale reports are measured again before anyone is dropped", () => {
    const budget = new ConnectionBudget(100, createLogger("error", () => {}));
    const dropped: number[] = [];
    const drained = member(1, 90, dropped);
    budget.report(drained, 90);
    drained.bytes = 0; // its output drained without a report
    const other = member(2, 60, dropped);
    budget.report(other, 60);
    expect([dropped, budget.totalBytes]).toEqual([[], 60]);
  });
});

describe("DispatchTurns", () => {
  test("round-robin, one line each, until every backlog is done", async () => {
    const turns = new DispatchTurns(1_000);
    const order: string[] = [];
    const backlog = (name: string, count: number) => {
      let left = count;
      return { takeTurn: () => (order.push(name), --left > 0) };
    };
    turns.enqueue(backlog("a", 3));
    turns.enqueue(backlog("b", 1));
    turns.enqueue(backlog("c", 2));
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(["a", "b", "c", "a", "c", "a"]);
    expect(turns.waiting).toBe(0);
  });

  test("a turn's slice ends the loop's share; the rest continues on a later turn", async () => {
    let now = 0;
    const turns = new DispatchTurns(10, () => now);
    let taken = 0;
    turns.enqueue({ takeTurn: () => ((now += 4), ++taken < 100) });
    await new Promise((resolve) => setImmediate(resolve));
    expect(taken).toBe(3);
    await new Promise((resolve) => setImmediate(resolve));
    expect(taken).toBe(6);
  });
});

describe("RelistThrottle", () => {
  test("a burst of 3 at once, then one per second", () => {
    const timers = new ManualTimers();
    const throttle = new RelistThrottle(timers, 3, 1_000);
    expect([throttle.take(), throttle.take(), throttle.take()]).toEqual([0, 0, 0]);
    expect(throttle.take()).toBe(1_000);
    expect(throttle.take()).toBe(2_000);
    timers.advance(10_000);
    expect([throttle.take(), throttle.take(), throttle.take(), throttle.take()]).toEqual([0, 0, 0, 1_000]);
  });
});
