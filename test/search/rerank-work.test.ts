/**
 * Work the re-rank leaves out must not change what it answers: the description scan skipped for a
 * candidate that cannot reach the answer, the query's pairs kept in typed arrays, and the actions a
 * request contradicts worked out from its words' flags.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { documentFields } from "../../src/search/document-fields.ts";
import { InvertedIndex } from "../../src/search/inverted-index.ts";
import { actionCode, contradictedActions } from "../../src/search/opposite-actions.ts";
import { QueryTermTable } from "../../src/search/query-term-table.ts";
import { prepareQuery, QueryScratch, termFlags, TERM_ACTION_SHIFT, TERM_REVERSE, TERM_VALUE } from "../../src/search/query-terms.ts";
import { rankingOptions } from "../../src/search/ranking-options.ts";
import { MentionTerms } from "../../src/search/server-mention.ts";
import { SYNONYM_GROUPS, SynonymTable } from "../../src/search/synonyms.ts";
import { searchDocumentFromTool } from "../../src/search/tool-document.ts";
import { Tokenizer } from "../../src/search/tokenizer.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";

interface Catalog {
  server: string;
  tools: { name: string; description?: string; inputSchema?: unknown }[];
}

const data = join(import.meta.dir, "../../bench/data");
const catalogs = (JSON.parse(readFileSync(join(data, "real-servers.json"), "utf8")) as { servers: Catalog[] }).servers;
const requests = readFileSync(join(data, "real-requests.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => (JSON.parse(line) as { query: string }).query);

function realPool(ranking = {}): ToolSearchIndex {
  const index = new ToolSearchIndex({ ranking });
  for (const catalog of catalogs) {
    for (const tool of catalog.tools) {
      const name = `mcp__${catalog.server}__${tool.name}`;
      index.add(searchDocumentFromTool({ name, server: catalog.server, rawToolName: tool.name, description: tool.description ?? "", inputSchema: tool.inputSchema }));
    }
  }
  return index;
}

describe("the re-rank's skipped description scans", () => {
  test("the best k, names and scores, are the head of a re-rank that scans every candidate (k ≥ the candidates)", () => {
    // 100 candidates either way: asked for 100 results the re-rank has no candidate to leave out.
    // The name's tie-break reorders the first min(5, k): below five, only without it do heads compare.
    const pools: [ToolSearchIndex, number[]][] = [
      [realPool({ candidates: 100 }), [5, 10, 30]],
      [realPool({ candidates: 100, nameTieBreak: 0 }), [1, 2, 3, 5, 10]],
      // Knobs that make a factor negative reverse order: nothing may be left out then.
      [realPool({ candidates: 100, nameTieBreak: 0, unaskedReverse: -1, oppositeAction: -2 }), [1, 3, 10]],
      [realPool({ candidates: 100, nameTieBreak: 0, valueCoverage: -40 }), [1, 3, 10]],
    ];
    const words = requests.flatMap((request) => request.split(/\s+/));
    const made = Array.from({ length: 60 }, (_, i) => words.filter((_, w) => (w * 13 + i * 7) % 97 < 4).slice(0, 3 + (i % 9)).join(" "));
    let compared = 0;
    for (const [index, limits] of pools) {
      for (const query of [...requests, ...made]) {
        const full = index.query(query, { maxResults: 100 }).matches;
        for (const k of limits) {
          expect([query, k, index.query(query, { maxResults: k }).matches]).toEqual([query, k, full.slice(0, k)]);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });
});

describe("QueryTermTable's pairs", () => {
  test("phraseWeight is the weight of the distinct pairs found adjacent, in scan order; pairBound never below it", () => {
    const table = new QueryTermTable();
    let seed = 3;
    const random = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
    for (let round = 0; round < 300; round++) {
      const ids = new Set<number>();
      const count = 2 + random(round % 10 === 0 ? 45 : 12);
      while (ids.size < count) ids.add(random(5000));
      const terms = [...ids].map((id) => ({ id }));
      const weights = new Map<number, number>();
      for (let p = random(2 * count); p > 0; p--) {
        const first = random(count);
        const second = random(count);
        if (first !== second) weights.set(first * count + second, 0.1 + random(1000) / 100);
      }
      table.set(terms, [...weights.keys()], [...weights.values()]);
      expect(table.pairCount).toBe(weights.size);
      // A description of query terms and others; its bits say which query terms (position & 31) it has.
      const description = Array.from({ length: random(40) }, () => (random(3) === 0 ? random(5000) + 5000 : terms[random(count)]!.id));
      let bits = 0;
      for (const id of description) {
        const at = terms.findIndex((term) => term.id === id);
        if (at >= 0) bits |= 1 << (at & 31);
      }
      let expected = 0;
      const seen: number[] = [];
      for (let i = 0; i + 1 < description.length; i++) {
        const key = terms.findIndex((term) => term.id === description[i]) * count + terms.findIndex((term) => term.id === description[i + 1]);
        const weight = description[i]! < 5000 && description[i + 1]! < 5000 ? weights.get(key) : undefined;
        if (weight === undefined || seen.includes(key)) continue;
        seen.push(key);
        expected += weight;
      }
      const arena = Int32Array.from([7, ...description, 9]);
      expect(table.phraseWeight(arena, 1, 1 + description.length)).toBe(expected);
      // Twice: the pairs met are forgotten between scans.
      expect(table.phraseWeight(arena, 1, 1 + description.length)).toBe(expected);
      expect(table.pairBound(bits)).toBeGreaterThanOrEqual(expected);
      if (expected > 0) expect(table.pairBound(bits)).toBeGreaterThan(0);
      table.clear();
      expect(table.pairCount).toBe(0);
      expect(table.phraseWeight(arena, 1, 1 + description.length)).toBe(0);
    }
  });
});

describe("the actions a request contradicts", () => {
  test("prepareQuery's, from its words' flags, are contradictedActions' over its kept terms", () => {
    const index = new InvertedIndex();
    const tokenizer = new Tokenizer(index);
    const vocabulary = "create delete add remove open close mute unmute lock unlock start stop upload download read write issue file host note the list".split(" ");
    for (let i = 0; i < vocabulary.length; i++) {
      index.add(`tool_${i}`, documentFields({ name: `tool_${i}`, description: vocabulary.slice(i, i + 4).join(" ") }, tokenizer));
    }
    const texts = [
      ...requests,
      "create an issue",
      "create or delete a file",
      "mute the host",
      "unlock and lock the note then stop",
      "add note remove note add",
      "download the file and open it",
    ];
    for (const maxQueryTerms of [64, 2]) {
      const options = rankingOptions({ maxQueryTerms });
      for (const text of texts) {
        const terms = tokenizer.tokenize(text);
        for (const flags of [undefined, terms.map(termFlags)]) {
          const query = prepareQuery(index, { text: terms, textFlags: flags, required: [], given: [], valueParameters: [] }, options);
          const expected = contradictedActions(query.terms.map((term) => index.terms[term.id]!));
          expect([text, [...query.contradicted].sort()]).toEqual([text, [...expected].sort()]);
        }
      }
      // A +required word's action counts like a free word's.
      const required = prepareQuery(index, { text: tokenizer.tokenize("the note"), required: [tokenizer.tokenize("delete")], given: [], valueParameters: [] }, options);
      expect(required.contradicted).toEqual(contradictedActions(required.terms.map((term) => index.terms[term.id]!)));
    }
    expect(termFlags("delet") >>> TERM_ACTION_SHIFT).toBeGreaterThan(0);
    expect(termFlags("note") >>> TERM_ACTION_SHIFT).toBe(0);
  });
});

describe("MentionTerms: findMentions' tokenizer remembered per text", () => {
  test("answers as the tokenizer does, asks it once per text, and empties itself when full", () => {
    const tokenizer = new Tokenizer();
    let asked = 0;
    const terms = new MentionTerms((text) => {
      asked++;
      return tokenizer.tokenize(text);
    });
    const texts = ["GitHub", "github", "Google Calendar", "git-hub", "Azure DevOps Server", "ab"];
    for (const text of [...texts, ...texts]) expect(terms.of(text)).toEqual(tokenizer.tokenize(text));
    expect(asked).toBe(texts.length);
    for (let i = 0; i < 5000; i++) terms.of(`server${i}`);
    asked = 0;
    expect(terms.of("GitHub")).toEqual(["git", "hub"]);
    expect(asked).toBe(1);
  });
});

describe("termFlags: one lookup for the listed words", () => {
  test("relative times are values, action words carry their side, digits and 'reverse' as before", () => {
    const flags = (term: string) => termFlags(term);
    expect(flags("todai") & TERM_VALUE).toBe(TERM_VALUE);
    expect(flags("fridai") >>> TERM_ACTION_SHIFT).toBe(0);
    expect(flags("2024") & TERM_VALUE).toBe(TERM_VALUE);
    expect(flags("revers") & TERM_REVERSE).toBe(TERM_REVERSE);
    for (const term of ["creat", "delet", "mute", "unmut", "read", "write", "unfreez"]) {
      expect([term, flags(term)]).toEqual([term, actionCode(term) << TERM_ACTION_SHIFT]);
    }
    expect(flags("note")).toBe(0);
  });
});

describe("prepareQuery's reused scratch", () => {
  test("a scratch used query after query answers as a fresh one (terms, pairs, stand-ins, actions, caps)", () => {
    const index = new InvertedIndex();
    const tokenizer = new Tokenizer(index);
    const words = requests.flatMap((request) => request.split(/\s+/));
    for (let i = 0; i < 300; i++) {
      const text = words.filter((_, w) => (w * 7 + i * 11) % 53 < 5).slice(0, 12).join(" ");
      index.add(`tool_${i}`, documentFields({ name: `tool_${i}`, description: text }, tokenizer));
    }
    const synonyms = new SynonymTable();
    const standIns = (id: number) => synonyms.standInsOf(index, id);
    const shared = new QueryScratch();
    const copy = (query: ReturnType<typeof prepareQuery>) => JSON.parse(JSON.stringify(query)) as unknown;
    for (const maxQueryTerms of [64, 3]) {
      const options = rankingOptions({ maxQueryTerms });
      for (const text of [...requests, "delete the file then create it", "3 files today", ""]) {
        const tokens = { text: tokenizer.tokenize(text), required: text.includes("file") ? [tokenizer.tokenize("file")] : [], given: tokenizer.tokenize("file"), valueParameters: [] };
        const fresh = copy(prepareQuery(index, tokens, options, undefined, standIns));
        expect([text, copy(prepareQuery(index, tokens, options, shared, standIns))]).toEqual([text, fresh]);
      }
    }
  });
});

describe("SynonymTable's id filter", () => {
  test("every id answers as the groups say, ids 2,048 apart sharing a filter bit included", () => {
    const index = new InvertedIndex();
    const tokenizer = new Tokenizer(index);
    // Over 2,048 terms first, so the groups' words get ids whose filter bits other ids share.
    for (let i = 0; i < 2200; i += 40) index.add(`filler_${i}`, documentFields({ name: `filler_${i}`, description: Array.from({ length: 40 }, (_, w) => `w${(i + w).toString(36)}x`).join(" ") }, tokenizer));
    const groups = SYNONYM_GROUPS.slice(0, 30);
    index.add("words", documentFields({ name: "words", description: groups.flat().join(" ") }, tokenizer));
    const table = new SynonymTable(groups);
    const expected = new Map<number, number[]>();
    for (const group of groups) {
      const ids: number[] = [];
      for (const word of group) {
        const terms = tokenizer.tokenize(word);
        const id = terms.length === 1 ? index.termId(terms[0]!) : undefined;
        if (id !== undefined && !ids.includes(id)) ids.push(id);
      }
      for (const id of ids) {
        const list = expected.get(id) ?? [];
        for (const other of ids) if (other !== id && !list.includes(other) && list.length < 8) list.push(other);
        if (list.length > 0) expected.set(id, list);
      }
    }
    expect(expected.size).toBeGreaterThan(20);
    expect(index.terms.length).toBeGreaterThan(2048);
    for (let id = 0; id < index.terms.length; id++) expect([id, table.standInsOf(index, id)]).toEqual([id, expected.get(id)]);
  });
});
