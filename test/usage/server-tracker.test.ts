import { expect, test } from "bun:test";
import { ServerTracker } from "../../src/usage/server-tracker.ts";

test("server states become connects (with latency), failures, restarts and parks (with their length)", () => {
  let now = 0;
  const tracker = new ServerTracker(() => now);
  const kinds = (server: string, state: string, at: number) => {
    now = at;
    return tracker.transition(server, state).map((event) => (event.type === "server" ? [event.kind, event.latencyMs, event.parkedMs] : []));
  };
  expect(kinds("s", "pending", 0)).toEqual([]);
  expect(kinds("s", "connected", 40)).toEqual([["connect", 40, null]]);
  // A lazy server going idle and waking is not a restart.
  expect(kinds("s", "idle", 50)).toEqual([]);
  expect(kinds("s", "pending", 60)).toEqual([]);
  expect(kinds("s", "failed", 70)).toEqual([["failure", null, null]]);
  expect(kinds("s", "pending", 100)).toEqual([["restart", null, null]]);
  expect(kinds("s", "parked", 110)).toEqual([["failure", null, null], ["parked", null, null]]);
  expect([...tracker.parkedNow()]).toEqual([["s", 110]]);
  expect(kinds("s", "pending", 1_110)).toEqual([["unparked", null, 1_000], ["restart", null, null]]);
  expect(kinds("s", "connected", 1_130)).toEqual([["connect", 20, null]]);
  expect(kinds("s", "connected", 1_140)).toEqual([]);
  expect(tracker.parkedNow().size).toBe(0);
});
