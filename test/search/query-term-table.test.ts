import { describe, expect, test } from "bun:test";
import { IdMap } from "../../src/search/id-map.ts";
import { QueryTermTable } from "../../src/search/query-term-table.ts";

describe("QueryTermTable: query term ids → position + 1", () => {
  test("agrees with a Map over random queries (ids sharing filter bits and home slots, tables that must grow), and clear forgets all", () => {
    const table = new QueryTermTable();
    let seed = 11;
    const random = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
    for (let round = 0; round < 200; round++) {
      const count = round % 50 === 0 ? 300 : 1 + random(64);
      const ids = new Set<number>();
      // Multiples of 2048 share a filter bit; a small range collides in the table.
      while (ids.size < count) ids.add(random(3) === 0 ? random(20) * 2048 : random(round % 2 === 0 ? 1000 : 1_000_000));
      const terms = [...ids].map((id) => ({ id }));
      const expected = new Map(terms.map((term, t) => [term.id, t + 1]));
      table.set(terms);
      for (const term of terms) {
        expect(table.mayHave(term.id)).toBe(true);
        expect(table.positionOf(term.id)).toBe(expected.get(term.id)!);
      }
      for (let probe = 0; probe < 200; probe++) {
        const id = random(3) === 0 ? random(40) * 2048 : random(1_000_000);
        expect(table.positionOf(id)).toBe(expected.get(id) ?? 0);
        if (!table.mayHave(id)) expect(expected.has(id)).toBe(false);
      }
      table.clear();
      for (const term of terms) expect(table.positionOf(term.id)).toBe(0);
      for (const term of terms) expect(table.mayHave(term.id)).toBe(false);
    }
  });
});

describe("IdMap: the small map behind it and prepareQuery's scratch", () => {
  test("agrees with a Map through growth, overwrites, zero values and clears", () => {
    const map = new IdMap();
    let seed = 5;
    const random = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
    for (let round = 0; round < 50; round++) {
      const model = new Map<number, number>();
      const count = round % 10 === 0 ? 2000 : random(100);
      for (let i = 0; i < count; i++) {
        const id = random(round % 2 === 0 ? 500 : 10_000_000);
        const value = random(4);
        map.set(id, value);
        model.set(id, value);
      }
      for (const [id, value] of model) expect(map.get(id)).toBe(value);
      for (let probe = 0; probe < 100; probe++) {
        const id = random(20_000_000);
        expect(map.get(id)).toBe(model.get(id) ?? 0);
      }
      map.clear();
      for (const id of model.keys()) expect(map.get(id)).toBe(0);
    }
  });
});

describe("IdMap under hostile ids", () => {
  test("ids that all share one home bucket at every table size stay exact (the overflow past MAX_PROBES), with honest ids between them", () => {
    // Ids whose multiplicative hash has twelve leading zero bits: home bucket 0 in every table up to 4,096 buckets.
    const crowd: number[] = [];
    for (let id = 0; crowd.length < 1500; id++) if (Math.imul(id, 0x9e3779b1) >>> 20 === 0) crowd.push(id);
    const map = new IdMap();
    for (let round = 0; round < 3; round++) {
      const model = new Map<number, number>();
      crowd.forEach((id, i) => {
        map.set(id, i + 1);
        model.set(id, i + 1);
        const honest = 50_000_000 + i * 7 + round;
        map.set(honest, 3);
        model.set(honest, 3);
      });
      // Overwrites reach the ids wherever they sit: near home, or in the overflow.
      for (let i = 0; i < crowd.length; i += 3) {
        map.set(crowd[i]!, 0);
        model.set(crowd[i]!, 0);
      }
      for (const [id, value] of model) expect(map.get(id)).toBe(value);
      for (let id = 1; id < 4000; id += 7) if (!model.has(id)) expect(map.get(id)).toBe(0);
      map.clear();
      for (const id of model.keys()) expect(map.get(id)).toBe(0);
    }
  });
});
