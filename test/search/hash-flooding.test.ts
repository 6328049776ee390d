/**
 * Hash flooding: words crafted offline against the fixed-seed FNV-1a of the search's own tables
 * (test/helpers/fnv-collisions.ts). A server's tool texts and a query's words are written by
 * whoever controls the server or the page the model read; neither may make a table walk a run
 * as long as the words it was given.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { MAX_PROBES as STRING_IDS_PROBES, MISSING, StringIds, WordIds } from "../../src/search/string-ids.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import { MAX_PROBES as WORD_TABLE_PROBES, WordTable, wordHash } from "../../src/search/word-table.ts";
import { fullCollisions, lowBitCollisions } from "../helpers/fnv-collisions.ts";

// The ceilings below are ones only the quadratic behaviour breaks (32k crafted words took ~60 s to index).
setDefaultTimeout(30_000);

describe("StringIds under one 32-bit hash", () => {
  test("keeps at most MAX_PROBES of the colliding keys; the rest are misses, not a longer walk", () => {
    const words = fullCollisions(12);
    for (const foldCase of [true, false]) {
      const table = new StringIds(1_000_000, foldCase);
      const kept = words.map((word, id) => table.set(word, id));
      const keptCount = kept.filter(Boolean).length;
      expect(keptCount).toBeGreaterThan(0);
      expect(keptCount).toBeLessThanOrEqual(STRING_IDS_PROBES);
      expect(table.size).toBe(keptCount);
      // Whatever is kept is found with its own value; nothing else is found, in place or folded.
      words.forEach((word, id) => {
        expect(table.find(` ${word} `, 1, word.length + 1)).toBe(kept[id] ? id : MISSING);
      });
      if (foldCase) expect(table.find(words[kept.indexOf(true)]!.toUpperCase(), 0, words[0]!.length)).toBe(kept.indexOf(true));
    }
  });

  test("an honest key is still kept beside a flooded run", () => {
    const table = new StringIds(1_000_000, true);
    for (const [id, word] of fullCollisions(10).entries()) table.set(word, id);
    expect(table.set("weather", 7)).toBe(true);
    expect(table.find("get weather", 4, 11)).toBe(7);
  });
});

describe("WordIds under one 32-bit hash", () => {
  test("keeps at most MAX_PROBES of the colliding words; the rest are misses, and an honest word is still kept", () => {
    // Nine stages: 512 words of 63 letters (WordIds keeps words of up to MAX_POOLED_CHARS).
    const words = fullCollisions(9);
    const table = new WordIds(1_000_000);
    const kept = words.map((word, id) => table.set(word, id));
    const keptCount = kept.filter(Boolean).length;
    expect(keptCount).toBeGreaterThan(0);
    expect(keptCount).toBeLessThanOrEqual(STRING_IDS_PROBES);
    expect(table.size).toBe(keptCount);
    words.forEach((word, id) => expect(table.find(` ${word.toUpperCase()} `, 1, word.length + 1)).toBe(kept[id] ? id : MISSING));
    expect(table.set("weather", 7)).toBe(true);
    expect(table.find("get Weather", 4, 11)).toBe(7);
  });
});

describe("WordTable under one home bucket", () => {
  test("words sharing their hash's low 15 bits fill at most MAX_PROBES buckets", () => {
    const words = lowBitCollisions(14);
    const table = new WordTable<number>();
    const entries = words.map((word, value) => table.add(word, 0, word.length, wordHash(word, 0, word.length), value));
    expect(entries.filter((entry) => entry >= 0).length).toBe(table.size);
    expect(table.size).toBeLessThanOrEqual(WORD_TABLE_PROBES);
    words.forEach((word, value) => {
      expect(table.get(word, 0, word.length, wordHash(word, 0, word.length))).toBe(entries[value]! >= 0 ? value : undefined);
    });
  });
});

describe("ToolSearchIndex fed crafted words", () => {
  test("a server whose descriptions carry 32k words of one hash is indexed in linear time, and every word still finds its tool", () => {
    const words = fullCollisions(15);
    const perTool = 33;
    const docs = Array.from({ length: Math.ceil(words.length / perTool) }, (_, tool) => ({
      name: `mcp__evil__t${tool}`,
      server: "evil",
      rawToolName: `t${tool}`,
      description: words.slice(tool * perTool, (tool + 1) * perTool).join(" "),
    }));
    const index = new ToolSearchIndex();
    const started = performance.now();
    for (const doc of docs) index.add(doc);
    const sample = [0, 1, 4_097, 20_000, words.length - 1];
    const found = sample.map((at) => index.query(words[at]!).matches?.[0]?.name);
    const elapsedMs = performance.now() - started;
    expect(found).toEqual(sample.map((at) => `mcp__evil__t${Math.floor(at / perTool)}`));
    // Random words of the same length take ~0.3 s on a loaded 2-core machine; the old walk ~60 s.
    expect(elapsedMs).toBeLessThan(15_000);
  });

  test("queries of 16k words sharing a home bucket still find their tools (and no honest one is lost)", () => {
    const words = lowBitCollisions(14);
    const index = new ToolSearchIndex();
    for (let tool = 0; tool < 64; tool++) {
      index.add({ name: `mcp__evil__q${tool}`, server: "evil", rawToolName: `q${tool}`, description: words.slice(tool * 256, tool * 256 + 256).join(" ") });
    }
    index.add({ name: "mcp__weather__get_forecast", server: "weather", rawToolName: "get_forecast", description: "Weather forecast for a city." });
    const perQuery = Math.floor(4096 / (words[0]!.length + 1));
    const started = performance.now();
    for (let at = 0; at + perQuery <= words.length; at += perQuery) index.query(words.slice(at, at + perQuery).join(" "));
    const floodMs = performance.now() - started;
    expect(index.query(words[5_000]!).matches?.[0]?.name).toBe(`mcp__evil__q${Math.floor(5_000 / 256)}`);
    expect(index.query("weather forecast for berlin").matches?.[0]?.name).toBe("mcp__weather__get_forecast");
    // ~0.1 s of queries; walking a 16k-entry run for each new word took ~1.3 s and grew with the run.
    expect(floodMs).toBeLessThan(10_000);
  });
});
