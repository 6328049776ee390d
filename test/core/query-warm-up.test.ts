/**
 * The query warm-up after the impact sweep (query-warm-up.ts, started by SearchSync): it runs the
 * pool's synthetic queries through the index in slices with the thread given back before each,
 * leaves the query cache and every answer as they were, stops when disposed, and runs once per
 * process — again only once the pool has grown 4× since the last one finished.
 */
import { describe, expect, test } from "bun:test";
import { QueryWarmUp } from "../../src/core/query-warm-up.ts";
import { SearchSync, type CatchUpEvent } from "../../src/core/search-sync.ts";
import { searchDocument } from "../../src/core/search-document.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import { warmUpQueries } from "../../src/search/warm-up-queries.ts";
import type { Tool } from "../../src/tool/tool.ts";
import { HandDrivenThread, poolTool } from "../helpers/search-sync-tools.ts";

function pool(count: number, prefix: string): Tool[] {
  return Array.from({ length: count }, (_, i) => poolTool(`${prefix}_get_${i}`, `Gets the ${prefix} weather forecast for word${i}. Returns term${i % 97} kind${i % 13} topic${i % 31}.`, `srv${i % 5}`));
}

const QUERIES = ["weather forecast", "word17 term3", "a get tool", "kind4 topic9 forecast", "forecast +kind3", "mcp__srv1 topic"];

/** Yields under the test's control, a clock that ticks once per reading, and every index the sync made. */
function handDriven(warmUp: { minTools?: number; queries?: number } = {}) {
  const thread = new HandDrivenThread();
  const events: CatchUpEvent[] = [];
  const warmed: string[] = [];
  /** The tools whose words the warm-up learned, in order (ToolSearchIndex.learnWords). */
  const learned: string[] = [];
  const sync = new SearchSync({
    sliceMs: 4,
    now: thread.now,
    yieldThread: thread.yieldThread,
    onCatchUp: (event) => events.push(event),
    warmUp,
    makeIndex: () => {
      const index = new ToolSearchIndex({ collectGarbage: () => {} });
      const warmUpQuery = index.warmUp.bind(index);
      index.warmUp = (text) => {
        warmed.push(text);
        return warmUpQuery(text);
      };
      const learnWords = index.learnWords.bind(index);
      index.learnWords = (doc) => {
        learned.push(doc.name);
        return learnWords(doc);
      };
      return index;
    },
  });
  return {
    sync,
    events,
    warmed,
    learned,
    get parked() {
      return thread.parked;
    },
    release: () => thread.release(),
    drain: () => thread.drain(),
  };
}

/** A hand-driven sync given `tools` (warm-up of `queries` queries), and an index of the same tools never warmed. */
function syncedWithDirect(queries: number, tools: readonly Tool[]) {
  const driven = handDriven({ queries });
  driven.sync.sync(tools);
  const direct = new ToolSearchIndex();
  for (const each of tools) direct.add(searchDocument(each));
  return { driven, direct };
}

const warmUps = (events: readonly CatchUpEvent[]) => events.filter((event) => event.phase === "warm-up");

describe("the query warm-up", () => {
  test("the synthetic queries are the pool's own, the same for the same pool, and as many as asked", () => {
    const tools = pool(300, "a").map((each) => ({ name: each.name, description: each.description, server: each.mcpInfo!.server }));
    const first = warmUpQueries(tools, (each) => each, 256);
    expect(first).toHaveLength(256);
    expect(warmUpQueries(tools, (each) => each, 256)).toEqual(first);
    expect(new Set(first).size).toBeGreaterThan(128);
    expect(first.every((query) => query.length > 0 && query.length <= 400)).toBe(true);
    expect(warmUpQueries([], (each) => each, 256)).toEqual([]);
  });

  test("runs after the sweep, in slices each after a yield; searches between slices answer as an index never warmed, and the query cache holds none of its queries", async () => {
    const { driven, direct } = syncedWithDirect(120, pool(400, "a"));
    const expected = QUERIES.map((query) => direct.query(query, { maxResults: 10 }));
    void driven.sync.ready();
    let asked = 0;
    while (driven.parked > 0) {
      await driven.release();
      if (driven.warmed.length === 0 || driven.sync.warmUp.ran >= 120) continue;
      // Mid warm-up: a search is answered between two slices, as the unwarmed index answers it.
      expect(driven.sync.query(QUERIES[asked % QUERIES.length]!, { maxResults: 10 })).toEqual(expected[asked % QUERIES.length]!);
      asked++;
    }
    const [event] = warmUps(driven.events);
    expect(event).toMatchObject({ phase: "warm-up", outcome: "done", queries: 120, wordTools: 400 });
    expect(event!.slices).toBeGreaterThan(3);
    expect(asked).toBeGreaterThan(2);
    expect(driven.warmed).toHaveLength(120);
    // Each clock reading is a tick: a slice of 4 runs at most 4 queries.
    expect(event!.slices).toBeGreaterThanOrEqual(120 / 4);
    expect(QUERIES.map((query) => driven.sync.query(query, { maxResults: 10 }))).toEqual(expected);
    // A warm-up query asked for real is parsed afresh (not found in the cache): same answer as the unwarmed index.
    const sample = driven.warmed.slice(0, 30);
    for (const query of sample) expect(driven.sync.query(query, { maxResults: 5 })).toEqual(direct.query(query, { maxResults: 5 }));
  });

  test("ToolSearchIndex.warmUp keeps nothing in the query cache", () => {
    const index = new ToolSearchIndex();
    for (const each of pool(50, "b")) index.add(searchDocument(each));
    let parses = 0;
    // The cache is private: count what a real query parses, before and after a warm-up of the same text.
    const cache = (index as unknown as { queryCache: { uncached: (text: string) => unknown; get: (text: string) => unknown } }).queryCache;
    const parse = (cache as unknown as { parse: (text: string) => unknown }).parse.bind(cache);
    (cache as unknown as { parse: (text: string) => unknown }).parse = (text) => {
      parses++;
      return parse(text);
    };
    expect(index.warmUp("weather forecast word3")).toBeGreaterThan(0);
    expect(parses).toBe(1);
    index.query("weather forecast word3");
    expect(parses).toBe(2);
    index.query("weather forecast word3");
    expect(parses).toBe(2);
  });

  test("a pool below minTools is not warmed; close() stops one under way at its next slice", async () => {
    const small = handDriven({ queries: 64 });
    small.sync.sync(pool(150, "c"));
    void small.sync.ready();
    await small.drain();
    expect(warmUps(small.events)).toEqual([]);
    expect(small.warmed).toEqual([]);

    const driven = handDriven({ queries: 200 });
    driven.sync.sync(pool(300, "d"));
    void driven.sync.ready();
    while (driven.warmed.length === 0) await driven.release();
    const before = driven.warmed.length;
    driven.sync.close();
    await driven.drain();
    expect(driven.warmed.length).toBe(before);
    expect(warmUps(driven.events)).toMatchObject([{ outcome: "abandoned" }]);
    expect(driven.sync.warmUp.due(10_000)).toBe(false);
  });

  test("runs once per process, and again once the pool has grown 4× since the last one finished", async () => {
    const driven = handDriven({ queries: 40 });
    driven.sync.sync(pool(250, "e"));
    void driven.sync.ready();
    await driven.drain();
    expect(warmUps(driven.events)).toMatchObject([{ outcome: "done", queries: 40 }]);
    // Grown, not 4×: the sweep runs again, the warm-up does not.
    driven.sync.sync([...pool(250, "e"), ...pool(500, "f")]);
    void driven.sync.ready();
    await driven.drain();
    expect(warmUps(driven.events)).toHaveLength(1);
    expect(driven.events.filter((event) => event.phase === "impacts" && event.outcome === "done")).toHaveLength(2);
    // 4× the first: it runs again.
    driven.sync.sync([...pool(250, "e"), ...pool(500, "f"), ...pool(250, "g")]);
    void driven.sync.ready();
    await driven.drain();
    expect(warmUps(driven.events)).toMatchObject([{ outcome: "done" }, { outcome: "done", queries: 40 }]);
    expect(driven.warmed).toHaveLength(80);
  });

  // Changed while it runs its queries, or while it learns the pool's words.
  for (const [stage, queries, started] of [
    ["queries", 100, (driven: ReturnType<typeof handDriven>) => driven.warmed.length > 0],
    ["words", 10, (driven: ReturnType<typeof handDriven>) => driven.learned.length > 0],
  ] as const) {
    test(`a warm-up given up for a pool change (during its ${stage}) is run again after the next sweep`, async () => {
      const driven = handDriven({ queries });
      driven.sync.sync(pool(300, "h"));
      void driven.sync.ready();
      while (!started(driven)) await driven.release();
      driven.sync.sync(pool(301, "h"));
      void driven.sync.ready();
      await driven.drain();
      const events = warmUps(driven.events);
      expect(events.map((event) => event.outcome)).toEqual(["abandoned", "done"]);
      expect((events[0] as { wordTools: number }).wordTools).toBeLessThan(300);
      expect(events[1]).toMatchObject({ wordTools: 301 });
    });
  }

  test("after its queries it learns every tool's words in the same slices; searches between them answer as an index that never learned", async () => {
    const tools = pool(400, "w");
    const { driven, direct } = syncedWithDirect(20, tools);
    // Words of the pool's texts, and words no text holds.
    const queries = ["Gets the weather forecast for word17.", "word123 term5 kind4 topic9", "unheard-of wordzz forecasting", ...QUERIES];
    void driven.sync.ready();
    let asked = 0;
    while (driven.parked > 0) {
      await driven.release();
      if (driven.learned.length === 0 || driven.learned.length >= tools.length) continue;
      // Mid-learning: no query was run after the last word was learned, and the answer is the direct index's.
      expect(driven.warmed).toHaveLength(20);
      const query = queries[asked++ % queries.length]!;
      expect(driven.sync.query(query, { maxResults: 10 })).toEqual(direct.query(query, { maxResults: 10 }));
    }
    expect(asked).toBeGreaterThan(2);
    expect(driven.learned).toEqual(tools.map((each) => each.name));
    expect(warmUps(driven.events)).toMatchObject([{ outcome: "done", queries: 20, wordTools: 400 }]);
    for (const query of queries) expect(driven.sync.query(query, { maxResults: 10 })).toEqual(direct.query(query, { maxResults: 10 }));
  });


  test("QueryWarmUp.due: size threshold and growth", () => {
    const warmUp = new QueryWarmUp({ minTools: 200, growth: 4 });
    expect(warmUp.due(199)).toBe(false);
    expect(warmUp.due(200)).toBe(true);
  });
});
