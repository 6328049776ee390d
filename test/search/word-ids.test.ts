import { describe, expect, test } from "bun:test";
import { MAX_POOLED_CHARS, MISSING, StringIds, WordIds } from "../../src/search/string-ids.ts";

/**
 * WordIds (the tokenizer's word → term id table, characters pooled beside the buckets) answers as
 * StringIds folding case did, and as a Map of the lowercased words, whatever is added and looked up.
 */
describe("WordIds", () => {
  test("agrees with StringIds (folding case) and a Map model: lookups in place, A–Z folded, growth and emptying", () => {
    let seed = 3;
    const random = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
    const letters = "abcxyzABCXYZ019_-é";
    const word = () => Array.from({ length: random(9) }, () => letters[random(letters.length)]!).join("");
    const limit = 3000;
    const pooled = new WordIds(limit);
    const strings = new StringIds(limit, true);
    const model = new Map<string, number>();
    for (let i = 0; i < 20_000; i++) {
      const written = word();
      const text = `${word()} ${random(2) === 0 ? written : written.toUpperCase()} ${word()}`;
      const start = text.indexOf(" ") + 1;
      const end = start + written.length;
      // What the tables compare: the characters with A–Z lowercased, nothing else folded.
      const key = text.slice(start, end).replace(/[A-Z]/g, (c) => c.toLowerCase());
      const found = pooled.find(text, start, end);
      expect([text, found]).toEqual([text, strings.find(text, start, end)]);
      expect(found).toBe(model.get(key) ?? MISSING);
      if (found === MISSING) {
        if (model.size >= limit) model.clear();
        const id = random(1000) - 1;
        expect(pooled.set(key, id)).toBe(strings.set(key, id));
        model.set(key, id);
      }
      expect(pooled.size).toBe(model.size);
    }
  });

  test("a word longer than MAX_POOLED_CHARS is not kept: found missing, its id worked out again", () => {
    const table = new WordIds(10);
    const long = "x".repeat(MAX_POOLED_CHARS + 1);
    expect(table.set(long, 5)).toBe(false);
    expect(table.find(long, 0, long.length)).toBe(MISSING);
    expect(table.set("x".repeat(MAX_POOLED_CHARS), 6)).toBe(true);
    expect(table.find("X".repeat(MAX_POOLED_CHARS), 0, MAX_POOLED_CHARS)).toBe(6);
  });
});
