import { describe, expect, test } from "bun:test";
import { Bm25fScorer } from "../../src/search/bm25f-scorer.ts";
import { IMPACT_ENTRY_BYTES } from "../../src/search/impact-cache.ts";
import { rankingOptions } from "../../src/search/ranking-options.ts";
import { InvertedIndex } from "../../src/search/inverted-index.ts";
import { FIELD_COUNT, FIELD_ID } from "../../src/search/fields.ts";

/**
 * The impact cache's byte count is what its entries' arrays take, whatever the index went through:
 * a term's impacts refreshed in place after tools with it left are cut to their new length
 * (impact-maker.ts), and the count must follow, or it drifts up until the cache keeps one term.
 */
describe("impact cache bytes under churn", () => {
  test("equal the cached arrays' size after in-place refreshes that shrink a term's list", () => {
    const index = new InvertedIndex();
    const fields = (terms: string[]) => {
      const out: number[][] = Array.from({ length: FIELD_COUNT }, () => []);
      out[FIELD_ID.description] = terms.map((term) => index.intern(term));
      out[FIELD_ID.name] = [index.intern(terms[0]!)];
      return out;
    };
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
