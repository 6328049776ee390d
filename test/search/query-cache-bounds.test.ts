import { describe, expect, test } from "bun:test";
import { InvertedIndex } from "../../src/search/inverted-index.ts";
import { QueryCache } from "../../src/search/query-cache.ts";
import { MAX_QUERY_CHARS } from "../../src/search/query-parser.ts";
import { Tokenizer } from "../../src/search/tokenizer.ts";

/** A query of `chars` characters, different for each `seed`. */
function longQuery(seed: number, chars: number): string {
  const words: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    const word = `w${seed.toString(36)}x${i.toString(36)}`;
    words.push(word);
    length += word.length + 1;
  }
  return words.join(" ").slice(0, chars);
}

describe("query cache bounds", () => {
  test("a short query stays cached among hundreds of others (an entry is the same object when asked again)", () => {
    const cache = new QueryCache(new Tokenizer(new InvertedIndex()));
    const first = cache.get("send a slack message");
    for (let i = 0; i < 500; i++) cache.get(`find weather forecast number ${i}`);
    // Asked again, it moved to the newest end; 500 more short queries do not push it out either.
    expect(cache.get("send a slack message")).toBe(first);
  });

  test("long queries are held by their characters, not only by count: 200 of 4,096 characters push out what came before", () => {
    const cache = new QueryCache(new Tokenizer(new InvertedIndex()));
    const first = cache.get("send a slack message");
    const firstLong = cache.get(longQuery(0, MAX_QUERY_CHARS));
    for (let seed = 1; seed < 200; seed++) cache.get(longQuery(seed, MAX_QUERY_CHARS));
    // 200 × 4,096 characters is past the character budget (512K): the oldest entries went first.
    expect(cache.get("send a slack message")).not.toBe(first);
    expect(cache.get(longQuery(0, MAX_QUERY_CHARS))).not.toBe(firstLong);
    // The newest long queries are still held.
    const newest = longQuery(199, MAX_QUERY_CHARS);
    expect(cache.get(newest)).toBe(cache.get(newest));
  });

  test("a query longer than the parse reads is cut before it is kept (one entry for the text and its longer copy)", () => {
    const cache = new QueryCache(new Tokenizer(new InvertedIndex()));
    const text = longQuery(7, MAX_QUERY_CHARS);
    expect(cache.get(`${text} and more words past the cut`)).toBe(cache.get(text));
  });

  test("clear() empties the cache and its character count: a full budget's worth fits again", () => {
    const cache = new QueryCache(new Tokenizer(new InvertedIndex()));
    for (let seed = 0; seed < 150; seed++) cache.get(longQuery(seed, MAX_QUERY_CHARS));
    cache.clear();
    const held = Array.from({ length: 100 }, (_, seed) => cache.get(longQuery(1000 + seed, MAX_QUERY_CHARS)));
    // 100 × 4,096 = 400K characters: under the budget, all still cached.
    for (let seed = 0; seed < 100; seed++) expect(cache.get(longQuery(1000 + seed, MAX_QUERY_CHARS))).toBe(held[seed]!);
  });
});
