import { describe, expect, test } from "bun:test";
import { WordTable, wordHash } from "../../src/search/word-table.ts";

/** Reading ahead (WordTable.warm) reports each word's home entry and changes no lookup. */
describe("WordTable.warm", () => {
  test("gives the entry in each word's home bucket (-1 when empty), and find answers as before", () => {
    const table = new WordTable<string>();
    const text = Array.from({ length: 600 }, (_, i) => `w${i}`).join(" ");
    const words: [number, number][] = [];
    for (let start = 0; start < text.length; ) {
      const end = text.indexOf(" ", start) < 0 ? text.length : text.indexOf(" ", start);
      words.push([start, end]);
      start = end + 1;
    }
    // Half the words kept, so some homes are empty and some hold another word (linear probing).
    words.forEach(([start, end], i) => {
      if (i % 2 === 0) table.add(text, start, end, wordHash(text, start, end), text.slice(start, end));
    });
    const hashes = Int32Array.from(words, ([start, end]) => wordHash(text, start, end));
    const before = words.map(([start, end], i) => table.find(text, start, end, hashes[i]!));
    const homes = new Int32Array(words.length);
    table.warm(hashes, words.length, homes);
    expect(words.map(([start, end], i) => table.find(text, start, end, hashes[i]!))).toEqual(before);
    // A kept word found in its home bucket is that entry; an absent word's home is empty or another word's.
    words.forEach(([start, end], i) => {
      const found = before[i]!;
      if (homes[i]! === found) return;
      expect(homes[i]! < 0 || table.valueAt(homes[i]!) !== text.slice(start, end)).toBe(true);
    });
    expect(before.filter((entry, i) => entry >= 0 && homes[i] === entry).length).toBeGreaterThan(250);
    expect([...homes].some((entry) => entry < 0)).toBe(true);
  });
});
