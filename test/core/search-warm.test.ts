/**
 * The index's background catch-up (search-warm.ts), with the timers and the catch-up's slices in
 * the test's hands. Attacks: a burst of changes starting one build per change (or none while it
 * lasts), a build for a daemon too small to need one, a timer left running after stop, a failed
 * background build surfacing as an unhandled rejection, and a search during the background build
 * answered from an index that lacks the newest tools.
 */
import { describe, expect, test } from "bun:test";
import { SearchSync } from "../../src/core/search-sync.ts";
import { DEFAULT_MAX_WAIT_MS, DEFAULT_SETTLE_MS, SearchWarm, type SearchWarmTarget } from "../../src/core/search-warm.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import type { Tool } from "../../src/tool/tool.ts";
import { ManualClock } from "../cron/manual-clock.ts";
import { coreHarness } from "../helpers/core-harness.ts";
import { waitFor } from "../helpers/wait.ts";
import { buildTool } from "../../src/tool/build-tool.ts";
import { textResult } from "../../src/tool/result.ts";
import { z } from "zod";

function mcpTool(name: string, description = `${name}: weather forecast for a city`): Tool {
  return { name: `mcp__srv__${name}`, description, inputJSONSchema: { type: "object" }, aliases: [], isMcp: true, mcpInfo: { server: "srv", tool: name } } as unknown as Tool;
}

function mcpPool(count: number, prefix = "t"): Tool[] {
  return Array.from({ length: count }, (_, i) => mcpTool(`${prefix}${i}`));
}

/** A catch-up target that counts its starts and settles when told. */
function countingTarget() {
  const starts: number[] = [];
  let current = false;
  let fail: ((error: unknown) => void) | undefined;
  const target: SearchWarmTarget = {
    get current() {
      return current;
    },
    ready: () => {
      starts.push(starts.length);
      return new Promise<void>((_resolve, reject) => (fail = reject));
    },
  };
  return {
    target,
    starts,
    setCurrent: (value: boolean) => (current = value),
    fail: (error: unknown) => fail?.(error),
  };
}

describe("SearchWarm starts the index's catch-up once the pool settles", () => {
  test("a burst of changes starts one catch-up, settleMs after its last change", () => {
    const timers = new ManualClock(0);
    const { target, starts } = countingTarget();
    const warm = new SearchWarm(target, { onError: () => {} }, { clock: timers, minDeferred: 10 });
    for (let i = 0; i < 5; i++) {
      warm.poolChanged(mcpPool(20 + i));
      timers.advance(DEFAULT_SETTLE_MS - 1);
    }
    expect(starts.length).toBe(0);
    expect(timers.pendingTimers).toBe(1);
    timers.advance(1);
    expect({ starts: starts.length, armed: warm.armed, started: warm.started }).toEqual({ starts: 1, armed: false, started: 1 });
    // The next burst starts the next one.
    warm.poolChanged(mcpPool(30));
    timers.advance(DEFAULT_SETTLE_MS);
    expect(starts.length).toBe(2);
  });

  test("a pool that never settles still starts its catch-up maxWaitMs after the burst's first change", () => {
    const timers = new ManualClock(0);
    const { target, starts } = countingTarget();
    const warm = new SearchWarm(target, { onError: () => {} }, { clock: timers, minDeferred: 10 });
    let elapsed = 0;
    while (starts.length === 0) {
      expect(elapsed).toBeLessThan(10_000);
      warm.poolChanged(mcpPool(20 + (elapsed % 7)));
      timers.advance(100);
      elapsed += 100;
    }
    expect(elapsed).toBe(DEFAULT_MAX_WAIT_MS);
  });

  test("no catch-up for a pool with fewer deferred tools than minDeferred (a daemon of built-ins), nor for one that shrank below it", () => {
    const timers = new ManualClock(0);
    const { target, starts } = countingTarget();
    const warm = new SearchWarm(target, { onError: () => {} }, { clock: timers, minDeferred: 50 });
    // 1,000 tools, none deferred: the model gets them all in full, nothing searches them.
    const core = Array.from({ length: 1_000 }, (_, i) => ({ name: `Core${i}`, description: "core", aliases: [], isMcp: false, shouldDefer: false }) as unknown as Tool);
    warm.poolChanged(core);
    warm.poolChanged([...core, ...mcpPool(49)]);
    expect(warm.armed).toBe(false);
    warm.poolChanged(mcpPool(50));
    expect(warm.armed).toBe(true);
    warm.poolChanged(mcpPool(3));
    expect(warm.armed).toBe(false);
    timers.advance(DEFAULT_MAX_WAIT_MS * 2);
    expect(starts.length).toBe(0);
  });

  test("nothing starts after close, nor when the index is current already", () => {
    const timers = new ManualClock(0);
    const { target, starts, setCurrent } = countingTarget();
    const warm = new SearchWarm(target, { onError: () => {} }, { clock: timers, minDeferred: 1 });
    setCurrent(true);
    warm.poolChanged(mcpPool(5));
    timers.advance(DEFAULT_SETTLE_MS);
    expect(starts.length).toBe(0);
    setCurrent(false);
    warm.poolChanged(mcpPool(6));
    warm.close();
    expect(timers.pendingTimers).toBe(0);
    warm.poolChanged(mcpPool(7));
    timers.advance(DEFAULT_MAX_WAIT_MS);
    expect({ starts: starts.length, pending: timers.pendingTimers }).toEqual({ starts: 0, pending: 0 });
  });

  test("a failed background catch-up is reported, not left unhandled", async () => {
    const timers = new ManualClock(0);
    const { target, fail } = countingTarget();
    const errors: unknown[] = [];
    const warm = new SearchWarm(target, { onError: (error) => errors.push(error) }, { clock: timers, minDeferred: 1 });
    warm.poolChanged(mcpPool(5));
    timers.advance(DEFAULT_SETTLE_MS);
    fail(new Error("tool 3 would not index"));
    await waitFor(() => errors.length > 0, "the error to be reported");
    expect((errors[0] as Error).message).toBe("tool 3 would not index");
  });

  test("bad options are refused, naming the option", () => {
    const { target } = countingTarget();
    expect(() => new SearchWarm(target, { onError: () => {} }, { settleMs: -1 })).toThrow("settleMs must be a finite number ≥ 0, got -1");
    expect(() => new SearchWarm(target, { onError: () => {} }, { minDeferred: Number.NaN })).toThrow("minDeferred");
    expect(() => new SearchWarm(target, { onError: () => {} }, { settleMs: 500, maxWaitMs: 100 })).toThrow("maxWaitMs (100) must be at least settleMs (500)");
  });
});

describe("a search during the background catch-up", () => {
  test("waits for it, and is answered with the tools that arrived while it ran", async () => {
    const timers = new ManualClock(0);
    const parked: (() => void)[] = [];
    let clock = 0;
    const sync = new SearchSync({
      sliceMs: 10,
      now: () => clock++,
      yieldThread: () => new Promise<void>((resolve) => parked.push(resolve)),
      makeIndex: () => new ToolSearchIndex({ collectGarbage: () => {} }),
    });
    const warm = new SearchWarm(sync, { onError: (error) => { throw error; } }, { clock: timers, minDeferred: 100 });
    const first = mcpPool(300);
    sync.sync(first);
    warm.poolChanged(first);
    timers.advance(DEFAULT_SETTLE_MS);
    // The background catch-up ran one slice and gave the thread back: nobody asked for it.
    expect({ started: warm.started, parked: parked.length, current: sync.current }).toEqual({ started: 1, parked: 1, current: false });
    // A server adds a tool mid-build; then a search comes.
    const newest = [...first, mcpTool("hail_alert", "hail alert: warns of hailstorms along a route")];
    sync.sync(newest);
    warm.poolChanged(newest);
    let answered = false;
    const search = sync.ready().then(() => {
      answered = true;
      return sync.query("hailstorm warning on my route", { maxResults: 3 });
    });
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    let slices = 0;
    while (!answered) {
      expect(slices++).toBeLessThan(1_000);
      parked.shift()!();
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    expect((await search).matches[0]?.name).toBe("mcp__srv__hail_alert");
    expect(sync.current).toBe(true);
    // The burst's second change found the index current by the time its timer fell due: no second build.
    timers.advance(DEFAULT_SETTLE_MS);
    expect({ started: warm.started, builds: sync.stats.freshBuilds }).toEqual({ started: 1, builds: 0 });
  });
});

describe("the daemon's pool", () => {
  const deferredBuiltin = (i: number) =>
    buildTool({ name: `Deferred${i}`, description: `Deferred built-in number ${i} for reports`, inputSchema: z.object({}), shouldDefer: true, call: async () => textResult("") });

  test("a pool of hundreds of deferred tools gets its index built without a search", async () => {
    const { core } = coreHarness({ builtins: Array.from({ length: 300 }, (_, i) => deferredBuiltin(i)) });
    try {
      expect({ armed: core.live.searchWarm.armed, current: core.live.search.current }).toEqual({ armed: true, current: false });
      await waitFor(() => core.live.search.current, "the index to be built in the background");
      expect(core.live.searchWarm.started).toBe(1);
    } finally {
      core.live.markClosing();
    }
  });

  test("a daemon of a few built-ins builds no index until something searches", () => {
    const { core } = coreHarness({ builtins: Array.from({ length: 20 }, (_, i) => deferredBuiltin(i)) });
    try {
      expect({ armed: core.live.searchWarm.armed, current: core.live.search.current }).toEqual({ armed: false, current: false });
    } finally {
      core.live.markClosing();
    }
  });

  test("explain of a missing name waits for the index off the thread; explain of a pool tool does not build it", async () => {
    // Too many tools for one slice (the catch-up's first slice runs at once, inside ready()).
    const { core } = coreHarness({ builtins: [...Array.from({ length: 3_000 }, (_, i) => deferredBuiltin(i)), buildTool({ name: "WeatherForecast", description: "Weather forecast for a city", inputSchema: z.object({}), shouldDefer: true, call: async () => textResult("") })] });
    core.live.searchWarm.close();
    try {
      const present = await core.explain("Deferred3", undefined);
      expect({ tool: present.tool, callable: present.callable, didYouMean: present.didYouMean }).toEqual({ tool: "Deferred3", callable: true, didYouMean: undefined });
      expect(core.live.search.current).toBe(false);
      const missing = core.explain("WeatherForcast", undefined);
      // The synchronous way in would have built the whole index before returning.
      expect(core.live.search.current).toBe(false);
      expect((await missing).didYouMean).toEqual(["WeatherForecast"]);
      expect(core.live.search.current).toBe(true);
    } finally {
      core.live.markClosing();
    }
  });
});
