import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MAX_LEARNED_TOOLS, toolsToLearn } from "../../src/search/learned-tools.ts";
import { InvertedIndex } from "../../src/search/inverted-index.ts";
import { AHEAD_WORDS, QueryWords, type WordFacts } from "../../src/search/query-words.ts";
import { searchDocumentFromTool } from "../../src/search/tool-document.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import { Tokenizer } from "../../src/search/tokenizer.ts";
import type { SearchDocument } from "../../src/search/types.ts";
import { MAX_WORD_CHARS, WordTable, wordHash } from "../../src/search/word-table.ts";
import { plainWordShape } from "../../src/search/plain-word-shape.ts";

/**
 * The pool's words learned ahead of use (ToolSearchIndex.learnWords, run by the daemon's warm-up
 * after its queries): a learned word's facts are what a query holding it would work out, so no
 * answer may differ from an index that never learned; the learning is bounded to its share of the
 * query word table and leaves the rest to queries.
 */
const data = join(import.meta.dir, "../../bench/data");
interface Catalog {
  server: string;
  tools: { name: string; description?: string; inputSchema?: unknown }[];
}
const catalogs = (JSON.parse(readFileSync(join(data, "real-servers.json"), "utf8")) as { servers: Catalog[] }).servers;
const docs: SearchDocument[] = catalogs.flatMap((catalog) =>
  catalog.tools.map((tool) => searchDocumentFromTool({ name: `mcp__${catalog.server}__${tool.name}`, description: tool.description ?? "", inputSchema: tool.inputSchema, server: catalog.server })),
);
const requests = readFileSync(join(data, "real-requests.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => (JSON.parse(line) as { query: string }).query);

/** Queries made of the pool's own text: descriptions' stretches, their words reordered, with syntax and odd spacing. */
function poolQueries(): string[] {
  const queries: string[] = [];
  docs.forEach((doc, i) => {
    const words = doc.description.split(/\s+/).filter(Boolean);
    if (words.length === 0) return;
    const from = i % Math.max(1, words.length - 3);
    queries.push(words.slice(from, from + 3 + (i % 9)).join(" "));
    if (i % 5 === 0) queries.push(`${words.at(-1)}  ${words[0]}\t+${words[1] ?? "x"} this ${words[2] ?? "y"}`);
    const parameter = doc.parameters?.find((each) => each.description !== undefined);
    if (i % 3 === 0 && parameter !== undefined) queries.push(`${parameter.description} for my ${doc.name.split("__").at(-1)}`);
  });
  return queries;
}

/** A tokenizer whose dictionary met the pool's texts, as an index's has. */
function tokenizer(): Tokenizer {
  const made = new Tokenizer(new InvertedIndex());
  for (const doc of docs) for (const text of [doc.description, ...(doc.parameters ?? []).map((each) => each.description ?? "")]) made.tokenizeToIds(text);
  return made;
}

const facts = (words: QueryWords, word: string): WordFacts => words.of(word, 0, word.length);

describe("the pool's words learned ahead of use", () => {
  test("answers (names and scores) equal an index's that never learned, on the real servers' requests and pool-made queries", () => {
    const learned = new ToolSearchIndex();
    const plain = new ToolSearchIndex();
    for (const doc of docs) {
      learned.add(doc);
      plain.add(doc);
    }
    for (const doc of docs) expect(learned.learnWords(doc)).toBe(true);
    const queries = [...requests, ...poolQueries()];
    expect(queries.length).toBeGreaterThan(300);
    for (const query of queries) {
      const got = learned.query(query, { maxResults: 10 });
      const want = plain.query(query, { maxResults: 10 });
      if (!Bun.deepEquals(got, want)) expect({ query, got }).toEqual({ query, got: want });
    }
    // And after the pool grew (new terms: the learned words' ids are refreshed as any held word's).
    const more: SearchDocument[] = [
      { name: "mcp__zeta__fetch_widgets", server: "zeta", description: "Fetches widgets and gizmos from the zeta warehouse by serial." },
      { name: "mcp__zeta__issues", server: "zeta", description: "Lists issues, pull requests and comments of a repository." },
    ];
    for (const doc of more) {
      learned.add(doc);
      plain.add(doc);
    }
    for (const query of [...queries.slice(0, 200), "fetch widgets from the warehouse", "zeta gizmos by serial"]) {
      learned.clearQueryCache();
      expect(learned.query(query, { maxResults: 10 })).toEqual(plain.query(query, { maxResults: 10 }));
    }
  });

  test("a learned word's facts equal those a query works out, field by field; only plain words are learned", () => {
    const shared = tokenizer();
    const ahead = new QueryWords(shared);
    const texts = docs.flatMap((doc) => [doc.description, ...(doc.parameters ?? []).map((each) => each.description ?? "")]);
    const words = [...new Set(texts.flatMap((text) => text.split(/\s+/).filter(Boolean)))];
    for (const text of texts) for (const word of text.split(/\s+/).filter(Boolean)) ahead.learn(word, 0, word.length);
    const table = (ahead as unknown as { table: WordTable<WordFacts> }).table;
    const learned = table.size;
    let plainWords = 0;
    for (const word of words) {
      const kept = table.get(word, 0, word.length, wordHash(word, 0, word.length));
      const fresh = facts(new QueryWords(shared), word);
      // Not learned: a word of another shape (a query works it out), or longer than the table keeps.
      expect(kept === undefined).toBe(plainWordShape(word) < 0 || word.length > MAX_WORD_CHARS);
      if (kept === undefined) continue;
      plainWords++;
      expect(kept).toEqual(fresh);
      // A query meets the learned object itself.
      expect(facts(ahead, word)).toBe(kept);
    }
    expect(plainWords).toBe(learned);
    expect(plainWords).toBeGreaterThan(words.length / 2);
    expect(plainWords).toBeLessThan(words.length);
  });

  test("bounded: learning stops at its share of the table, and the words queries bring are still kept", () => {
    const words = new QueryWords(tokenizer());
    const table = (words as unknown as { table: WordTable<WordFacts> }).table;
    let i = 0;
    for (; i < AHEAD_WORDS; i++) expect(words.learn(`w${i}`, 0, `w${i}`.length)).toBe(true);
    expect(table.size).toBe(AHEAD_WORDS);
    expect(words.learn("another", 0, 7)).toBe(false);
    expect(table.get("another", 0, 7, wordHash("another", 0, 7))).toBeUndefined();
    // A query's words go on being kept, learned ones with them, until the table's own bound.
    for (let q = 0; q < 1000; q++) facts(words, `q${q}`);
    expect(table.size).toBe(AHEAD_WORDS + 1000);
    expect(table.get("w0", 0, 2, wordHash("w0", 0, 2))).toBe(facts(words, "w0"));
    // A long text is cut where a query would be, and stops at the first word past the share.
    const index = new ToolSearchIndex();
    index.add({ name: "a", description: "alpha beta" });
    expect(index.learnWords({ name: "a", description: `${"word ".repeat(5000)}` })).toBe(true);
  });

  test("the tools whose words are learned: all of a pool up to the bound, past it that many at an even stride", () => {
    const tools = Array.from({ length: 20_000 }, (_, i) => i);
    expect(toolsToLearn(tools.slice(0, MAX_LEARNED_TOOLS))).toEqual(tools.slice(0, MAX_LEARNED_TOOLS));
    const picked = toolsToLearn(tools);
    expect(picked).toHaveLength(MAX_LEARNED_TOOLS);
    expect(new Set(picked).size).toBe(MAX_LEARNED_TOOLS);
    expect(picked[0]).toBe(0);
    expect(picked.at(-1)!).toBeGreaterThanOrEqual(20_000 - Math.ceil(20_000 / MAX_LEARNED_TOOLS));
    // Even: no gap between two picked tools is wider than the stride rounded up.
    for (let i = 1; i < picked.length; i++) expect(picked[i]! - picked[i - 1]!).toBeLessThanOrEqual(Math.ceil(20_000 / MAX_LEARNED_TOOLS));
  });

  test("a word table's bound is a power of two of at least 512, and it empties itself there", () => {
    expect(() => new WordTable<number>(1000)).toThrow();
    expect(() => new WordTable<number>(256)).toThrow();
    const table = new WordTable<number>(1024);
    for (let i = 0; i < 1024; i++) expect(table.add(`w${i}`, 0, `w${i}`.length, wordHash(`w${i}`, 0, `w${i}`.length), i)).toBeGreaterThanOrEqual(0);
    expect(table.size).toBe(1024);
    table.add("next", 0, 4, wordHash("next", 0, 4), -1);
    expect(table.size).toBe(1);
    expect(table.get("w3", 0, 2, wordHash("w3", 0, 2))).toBeUndefined();
  });
});
