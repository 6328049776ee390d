/**
 * SearchSync's impact sweep after a catch-up (ToolSearchIndex.precomputeImpacts in slices): off the
 * queries, a slice at a time with the thread given back between them. Attacks: a sweep that holds
 * the thread (other work must run between every two slices), a slice longer than `sliceMs`, a
 * search or pool change kept waiting behind it, a sweep that goes on over an index that changed,
 * and rankings that differ once the impacts were worked out ahead.
 */
import { describe, expect, test } from "bun:test";
import { SearchSync, type CatchUpEvent } from "../../src/core/search-sync.ts";
import { searchDocument } from "../../src/core/search-document.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import type { Tool } from "../../src/tool/tool.ts";
import { HandDrivenThread, poolTool, settle } from "../helpers/search-sync-tools.ts";

/** Tools with many distinct words, so a sweep takes many steps. */
function pool(count: number, prefix: string): Tool[] {
  return Array.from({ length: count }, (_, i) => poolTool(`${prefix}${i}`, `${prefix} tool ${i}: weather forecast word${i} term${i % 97} kind${i % 13} topic${i % 31}`));
}

const QUERIES = ["weather forecast", "word17 term3", "a0 tool", "kind4 topic9 forecast", "select:mcp__srv__a3", "forecast +kind3"];

/** Yields under the test's control, a clock that ticks once per reading, and a log of precomputeImpacts calls. */
function handDriven(options: { sliceMs?: number; impactBudgetBytes?: number } = {}) {
  const thread = new HandDrivenThread();
  const steps: number[] = [];
  const events: CatchUpEvent[] = [];
  const sync = new SearchSync({
    sliceMs: options.sliceMs ?? 4,
    impactStep: 64,
    now: thread.now,
    yieldThread: thread.yieldThread,
    onCatchUp: (event) => events.push(event),
    // The query warm-up after a sweep is query-warm-up.test.ts's: here only the sweep takes the thread.
    warmUp: { minTools: Infinity },
    makeIndex: () => {
      const index = new ToolSearchIndex({ collectGarbage: () => {}, ...(options.impactBudgetBytes !== undefined && { impactBudgetBytes: options.impactBudgetBytes }) });
      const precompute = index.precomputeImpacts.bind(index);
      index.precomputeImpacts = (maxEntries) => {
        steps.push(sync.stats.impactSlices);
        return precompute(maxEntries);
      };
      return index;
    },
  });
  return {
    sync,
    steps,
    events,
    get parked() {
      return thread.parked;
    },
    release: () => thread.release(),
  };
}

async function caughtUp(driven: ReturnType<typeof handDriven>): Promise<void> {
  let done = false;
  void driven.sync.ready().then(() => (done = true));
  await settle();
  while (!done) await driven.release();
}

/** A probe that works nothing out: whether every impact of the served index is current. */
const swept = (sync: SearchSync) => sync.index.precomputeImpacts(0);

describe("SearchSync sweeps impacts after a catch-up", () => {
  test("in slices of at most sliceMs, each after a yield; searches between and after answer as an index never swept", async () => {
    const driven = handDriven({ sliceMs: 4 });
    const tools = pool(400, "a");
    driven.sync.sync(tools);
    await caughtUp(driven);
    // The catch-up is over and its waiter answered; the sweep waits for the thread before any work.
    expect(driven.sync.current).toBe(true);
    expect(driven.steps).toEqual([]);
    expect(driven.parked).toBe(1);
    const direct = new ToolSearchIndex();
    for (const each of tools) direct.add(searchDocument(each));
    const expected = QUERIES.map((query) => direct.query(query, { maxResults: 10 }));
    let answeredBetween = 0;
    while (driven.parked > 0) {
      await driven.release();
      // A search arriving now needs no catch-up: it is answered between two slices.
      await driven.sync.ready();
      expect(driven.sync.query(QUERIES[answeredBetween % QUERIES.length]!, { maxResults: 10 })).toEqual(expected[answeredBetween % QUERIES.length]!);
      answeredBetween++;
    }
    expect(driven.sync.stats.impactSweeps).toBe(1);
    const slices = driven.sync.stats.impactSlices;
    expect(slices).toBeGreaterThan(3);
    expect(answeredBetween).toBe(slices);
    // The clock ticks once a reading: a slice reads it at its start and after each step, so at most sliceMs steps a slice.
    for (let slice = 0; slice < slices; slice++) expect(driven.steps.filter((at) => at === slice).length).toBeLessThanOrEqual(4);
    expect(swept(driven.sync)).toBe(true);
    expect(QUERIES.map((query) => driven.sync.query(query, { maxResults: 10 }))).toEqual(expected);
    expect(driven.events.at(-1)).toMatchObject({ phase: "impacts", outcome: "done", slices });
  });

  test("timers and I/O callbacks run between every two slices (the default yield, the real clock)", async () => {
    const events: CatchUpEvent[] = [];
    const sync = new SearchSync({ sliceMs: 0.05, onCatchUp: (event) => events.push(event) });
    sync.sync(pool(3000, "b"));
    await sync.ready();
    // A ping per turn of the event loop, noting how many sweep slices had run when it came.
    const seen = new Set<number>();
    let pinging = true;
    const ping = () => {
      seen.add(sync.stats.impactSlices);
      if (pinging) setImmediate(ping);
    };
    setImmediate(ping);
    const timers: number[] = [];
    const timer = setInterval(() => timers.push(sync.stats.impactSlices), 0);
    for (let i = 0; i < 100_000 && sync.stats.impactSweeps + sync.stats.impactAbandoned === 0; i++) await new Promise((resolve) => setTimeout(resolve, 1));
    pinging = false;
    clearInterval(timer);
    expect(sync.stats.impactSweeps).toBe(1);
    const slices = sync.stats.impactSlices;
    expect(slices).toBeGreaterThan(2);
    // Every count between the first slice and the last was seen by a ping: no two slices ran without the loop turning.
    for (let count = 1; count < slices; count++) expect(seen.has(count)).toBe(true);
    expect(new Set(timers).size).toBeGreaterThan(1);
    expect(events.at(-1)).toMatchObject({ phase: "impacts", outcome: "done", slices });
  });

  test("a pool change mid-sweep is caught up at once and the sweep is given up; the next catch-up sweeps the new index again", async () => {
    const driven = handDriven({ sliceMs: 3 });
    driven.sync.sync(pool(400, "a"));
    await caughtUp(driven);
    await driven.release();
    await driven.release();
    expect(driven.sync.stats.impactSlices).toBe(2);
    const before = driven.sync.stats.slices;
    // The change and the search after it: its catch-up begins now, not after the sweep.
    driven.sync.sync([...pool(400, "a"), ...pool(3, "late")]);
    let done = false;
    void driven.sync.ready().then(() => (done = true));
    expect(driven.sync.stats.slices).toBe(before + 1);
    await settle();
    while (!done) await driven.release();
    // The old sweep found a catch-up run or done since and stopped without a slice; the new one waits for the thread.
    expect(driven.sync.stats.impactSlices).toBe(2);
    expect(driven.sync.stats.impactAbandoned).toBe(1);
    expect(driven.events.find((event) => event.phase === "impacts")).toMatchObject({ outcome: "abandoned", slices: 2 });
    expect(swept(driven.sync)).toBe(false);
    while (driven.parked > 0) await driven.release();
    expect(driven.sync.stats.impactSweeps).toBe(1);
    expect(swept(driven.sync)).toBe(true);
    expect(driven.sync.query("select:mcp__srv__late2").found).toEqual(["mcp__srv__late2"]);
  });

  test("a change synced but not caught up yet stops the sweep at its next slice (the index is about to change)", async () => {
    const driven = handDriven();
    driven.sync.sync(pool(300, "a"));
    await caughtUp(driven);
    await driven.release();
    driven.sync.sync(pool(299, "a"));
    await driven.release();
    expect(driven.parked).toBe(0);
    expect(driven.sync.stats).toMatchObject({ impactSlices: 1, impactSweeps: 0, impactAbandoned: 1 });
    expect(driven.sync.current).toBe(false);
  });

  test("read synchronously, the index caught up on the thread is swept afterwards, off it", async () => {
    const driven = handDriven();
    driven.sync.sync(pool(200, "a"));
    expect(driven.sync.query("a7 tool", { maxResults: 3 }).matches[0]!.name).toBe("mcp__srv__a7");
    expect(driven.steps).toEqual([]);
    expect(driven.parked).toBe(1);
    while (driven.parked > 0) await driven.release();
    expect(swept(driven.sync)).toBe(true);
  });

  test("a pool whose impacts would not fit in a quarter of the cache's budget is not swept: one empty slice", async () => {
    const driven = handDriven({ impactBudgetBytes: 1024 });
    driven.sync.sync(pool(200, "a"));
    await caughtUp(driven);
    await driven.release();
    expect(driven.parked).toBe(0);
    expect(driven.sync.stats).toMatchObject({ impactSlices: 1, impactSweeps: 1 });
    expect(driven.steps).toEqual([0]);
    expect(driven.sync.query("a7 tool", { maxResults: 3 }).matches[0]!.name).toBe("mcp__srv__a7");
  });
});
