import { describe, expect, test } from "bun:test";
import { WordTable, wordHash } from "../../src/search/word-table.ts";

/** The arrays a WordTable keeps its words in (read for the test only). */
const arraysOf = (table: WordTable<number>) => {
  const inside = table as unknown as { buckets: Int32Array; records: Int32Array };
  return [inside.buckets, inside.records, table.numbers];
};

describe("WordTable growth", () => {
  test("outgrowing its first 512 words, it grows once, to room for every word it may hold", () => {
    const table = new WordTable<number>();
    const add = (i: number) => {
      const word = `w${i}`;
      return table.add(word, 0, word.length, wordHash(word, 0, word.length), i);
    };
    for (let i = 0; i < 511; i++) add(i);
    const small = arraysOf(table);
    for (let i = 511; i < 600; i++) add(i);
    const grown = arraysOf(table);
    expect(grown.map((array, i) => array === small[i])).toEqual([false, false, false]);
    // No further rehash or copy up to the bound (1 << 14 words), where the table empties itself.
    for (let i = 600; i < (1 << 14); i++) expect(add(i)).toBeGreaterThanOrEqual(0);
    expect(arraysOf(table).map((array, i) => array === grown[i])).toEqual([true, true, true]);
    expect(table.size).toBe(1 << 14);
    for (const i of [0, 511, 600, (1 << 14) - 1]) expect(table.get(`w${i}`, 0, `w${i}`.length, wordHash(`w${i}`, 0, `w${i}`.length))).toBe(i);
    // Emptied, it keeps its room.
    add(1 << 14);
    expect(table.size).toBe(1);
    expect(arraysOf(table).map((array, i) => array === grown[i])).toEqual([true, true, true]);
  });
});
