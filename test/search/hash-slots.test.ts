import { describe, expect, test } from "bun:test";
import { HashSlots, stringHash } from "../../src/search/hash-slots.ts";

function valuesOf(table: HashSlots, hash: number): number[] {
  const out: number[] = [];
  for (let at = table.find(hash); at >= 0; at = table.find(hash, at)) out.push(table.valueAt(at));
  return out;
}

describe("HashSlots", () => {
  test("keeps several values per hash, in the order added, through growth", () => {
    const table = new HashSlots();
    for (let i = 0; i < 1_000; i++) table.add(i % 7, i);
    expect(table.size).toBe(1_000);
    expect(valuesOf(table, 3)).toEqual(Array.from({ length: 1_000 }, (_, i) => i).filter((i) => i % 7 === 3));
    expect(valuesOf(table, 99)).toEqual([]);
  });

  test("agrees with a Map model under random adds and removes (colliding hashes, wrap-around)", () => {
    const table = new HashSlots();
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
        table.add(hash, value);
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
    const table = new HashSlots();
    table.add(stringHash("a"), 1);
    expect(table.remove(stringHash("a"), 2)).toBe(false);
    expect(table.remove(stringHash("b"), 1)).toBe(false);
    expect(valuesOf(table, stringHash("a"))).toEqual([1]);
    expect(() => table.add(1, -1)).toThrow(/≥ 0/);
  });
});
