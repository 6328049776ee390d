import { describe, expect, test } from "bun:test";
import { Bm25fScorer } from "../../src/search/bm25f-scorer.ts";
import type { Impacts } from "../../src/search/impacts.ts";
import { IMPACT_ENTRY_BYTES, ImpactCache } from "../../src/search/impact-cache.ts";
import { rankingOptions } from "../../src/search/ranking-options.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import type { SearchDocument } from "../../src/search/types.ts";
import { InvertedIndex } from "../../src/search/inverted-index.ts";
import { FIELD_COUNT, FIELD_ID } from "../../src/search/fields.ts";

function impactsOf(entries: number, version = 0): Impacts {
  return { entries: new Int32Array(entries), values: new Float32Array(entries), length: entries, version, sorted: true, used: 0 };
}

/** Fields of a tool of `terms` (all in the description, the first also its name), interned in `index`. */
function fieldsIn(index: InvertedIndex): (terms: string[]) => number[][] {
  return (terms) => {
    const out: number[][] = Array.from({ length: FIELD_COUNT }, () => []);
    out[FIELD_ID.description] = terms.map((term) => index.intern(term));
    out[FIELD_ID.name] = [index.intern(terms[0]!)];
    return out;
  };
}

describe("ImpactCache", () => {
  test("keeps to its byte budget, dropping a term not used since the hand passed it first", () => {
    const cache = new ImpactCache(30 * IMPACT_ENTRY_BYTES);
    cache.set(1, impactsOf(10));
    cache.set(2, impactsOf(10));
    cache.set(3, impactsOf(10));
    expect(cache.bytes).toBe(30 * IMPACT_ENTRY_BYTES);
    expect(cache.get(1)).toBeDefined(); // 1 is now the most recently used; 2 the least
    cache.set(4, impactsOf(10));
    expect(cache.get(2)).toBeUndefined();
    expect(cache.get(1)).toBeDefined();
    expect(cache.get(3)).toBeDefined();
    expect(cache.get(4)).toBeDefined();
    expect(cache.size).toBe(3);
    expect(cache.bytes).toBeLessThanOrEqual(cache.budgetBytes);
  });

  test("peek reads a term without making it recently used (the re-rank's second read)", () => {
    const cache = new ImpactCache(20 * IMPACT_ENTRY_BYTES);
    cache.set(1, impactsOf(10));
    cache.set(2, impactsOf(10));
    expect(cache.peek(1)?.length).toBe(10); // 1 stays the least recently used
    expect(cache.peek(5)).toBeUndefined();
    cache.set(3, impactsOf(10));
    expect(cache.peek(1)).toBeUndefined();
    expect(cache.peek(2)).toBeDefined();
    expect(cache.get(2)).toBeDefined(); // now 3 is the least recently used
    cache.set(4, impactsOf(10));
    expect(cache.peek(3)).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  test("keeps a term larger than the whole budget, alone", () => {
    const cache = new ImpactCache(5 * IMPACT_ENTRY_BYTES);
    cache.set(7, impactsOf(2));
    cache.set(8, impactsOf(100));
    expect(cache.get(7)).toBeUndefined();
    expect(cache.get(8)?.length).toBe(100);
    expect(cache.size).toBe(1);
    cache.set(9, impactsOf(1));
    expect(cache.get(8)).toBeUndefined();
    expect(cache.bytes).toBe(IMPACT_ENTRY_BYTES);
  });

  test("re-setting a term (an in-place refresh) neither double-counts it nor drops it", () => {
    const cache = new ImpactCache(20 * IMPACT_ENTRY_BYTES);
    const stale = impactsOf(10);
    cache.set(1, stale);
    cache.set(2, impactsOf(10));
    stale.version = 1;
    cache.set(1, stale);
    expect(cache.bytes).toBe(20 * IMPACT_ENTRY_BYTES);
    expect(cache.size).toBe(2);
    cache.set(3, impactsOf(10)); // 2 is now the least recently used
    expect(cache.get(2)).toBeUndefined();
    expect(cache.get(1)).toBe(stale);
  });

  test("every term marked as used: the hand clears the marks and still drops one, within the budget", () => {
    const cache = new ImpactCache(40 * IMPACT_ENTRY_BYTES);
    for (let id = 0; id < 4; id++) cache.set(id, impactsOf(10));
    for (let id = 0; id < 4; id++) expect(cache.get(id)).toBeDefined();
    cache.set(9, impactsOf(10));
    expect(cache.size).toBe(4);
    expect(cache.bytes).toBe(40 * IMPACT_ENTRY_BYTES);
    expect(cache.peek(9)).toBeDefined();
  });

  test("a term used again outlives a stream of terms asked once", () => {
    const cache = new ImpactCache(30 * IMPACT_ENTRY_BYTES);
    cache.set(1, impactsOf(10));
    for (let id = 100; id < 200; id++) {
      expect(cache.get(1)).toBeDefined();
      cache.set(id, impactsOf(10));
      expect(cache.bytes).toBeLessThanOrEqual(cache.budgetBytes);
    }
    expect(cache.size).toBe(3);
    expect(cache.peek(199)).toBeDefined();
  });

  test("rejects a budget that is not a byte count", () => {
    expect(() => new ImpactCache(-1)).toThrow(/byte count/);
    expect(() => new ImpactCache(Number.NaN)).toThrow(/byte count/);
  });
});

/** A deterministic pool over a small vocabulary, so terms are shared by many tools (long posting lists). */
function syntheticPool(count: number): SearchDocument[] {
  const words = ["weather", "city", "forecast", "issue", "repository", "label", "file", "read", "write", "search", "user", "email", "send", "calendar", "event", "price", "stock", "convert", "currency", "image", "resize", "translate", "text", "route", "distance"];
  let seed = 12345;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % words.length;
  return Array.from({ length: count }, (_, i) => ({
    name: `tool_${i}_${words[next()]}_${words[next()]}`,
    server: `server${i % 17}`,
    description: Array.from({ length: 6 + (i % 11) }, () => words[next()]).join(" "),
    parameters: [{ name: words[next()]!, description: `the ${words[next()]} to ${words[next()]}` }],
  }));
}

const QUERIES = ["weather forecast for a city", "send an email to a user", "resize image", "stock price in a currency", "route distance", "search repository issues by label", "translate text", "calendar event", "read file", "convert currency"];

describe("impacts under a byte budget", () => {
  test("evicted, then worked out again, the impacts are the same, and so are the rankings", () => {
    const pool = syntheticPool(1_500);
    const roomy = new ToolSearchIndex();
    const tight = new ToolSearchIndex({ impactBudgetBytes: 0 });
    for (const doc of pool) {
      roomy.add(doc);
      tight.add(doc);
    }
    const rankings = (index: ToolSearchIndex) => QUERIES.map((text) => index.query(text, { maxResults: 20 }).matches);
    for (let pass = 0; pass < 2; pass++) {
      expect(rankings(tight)).toEqual(rankings(roomy));
      // An index change makes every cached term stale: refreshed (in place or anew), still the same.
      for (const index of [roomy, tight]) {
        index.remove(pool[pass * 3]!.name);
        index.add({ ...pool[pass * 3 + 1]!, name: `again_${pass}`, description: "weather stock route" });
      }
    }
    expect(rankings(tight)).toEqual(rankings(roomy));
  });

  test("a scorer with no room keeps one term, and recomputes dropped ones identically", () => {
    const index = new InvertedIndex();
    const fields = fieldsIn(index);
    for (let i = 0; i < 300; i++) index.add(`t${i}`, fields(["alpha", i % 2 === 0 ? "beta" : "gamma", "alpha", `own${i % 7}`]));
    const scorer = new Bm25fScorer(rankingOptions(), 0);
    const snapshot = (impacts: Impacts) => ({ entries: [...impacts.entries.subarray(0, impacts.length)], values: [...impacts.values.subarray(0, impacts.length)] });
    const alpha = index.termId("alpha")!;
    const beta = index.termId("beta")!;
    const first = scorer.impacts(index, alpha);
    const before = snapshot(first);
    expect(first.length).toBe(300);
    expect(first.entries.length).toBe(300); // exact length, not the postings' (two fields per tool)
    scorer.impacts(index, beta);
    expect(scorer.impactCache.size).toBe(1);
    expect(snapshot(first)).toEqual(before); // a dropped entry is not recycled under its holder
    const again = scorer.impacts(index, alpha);
    expect(again).not.toBe(first);
    expect(snapshot(again)).toEqual(before);
  });
});

/**
 * The impact cache's byte count is what its entries' arrays take, whatever the index went through:
 * a term's impacts refreshed in place after tools with it left are cut to their new length
 * (impact-maker.ts), and the count must follow, or it drifts up until the cache keeps one term.
 */
describe("impact cache bytes under churn", () => {
  test("equal the cached arrays' size after in-place refreshes that shrink a term's list", () => {
    const index = new InvertedIndex();
    const fields = fieldsIn(index);
    let serial = 0;
    const slots: number[] = [];
    for (let i = 0; i < 400; i++) slots.push(index.add(`t${serial++}`, fields(["alpha", i % 2 === 0 ? "beta" : "gamma"])));
    const scorer = new Bm25fScorer(rankingOptions());
    const ids = ["alpha", "beta", "gamma"].map((term) => index.termId(term)!);
    const actual = () => ids.reduce((sum, id) => sum + (scorer.impactCache.peek(id)?.entries.length ?? 0) * IMPACT_ENTRY_BYTES, 0);
    for (const id of ids) scorer.impacts(index, id);
    expect(scorer.impactCache.bytes).toBe(actual());
    // Tools leave in rounds (each term's list shrinks: refreshed in place, cut shorter), some come back.
    for (let round = 0; round < 30; round++) {
      for (let k = 0; k < 10 && slots.length > 20; k++) index.remove(slots.splice((round * 7 + k * 13) % slots.length, 1)[0]!);
      if (round % 3 === 0) for (let k = 0; k < 5; k++) slots.push(index.add(`t${serial++}`, fields(["alpha", k % 2 === 0 ? "beta" : "gamma"])));
      for (const id of ids) {
        const impacts = scorer.impacts(index, id);
        expect(impacts.entries.length).toBe(impacts.length);
      }
      expect({ round, bytes: scorer.impactCache.bytes }).toEqual({ round, bytes: actual() });
    }
    expect(scorer.impactCache.size).toBe(3);
  });
});
