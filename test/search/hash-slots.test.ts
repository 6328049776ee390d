import { describe, expect, test } from "bun:test";
import { HashSlots, MAX_PROBES, stringHash } from "../../src/search/hash-slots.ts";

/** The values of `hash` under `key`: the buckets' (confirmed by key, as callers do), then those kept off them. */
function valuesOf(table: HashSlots, hash: number, keyOf: (value: number) => string = (value) => keyOfHash.get(value)!, key = `k${hash}`): number[] {
  const out: number[] = [];
  for (let at = table.find(hash); at >= 0; at = table.find(hash, at)) if (keyOf(table.valueAt(at)) === key) out.push(table.valueAt(at));
  return [...out, ...table.spilled(hash, key)];
}

/** Tests whose key is "the hash": value → `k<hash>`. */
const keyOfHash = new Map<number, string>();
function tableByHash(): HashSlots {
  keyOfHash.clear();
  return new HashSlots((value) => keyOfHash.get(value)!);
}
function addByHash(table: HashSlots, hash: number, value: number): void {
  keyOfHash.set(value, `k${hash}`);
  table.add(hash, value);
}

describe("HashSlots", () => {
  test("keeps several values per hash, in the order added, through growth", () => {
    const table = tableByHash();
    for (let i = 0; i < 1_000; i++) addByHash(table, i % 7, i);
    expect(table.size).toBe(1_000);
    expect(valuesOf(table, 3)).toEqual(Array.from({ length: 1_000 }, (_, i) => i).filter((i) => i % 7 === 3));
    expect(valuesOf(table, 99)).toEqual([]);
  });

  test("agrees with a Map model under random adds and removes (colliding hashes, wrap-around)", () => {
    const table = tableByHash();
    const model = new Map<number, number[]>();
    let seed = 7;
    const random = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
    for (let step = 0; step < 20_000; step++) {
      const hash = random(40) - 20; // few hashes, negative ones too: long probe chains
      const list = model.get(hash) ?? [];
      if (random(3) === 0 && list.length > 0) {
        const value = list[random(list.length)]!;
        expect(table.remove(hash, value)).toBe(true);
        list.splice(list.indexOf(value), 1);
      } else {
        const value = step;
        addByHash(table, hash, value);
        list.push(value);
      }
      model.set(hash, list);
      if (step % 997 === 0) for (const [h, values] of model) expect(valuesOf(table, h)).toEqual(values);
    }
    for (const [h, values] of model) expect(valuesOf(table, h)).toEqual(values);
    expect(table.size).toBe([...model.values()].reduce((sum, values) => sum + values.length, 0));
    expect([...table.allValues()].sort((a, b) => a - b)).toEqual([...model.values()].flat().sort((a, b) => a - b));
  });

  test("removing an absent entry is false and changes nothing; values must be ≥ 0", () => {
    const table = tableByHash();
    addByHash(table, stringHash("a"), 1);
    expect(table.remove(stringHash("a"), 2)).toBe(false);
    expect(table.remove(stringHash("b"), 1)).toBe(false);
    expect(valuesOf(table, stringHash("a"))).toEqual([1]);
    expect(table.spilledCount).toBe(0);
    expect(() => table.add(1, -1)).toThrow(/≥ 0/);
  });

  test("a flood of one hash fills at most MAX_PROBES buckets; the rest are kept exactly, by key, in order", () => {
    const keys = Array.from({ length: 5_000 }, (_, i) => `name${i}`);
    const table = new HashSlots((value) => keys[value]!);
    const hash = stringHash("anything");
    // Five values per key (names shared across servers, say), added round-robin.
    const perKey = (key: number) => [0, 1, 2, 3, 4].map((round) => round * 1_000 + key);
    for (let round = 0; round < 5; round++) for (let key = 0; key < 1_000; key++) {
      keys[round * 1_000 + key] = `name${key}`;
      table.add(hash, round * 1_000 + key);
    }
    let inBuckets = 0;
    for (let at = table.find(hash); at >= 0; at = table.find(hash, at)) inBuckets++;
    expect(inBuckets).toBe(MAX_PROBES);
    expect(table.size).toBe(5_000);
    expect(table.spilledCount).toBe(5_000 - MAX_PROBES);
    const keyOf = (value: number) => keys[value]!;
    for (const key of [0, 1, 31, 32, 999]) expect(valuesOf(table, hash, keyOf, `name${key}`)).toEqual(perKey(key));
    // Removing from the buckets and from the spill; a value never added is refused.
    for (const value of [0, 1, 2_031, 4_999]) expect(table.remove(hash, value)).toBe(true);
    expect(table.remove(hash, 0)).toBe(false);
    expect(valuesOf(table, hash, keyOf, "name0")).toEqual([1_000, 2_000, 3_000, 4_000]);
    expect(valuesOf(table, hash, keyOf, "name31")).toEqual([31, 1_031, 3_031, 4_031]);
    expect(valuesOf(table, hash, keyOf, "name999")).toEqual([999, 1_999, 2_999, 3_999]);
    expect(table.size).toBe(4_996);
    expect(new Set(table.allValues()).size).toBe(4_996);
    // An honest hash beside the flood still has a bucket of its own.
    keys[6_000] = "weather";
    table.add(stringHash("weather"), 6_000);
    expect(valuesOf(table, stringHash("weather"), keyOf, "weather")).toEqual([6_000]);
    expect(table.spilledCount).toBe(5_000 - MAX_PROBES - 2);
  });

  test("values of a key spilled before growth keep their order after it", () => {
    const keyOf = (value: number) => `k${value % 3}`;
    const table = new HashSlots(keyOf);
    // Grows many times while the spill holds most values; each key's values stay in the order added.
    for (let value = 0; value < 3_000; value++) table.add(42, value);
    for (const key of [0, 1, 2]) {
      expect(valuesOf(table, 42, keyOf, `k${key}`)).toEqual(Array.from({ length: 1_000 }, (_, i) => i * 3 + key));
    }
  });
});
