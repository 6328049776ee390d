/**
 * SearchSync's catch-up scheduler, driven by hand: a clock that ticks once per reading (so a slice
 * indexes a known handful of tools) and a yield that returns only when the test lets it. Attacks:
 * a build that holds the thread, a search answered from an index missing what it should see (or
 * kept waiting by changes after it), changes that pile up, a superseded build kept alive, a failed
 * build leaving searches hanging, and a sliced index that ranks differently from a synchronous one.
 */
import { describe, expect, test } from "bun:test";
import { MAX_ABANDONED_IN_A_ROW, SearchSync } from "../../src/core/search-sync.ts";
import { searchDocument } from "../../src/core/search-document.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import type { Tool } from "../../src/tool/tool.ts";
import { HandDrivenThread, settle } from "../helpers/search-sync-tools.ts";

function tool(name: string, description: string, server = "srv", schema: unknown = { type: "object", properties: { city: { type: "string" } } }): Tool {
  return { name: `mcp__${server}__${name}`, description, inputJSONSchema: schema, aliases: [], mcpInfo: { server, tool: name } } as unknown as Tool;
}

function pool(count: number, prefix: string, words = "weather forecast"): Tool[] {
  return Array.from({ length: count }, (_, i) => tool(`${prefix}${i}`, `${prefix} tool ${i}: ${words} number${i % 13}`));
}

/** Slices under the test's control: each yield waits for `release()`; the clock ticks once per reading. */
function handDriven(sliceMs = 10) {
  const thread = new HandDrivenThread();
  let adds = 0;
  let indexes = 0;
  const options = {
    sliceMs,
    now: thread.now,
    yieldThread: thread.yieldThread,
    makeIndex: () => {
      indexes++;
      const index = new ToolSearchIndex({ collectGarbage: () => {} });
      const add = index.add.bind(index);
      index.add = (doc) => {
        adds++;
        add(doc);
      };
      return index;
    },
  };
  return {
    sync: new SearchSync(options),
    get adds() {
      return adds;
    },
    get indexes() {
      return indexes;
    },
    get parked() {
      return thread.parked;
    },
    /** Lets the catch-up run its next slice, then lets the promises it settled run. */
    release: () => thread.release(),
  };
}

function watch(promise: Promise<void>): { done: boolean; error?: unknown } {
  const state: { done: boolean; error?: unknown } = { done: false };
  promise.then(
    () => (state.done = true),
    (error: unknown) => {
      state.done = true;
      state.error = error;
    },
  );
  return state;
}

const QUERIES = ["weather forecast", "number7", "a0 tool", "select:mcp__srv__a3", "mcp__srv", "forecast +number3"];

describe("SearchSync catches up in slices", () => {
  test("the first search after a large change waits while other work runs between slices; the index then answers exactly as one built at once", async () => {
    const driven = handDriven();
    const tools = pool(200, "a");
    driven.sync.sync(tools);
    const ready = watch(driven.sync.ready());
    await settle();
    // One slice ran and gave the thread back: nothing is answered from a half-built index.
    expect({ parked: driven.parked, done: ready.done, current: driven.sync.current, slices: driven.sync.stats.slices }).toEqual({ parked: 1, done: false, current: false, slices: 1 });
    expect(driven.adds).toBeGreaterThan(0);
    expect(driven.adds).toBeLessThan(200);
    while (!ready.done) await driven.release();
    expect(driven.sync.stats.slices).toBeGreaterThan(10);
    const direct = new ToolSearchIndex();
    for (const each of tools) direct.add(searchDocument(each));
    for (const query of QUERIES) expect(driven.sync.query(query, { maxResults: 10 })).toEqual(direct.query(query, { maxResults: 10 }));
  });

  test("a search waits for the pool as it was when it came, not for changes after it, even while they keep coming", async () => {
    const driven = handDriven();
    driven.sync.sync(pool(100, "a"));
    const first = watch(driven.sync.ready());
    await settle();
    let round = 0;
    // A change every slice: the catch-up never runs out of work while this goes on.
    while (!first.done) {
      expect(round++).toBeLessThan(100);
      driven.sync.sync([...pool(100, "a"), ...pool(round, "late")]);
      await driven.release();
    }
    expect(driven.sync.current).toBe(false);
    // Everything synced before the search came is in what it reads.
    expect(driven.sync.index.names()).toContain("mcp__srv__a99");
    const later = watch(driven.sync.ready());
    expect(later.done).toBe(false);
    while (!later.done) await driven.release();
    expect(driven.sync.query("select:mcp__srv__late0").found).toEqual(["mcp__srv__late0"]);
  });

  test("a tool added mid-build is found by the search that came after it; one removed is gone", async () => {
    const driven = handDriven();
    const base = pool(100, "a");
    driven.sync.sync(base);
    const first = watch(driven.sync.ready());
    await settle();
    driven.sync.sync([...base.slice(1), tool("invoice_maker", "Creates an invoice for a customer")]);
    const second = watch(driven.sync.ready());
    while (!second.done) await driven.release();
    expect(first.done).toBe(true);
    expect(driven.sync.query("invoice customer").matches[0]?.name).toBe("mcp__srv__invoice_maker");
    expect(driven.sync.query("select:mcp__srv__a0").found).toEqual([]);
  });

  test("read synchronously with no catch-up running, the index is brought up to date at once", () => {
    const driven = handDriven();
    driven.sync.sync(pool(200, "a"));
    expect(driven.sync.index.size).toBe(200);
    expect(driven.sync.current).toBe(true);
  });

  test("read mid-build, the index is the one served (the rest is not finished on the thread); a search resumed with newer changes pending reads what it waited for", async () => {
    const driven = handDriven();
    driven.sync.sync(pool(200, "a"));
    const first = watch(driven.sync.ready());
    await settle();
    const partial = driven.sync.index.size;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(200);
    expect({ current: driven.sync.current, parked: driven.parked }).toEqual({ current: false, parked: 1 });
    // A server of 150 tools arrives mid-build; the search that came before it resumes first.
    driven.sync.sync([...pool(200, "a"), ...pool(150, "b")]);
    let atResume = -1;
    const reader = (async () => {
      while (!first.done) await new Promise<void>((resolve) => setImmediate(resolve));
      atResume = driven.sync.index.size;
      return driven.sync.query("select:mcp__srv__a199").found;
    })();
    while (!first.done) await driven.release();
    expect(await reader).toEqual(["mcp__srv__a199"]);
    // It read the 200 it waited for, and nothing of the newer server was indexed on the thread for it.
    expect(atResume).toBeGreaterThanOrEqual(200);
    expect(atResume).toBeLessThan(350);
    expect(driven.sync.current).toBe(false);
    while (!driven.sync.current) await driven.release();
    expect(driven.sync.index.size).toBe(350);
  });
});

describe("SearchSync coalesces", () => {
  test("a tool changed many times before the index catches up is indexed once, as it is now", async () => {
    const driven = handDriven();
    driven.sync.sync(pool(20, "a"));
    driven.sync.index;
    const before = driven.adds;
    for (let version = 0; version < 50; version++) driven.sync.sync([...pool(20, "a"), tool("moving", `moving target version${version}`)]);
    driven.sync.index;
    expect(driven.adds - before).toBe(1);
    expect(driven.sync.query("version49").matches.map((match) => match.name)).toEqual(["mcp__srv__moving"]);
    expect(driven.sync.query("version3").matches).toEqual([]);
  });

  test("a re-listed server's tools that read the same (new objects) are not indexed again; one that reads differently is", () => {
    const driven = handDriven();
    driven.sync.sync(pool(50, "a"));
    const index = driven.sync.index;
    const before = driven.adds;
    const relisted = pool(50, "a");
    relisted[7] = tool("a7", "a7 tool 7: now it books flights");
    expect(driven.sync.sync(relisted)).toEqual({ added: 0, removed: 0, replaced: 50 });
    expect(driven.sync.index).toBe(index);
    expect(driven.adds - before).toBe(1);
    expect(driven.sync.query("books flights").matches[0]?.name).toBe("mcp__srv__a7");
    // A schema that differs (here only in key order, which the index reads in order) is indexed again.
    const reordered = relisted.map((each, i) => (i === 3 ? tool("a3", each.description, "srv", { properties: { city: { type: "string" } }, type: "object" }) : each));
    driven.sync.sync(reordered);
    driven.sync.index;
    expect(driven.adds - before).toBe(2);
  });

  test("a pool replaced wholesale faster than it is searched keeps no queue: one build afresh from the newest pool", async () => {
    const driven = handDriven();
    driven.sync.sync(pool(100, "a"));
    driven.sync.index;
    for (const prefix of ["b", "c", "d", "e"]) driven.sync.sync(pool(100, prefix));
    const before = driven.adds;
    const ready = watch(driven.sync.ready());
    while (!ready.done) await driven.release();
    // Only the newest pool is indexed: b, c and d were never worked on.
    expect({ adds: driven.adds - before, freshBuilds: driven.sync.stats.freshBuilds, size: driven.sync.index.size }).toEqual({ adds: 100, freshBuilds: 1, size: 100 });
    expect([...driven.sync.index.names()].every((name) => name.startsWith("mcp__srv__e"))).toBe(true);
  });
});

describe("SearchSync abandons a build the pool has overtaken", () => {
  test("a fresh build superseded by a newer pool is dropped and begun again from it; after MAX_ABANDONED_IN_A_ROW the next one finishes", async () => {
    const driven = handDriven();
    driven.sync.sync(pool(100, "a"));
    driven.sync.index;
    // Wholesale replacements: the next catch-up is a fresh build.
    for (const prefix of ["b", "c", "d"]) driven.sync.sync(pool(100, prefix));
    const ready = watch(driven.sync.ready());
    await settle();
    let generation = 0;
    // Overtake every build after its first slice, for longer than the limit.
    for (let round = 0; round < MAX_ABANDONED_IN_A_ROW + 2; round++) {
      for (let i = 0; i < 3; i++) driven.sync.sync(pool(100, `g${generation++}x`));
      if (ready.done) break;
      await driven.release();
    }
    expect(driven.sync.stats.abandoned).toBe(MAX_ABANDONED_IN_A_ROW);
    while (!ready.done) await driven.release();
    expect(ready.error).toBeUndefined();
    while (!driven.sync.current) await driven.release();
    // The index holds the newest pool and nothing else.
    const names = [...driven.sync.index.names()].sort();
    expect(names).toEqual(pool(100, `g${generation - 1}x`).map((each) => each.name).sort());
    // Builds never piled up: one per catch-up begun, abandoned ones included.
    expect(driven.indexes).toBe(1 + driven.sync.stats.freshBuilds);
  });
});

describe("SearchSync when indexing fails", () => {
  test("waiting searches fail instead of hanging, and the next catch-up builds afresh from the pool", async () => {
    let poisoned = true;
    const sync = new SearchSync({
      makeIndex: () => {
        const index = new ToolSearchIndex({ collectGarbage: () => {} });
        const add = index.add.bind(index);
        index.add = (doc) => {
          if (poisoned && doc.name === "mcp__srv__a5") throw new Error("cannot index a5");
          add(doc);
        };
        return index;
      },
    });
    sync.sync(pool(10, "a"));
    await expect(sync.ready()).rejects.toThrow("cannot index a5");
    poisoned = false;
    await sync.ready();
    expect({ size: sync.index.size, freshBuilds: sync.stats.freshBuilds }).toEqual({ size: 10, freshBuilds: 1 });
    // The synchronous way in too: the failure is thrown, and the change that failed is not lost.
    poisoned = true;
    sync.sync(pool(10, "b").map((each, i) => (i === 5 ? tool("a5", "a5 now indexes differently") : each)));
    expect(() => sync.index).toThrow("cannot index a5");
    poisoned = false;
    expect([...sync.index.names()].sort()).toEqual(pool(10, "b").map((each, i) => (i === 5 ? "mcp__srv__a5" : each.name)).sort());
    expect(sync.query("indexes differently").matches[0]?.name).toBe("mcp__srv__a5");
  });
});
