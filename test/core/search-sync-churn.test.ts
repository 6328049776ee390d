/**
 * SearchSync against a pool that never stops changing (a server whose `tools/list_changed` never
 * stops: tools reworded, added, removed, now and then the whole list replaced) while searches keep
 * coming. Every search must be answered within a bounded number of slices, from an index that holds
 * what the pool held when it came (and nothing the pool had dropped by then, unless re-added since),
 * and builds must never pile up.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { MAX_ABANDONED_IN_A_ROW, SearchSync } from "../../src/core/search-sync.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import type { Tool } from "../../src/tool/tool.ts";

// ~3.5 s alone; other test files share the two cores.
setDefaultTimeout(60_000);

function tool(name: string, description: string): Tool {
  return { name: `mcp__churn__${name}`, description, inputJSONSchema: { type: "object" }, aliases: [], mcpInfo: { server: "churn", tool: name } } as unknown as Tool;
}

interface Search {
  /** The pool when the search came: name → description. */
  pool: Map<string, string>;
  /** Names changed (reworded, added or removed) after it came. */
  touchedAfter: Set<string>;
  releases: number;
  done: boolean;
  error?: unknown;
}

describe("SearchSync under a pool that never stops changing", () => {
  test("every search is answered within a bounded number of slices, with what the pool held when it came; builds never pile up", async () => {
    let seed = 99;
    const random = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
    const parked: (() => void)[] = [];
    let clock = 0;
    let indexes = 0;
    const sync = new SearchSync({
      sliceMs: 40,
      now: () => clock++,
      yieldThread: () => new Promise<void>((resolve) => parked.push(resolve)),
      makeIndex: () => {
        indexes++;
        return new ToolSearchIndex({ collectGarbage: () => {} });
      },
    });
    let pool = new Map<string, Tool>();
    let serial = 0;
    /** Each description carries a mark of its own: a search for it finds the tool only if that version is indexed. */
    let marks = 0;
    const fresh = (count: number) => {
      for (let i = 0; i < count; i++) {
        const name = `t${serial++}`;
        pool.set(`mcp__churn__${name}`, tool(name, `${name} reads ${random(50)} things mark${marks++}x`));
      }
    };
    fresh(300);
    sync.sync([...pool.values()]);
    const searches: Search[] = [];
    const touch = (name: string) => {
      for (const search of searches) if (!search.done) search.touchedAfter.add(name);
    };
    let longest = 0;
    const problems: string[] = [];
    let answered = 0;
    for (let round = 0; round < 3_000; round++) {
      // The pool changes between every two slices.
      const roll = random(100);
      const names = [...pool.keys()];
      if (roll < 2) {
        for (const name of names) touch(name);
        pool = new Map();
        const before = serial;
        fresh(300);
        for (let i = before; i < serial; i++) touch(`mcp__churn__t${i}`);
      } else if (roll < 60) {
        for (let i = 0; i < 5; i++) {
          const name = names[random(names.length)]!;
          pool.set(name, tool(name.slice("mcp__churn__".length), `reworded ${round} ${random(1_000)} things mark${marks++}x`));
          touch(name);
        }
      } else if (roll < 80) {
        const before = serial;
        fresh(3);
        for (let i = before; i < serial; i++) touch(`mcp__churn__t${i}`);
      } else if (pool.size > 50) {
        for (let i = 0; i < 3; i++) {
          const name = names[random(names.length)]!;
          pool.delete(name);
          touch(name);
        }
      }
      sync.sync([...pool.values()]);
      if (random(3) === 0) {
        const search: Search = { pool: new Map([...pool].map(([name, each]) => [name, each.description])), touchedAfter: new Set(), releases: 0, done: false };
        searches.push(search);
        sync.ready().then(
          () => {
            search.done = true;
            answered++;
            // What it waited for is served: every tool it saw that has not changed since, as it read then;
            // nothing it did not see, unless added since.
            const index = sync.index;
            for (const [name, description] of search.pool) {
              if (search.touchedAfter.has(name)) continue;
              const mark = /mark\d+x/.exec(description)![0];
              if (index.query(mark).matches[0]?.name !== name) problems.push(`${name} (${mark}) not served`);
            }
            for (const name of index.names()) if (!search.pool.has(name) && !search.touchedAfter.has(name)) problems.push(`${name} served, gone before the search`);
          },
          (error: unknown) => {
            search.done = true;
            search.error = error;
          },
        );
      }
      const next = parked.shift();
      next?.();
      await new Promise<void>((resolve) => setImmediate(resolve));
      for (const search of searches) if (!search.done) longest = Math.max(longest, ++search.releases);
      // Searches are dropped once answered (memory of the test, not of the daemon).
      for (let i = searches.length - 1; i >= 0; i--) if (searches[i]!.done) expect(searches[i]!.error).toBeUndefined();
      searches.splice(0, searches.length, ...searches.filter((search) => !search.done));
      // Never more than the served index and one build in memory: each index made is one build begun.
      expect(indexes).toBe(1 + sync.stats.freshBuilds);
    }
    // Finish: the pool stops; everything waiting is answered.
    while (parked.length > 0) {
      parked.shift()!();
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    expect(searches.filter((search) => !search.done)).toEqual([]);
    expect(problems).toEqual([]);
    expect(answered).toBeGreaterThan(900);
    expect([...sync.index.names()].sort()).toEqual([...pool.keys()].sort());
    // A 300-tool pool is ~15 slices of 20 tools; a search waits for at most a few builds' worth
    // (abandoned ones included), never for the churn to stop.
    expect(longest).toBeLessThan(15 * (MAX_ABANDONED_IN_A_ROW + 2) * 2);
    expect(sync.stats.freshBuilds).toBeGreaterThan(0);
  });
});
