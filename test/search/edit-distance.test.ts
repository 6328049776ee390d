import { describe, expect, test } from "bun:test";
import { boundedEditDistance, EditDistanceScratch } from "../../src/search/edit-distance.ts";

/** Plain optimal-string-alignment distance, the reference. */
function reference(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = value;
    }
  }
  return rows[a.length]![b.length]!;
}

describe("boundedEditDistance", () => {
  test("known cases", () => {
    expect(boundedEditDistance("kitten", "sitting", 5)).toBe(3);
    expect(boundedEditDistance("create_isue", "create_issue", 2)).toBe(1);
    expect(boundedEditDistance("ab", "ba", 2)).toBe(1);
    expect(boundedEditDistance("", "abc", 3)).toBe(3);
    expect(boundedEditDistance("same", "same", 0)).toBe(0);
    expect(boundedEditDistance("short", "a much longer string", 2)).toBe(3);
  });

  test("agrees with the reference wherever the distance is within the limit", () => {
    let state = 42;
    const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const word = () => Array.from({ length: Math.floor(next() * 9) }, () => "abcd"[Math.floor(next() * 4)]).join("");
    const scratch = new EditDistanceScratch();
    for (let round = 0; round < 3_000; round++) {
      const a = word();
      const b = word();
      const limit = Math.floor(next() * 4);
      const exact = reference(a, b);
      const bounded = boundedEditDistance(a, b, limit, scratch);
      expect(bounded).toBe(exact <= limit ? exact : limit + 1);
    }
  });
});
