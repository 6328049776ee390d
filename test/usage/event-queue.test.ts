import { describe, expect, test } from "bun:test";
import { EventQueue, type QueueTimers } from "../../src/usage/event-queue.ts";

/** Timers run by hand: `fire()` runs what is due, in order. */
function manualTimers() {
  const pending = new Map<number, { callback: () => void; ms: number }>();
  let next = 0;
  const timers: QueueTimers = {
    setTimeout: (callback, ms) => {
      pending.set(++next, { callback, ms });
      return next;
    },
    clearTimeout: (handle) => void pending.delete(handle as number),
  };
  return {
    timers,
    delays: () => [...pending.values()].map((entry) => entry.ms),
    fire() {
      const due = [...pending];
      pending.clear();
      for (const [, entry] of due) entry.callback();
    },
  };
}

describe("EventQueue", () => {
  test("nothing is written inside push; one timer writes the batch later", () => {
    const clock = manualTimers();
    const batches: number[][] = [];
    const queue = new EventQueue<number>({ write: (batch) => batches.push([...batch]), onError: () => {}, flushMs: 250, timers: clock.timers });
    queue.push(1);
    queue.push(2);
    expect(batches).toEqual([]);
    expect(clock.delays()).toEqual([250]);
    clock.fire();
    expect(batches).toEqual([[1, 2]]);
    expect(queue.size).toBe(0);
  });

  test("a full batch is written on the next tick; a backlog one batch per tick, never all at once", () => {
    const clock = manualTimers();
    const batches: number[][] = [];
    const queue = new EventQueue<number>({ write: (batch) => batches.push([...batch]), onError: () => {}, batchSize: 2, timers: clock.timers });
    for (const value of [1, 2, 3, 4, 5]) queue.push(value);
    expect(clock.delays()).toEqual([0]);
    clock.fire();
    expect(batches).toEqual([[1, 2]]);
    expect(clock.delays()).toEqual([0]);
    clock.fire();
    clock.fire();
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
    expect(clock.delays()).toEqual([]);
  });

  test("bounded: past maxQueued new events are dropped and counted until the writer catches up", () => {
    const clock = manualTimers();
    const batches: number[][] = [];
    const queue = new EventQueue<number>({ write: (batch) => batches.push([...batch]), onError: () => {}, maxQueued: 3, batchSize: 100, timers: clock.timers });
    for (let value = 1; value <= 5; value++) queue.push(value);
    expect([queue.size, queue.dropped]).toEqual([3, 2]);
    queue.flush();
    queue.push(6);
    queue.flush();
    expect(batches).toEqual([[1, 2, 3], [6]]);
  });

  test("a failing write is reported with the number of events lost, and the queue keeps working", () => {
    const clock = manualTimers();
    const errors: [string, number][] = [];
    let fail = true;
    const written: number[] = [];
    const queue = new EventQueue<number>({
      write: (batch) => {
        if (fail) throw new Error("disk full");
        written.push(...batch);
      },
      onError: (error, dropped) => errors.push([(error as Error).message, dropped]),
      timers: clock.timers,
    });
    queue.push(1);
    queue.push(2);
    queue.flush();
    fail = false;
    queue.push(3);
    queue.flush();
    expect(errors).toEqual([["disk full", 2]]);
    expect(written).toEqual([3]);
  });

  test("close writes what is left and takes nothing more", () => {
    const clock = manualTimers();
    const written: number[] = [];
    const queue = new EventQueue<number>({ write: (batch) => written.push(...batch), onError: () => {}, timers: clock.timers });
    queue.push(1);
    queue.close();
    queue.push(2);
    queue.flush();
    expect(written).toEqual([1]);
  });
});
