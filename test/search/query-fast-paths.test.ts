import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Bm25fScorer } from "../../src/search/bm25f-scorer.ts";
import { CandidateFacts } from "../../src/search/candidate-facts.ts";
import * as charClass from "../../src/search/char-class.ts";
import { documentFields } from "../../src/search/document-fields.ts";
import { FIELD_BITS, FIELD_ID } from "../../src/search/fields.ts";
import { givenWords } from "../../src/search/given-words.ts";
import { InvertedIndex } from "../../src/search/inverted-index.ts";
import { parseQueryWords } from "../../src/search/query-parser.ts";
import { identifierOf } from "../../src/search/query-words.ts";
import { prepareQuery } from "../../src/search/query-terms.ts";
import { rankingOptions } from "../../src/search/ranking-options.ts";
import { ScoreSelector } from "../../src/search/score-select.ts";
import { mayBeServerKey } from "../../src/search/server-mention.ts";
import { ServerRegistry } from "../../src/search/server-registry.ts";
import { SynonymTable } from "../../src/search/synonyms.ts";
import { Tokenizer } from "../../src/search/tokenizer.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import { TopK } from "../../src/search/top-k.ts";
import type { SearchDocument } from "../../src/search/types.ts";
import { valueKinds } from "../../src/search/value-kinds.ts";
import { MAX_WORD_CHARS, WordTable, wordHash } from "../../src/search/word-table.ts";

describe("WordTable: words found in place", () => {
  test("a range of a longer text finds the word, whatever surrounds it", () => {
    const table = new WordTable<string>();
    const text = "get weather forecast";
    table.add(text, 4, 11, wordHash(text, 4, 11), "weather");
    const other = "xxweatheryy";
    expect(table.get(other, 2, 9, wordHash(other, 2, 9))).toBe("weather");
    expect(table.get(other, 2, 8, wordHash(other, 2, 8))).toBeUndefined();
    expect(table.get("weathen", 0, 7, wordHash("weathen", 0, 7))).toBeUndefined();
  });

  test("equal hashes are told apart by their characters", () => {
    const table = new WordTable<number>();
    table.add("abc", 0, 3, 7, 1);
    table.add("abd", 0, 3, 7, 2);
    table.add("ab", 0, 2, 7, 3);
    expect(table.get("abc", 0, 3, 7)).toBe(1);
    expect(table.get("abd", 0, 3, 7)).toBe(2);
    expect(table.get("ab", 0, 2, 7)).toBe(3);
    expect(table.get("abe", 0, 3, 7)).toBeUndefined();
  });

  test("bounded: long words are not kept, and a full table empties itself", () => {
    const table = new WordTable<number>();
    const long = "x".repeat(MAX_WORD_CHARS + 1);
    expect(table.add(long, 0, long.length, wordHash(long, 0, long.length), 1)).toBe(-1);
    expect(table.size).toBe(0);
    const word = (i: number) => `w${i}`;
    for (let i = 0; i <= 1 << 14; i++) {
      const text = word(i);
      const entry = table.add(text, 0, text.length, wordHash(text, 0, text.length), i);
      expect(table.numbers[entry * 2]).toBe(0);
      table.numbers[entry * 2] = 5;
    }
    expect(table.size).toBe(1);
    expect(table.get(word(0), 0, 2, wordHash(word(0), 0, 2))).toBeUndefined();
    const last = word(1 << 14);
    expect(table.get(last, 0, last.length, wordHash(last, 0, last.length))).toBe(1 << 14);
  });
});

describe("Tokenizer: a query's term ids", () => {
  test("ids are the dictionary's, -1 for terms it lacks, refreshed when the dictionary grows", () => {
    const index = new InvertedIndex();
    const tokenizer = new Tokenizer(index);
    index.add("a", [tokenizer.tokenizeToIds("weather forecast"), [], [], [], [], [], [], [], []]);
    const ids: number[] = [];
    const terms = tokenizer.tokenize("Weather of the zebra 天气", [], ids);
    expect(terms).toEqual(["weather", "zebra", "天气"]);
    expect(ids).toEqual([index.termId("weather")!, -1, -1]);
    expect(tokenizer.dictionarySize()).toBe(index.terms.length);
    index.intern("zebra");
    const again: number[] = [];
    tokenizer.tokenize("weather zebra", [], again);
    expect(again).toEqual([index.termId("weather")!, index.termId("zebra")!]);
  });

  test("a cached query meets terms the index learned after it was parsed", () => {
    const index = new ToolSearchIndex();
    index.add({ name: "weather", description: "Weather forecast for a city." });
    expect(index.query("zebra crossing finder").matches).toEqual([]);
    index.add({ name: "crossings", description: "Find a zebra crossing near an address." });
    expect(index.query("zebra crossing finder").matches.map((match) => match.name)).toEqual(["crossings"]);
  });
});

describe("re-rank facts from the query terms' impacts", () => {
  const docs: SearchDocument[] = [
    { name: "list_issues", description: "List open issues of a repository.", parameters: [{ name: "state", values: ["open", "closed"] }] },
    { name: "open_issue", description: "Open a new issue.", parameters: [{ name: "title", description: "Issue title" }] },
    { name: "close_issue", description: "Close an issue by number.", parameters: [{ name: "issue", description: "number" }] },
    { name: "repo_stats", description: "Statistics of a repository: open issue count.", parameters: [{ name: "repository" }] },
    { name: "weather", description: "Weather for a city.", parameters: [{ name: "city", values: ["open", "issue"] }] },
    // "issue" is the server's own word: of its name, open and repository are its own.
    { name: "issue_open_repository", server: "issue", description: "Open one." },
  ];

  test("each candidate's IDF sums, description bits and parameter marks equal a scan of its own terms", () => {
    const index = new InvertedIndex();
    const tokenizer = new Tokenizer(index);
    for (const doc of docs) index.add(doc.name, documentFields(doc, tokenizer));
    const options = rankingOptions();
    const scorer = new Bm25fScorer(options);
    const query = prepareQuery(index, { text: tokenizer.tokenize("open issue repository title"), required: [], given: ["titl", "repositori"], valueParameters: ["citi"] }, options);
    const candidates = docs.map((doc) => ({ slot: index.slotOf(doc.name)!, score: 0 }));
    const facts = new CandidateFacts();
    facts.gather(candidates, query, index, (at, id) => scorer.impacts(at, id), undefined, { given: true, value: true, name: true });
    expectFactsOfOwnTerms(index, query, candidates, facts);
    expect(facts.nameHits[docs.findIndex((doc) => doc.name === "issue_open_repository")]).toBe(2);
    expect(facts.takesValue[docs.findIndex((doc) => doc.name === "weather")]).toBe(1);
    expect(facts.valueOnlyIdf[docs.findIndex((doc) => doc.name === "weather")]).toBeGreaterThan(0);
  });

  test("a long impact list in slot order is searched for the candidates, one out of order (reused slots) read in full: the same facts", () => {
    const index = new InvertedIndex();
    const tokenizer = new Tokenizer(index);
    const doc = (i: number): SearchDocument => ({
      name: `tool_${i}`,
      description: `Fetch data records of kind ${i % 7} from source ${i % 11}.`,
      // "archive" only as an enum value: an entry with no kind bits, equal to its slot's search key.
      parameters: [{ name: i % 3 === 0 ? "city" : "query", ...(i % 5 === 0 && { values: ["archive", "live"] }) }],
    });
    for (let i = 0; i < 1500; i++) index.add(doc(i).name, documentFields(doc(i), tokenizer));
    const options = rankingOptions();
    const common = index.termId(tokenizer.tokenize("data")[0]!)!;
    const gatherAndCheck = (names: readonly string[]) => {
      const scorer = new Bm25fScorer(options);
      const query = prepareQuery(index, { text: tokenizer.tokenize("fetch data records of kind 3 from a city archive"), required: [], given: tokenizer.tokenize("city"), valueParameters: [] }, options);
      const candidates = names.map((name) => ({ slot: index.slotOf(name)!, score: 0 }));
      const facts = new CandidateFacts();
      facts.gather(candidates, query, index, (at, id) => scorer.impacts(at, id), undefined, { given: true, value: false, name: true });
      expectFactsOfOwnTerms(index, query, candidates, facts);
      expect(facts.takesGiven.subarray(0, candidates.length).reduce((sum, mark) => sum + mark, 0)).toBeGreaterThan(0);
      expect(facts.valueOnlyIdf.subarray(0, candidates.length).reduce((sum, idf) => sum + idf, 0)).toBeGreaterThan(0);
      const impacts = scorer.impacts(index, common);
      return { length: impacts.length, sorted: impacts.sorted };
    };
    // ~1,500 entries against 5 candidates: past the share at which the gather searches.
    expect(gatherAndCheck(["tool_3", "tool_10", "tool_699", "tool_700", "tool_1495"])).toEqual({ length: 1500, sorted: true });
    for (let i = 100; i < 800; i++) index.remove(index.slotOf(`tool_${i}`)!);
    for (let i = 1500; i < 1530; i++) index.add(doc(i).name, documentFields(doc(i), tokenizer));
    const reused = Array.from({ length: 30 }, (_, k) => `tool_${1500 + k}`).filter((name) => index.slotOf(name)! < 1500);
    expect(reused.length).toBe(30);
    expect(gatherAndCheck(["tool_3", reused[0]!, "tool_900", reused[29]!, "tool_1495"])).toEqual({ length: 830, sorted: false });
  });

  test("stand-ins and parameter names found by searching long lists give the facts a full read gives", () => {
    const index = new InvertedIndex();
    const tokenizer = new Tokenizer(index);
    // 40 rarer words, so that "fetch" stands past the 32 terms the gather notes per candidate.
    const rare = Array.from({ length: 40 }, (_, k) => `zq${String.fromCharCode(97 + (k % 26))}${String.fromCharCode(97 + Math.floor(k / 26))}x`);
    const doc = (i: number): SearchDocument => ({
      name: `tool_${i}`,
      description: `${i % 2 === 0 ? "Fetch" : "Show"} ${i % 15 === 0 ? "and retrieve " : ""}records ${rare[i % 40]}.`,
      parameters: [{ name: i % 4 === 0 ? "city" : "query" }],
    });
    for (let i = 0; i < 3000; i++) index.add(doc(i).name, documentFields(doc(i), tokenizer));
    const options = rankingOptions();
    const id = (word: string) => index.termId(tokenizer.tokenize(word)[0]!)!;
    const tokens = { text: tokenizer.tokenize(`fetch records ${rare.join(" ")} in a city`), required: [], given: tokenizer.tokenize("city"), valueParameters: [] };
    const query = prepareQuery(index, tokens, options, undefined, (term) => (term === id("fetch") ? [id("retrieve")] : undefined));
    const plain = prepareQuery(index, tokens, options);
    expect(query.standIns.map(({ id: standIn, sourceAt }) => ({ standIn, past32: sourceAt >= 32 }))).toEqual([{ standIn: id("retrieve"), past32: true }]);
    const candidates = ["tool_15", "tool_45", "tool_30", "tool_7", "tool_2995", "tool_2996"].map((name) => ({ slot: index.slotOf(name)!, score: 0 }));
    const scorer = new Bm25fScorer(options);
    // Long enough to be searched (200, 1,500 and 3,000 entries against 6 candidates), and in slot order.
    expect(["retrieve", "fetch", "records"].map((word) => scorer.impacts(index, id(word))).map(({ length, sorted }) => ({ length, sorted }))).toEqual([
      { length: 200, sorted: true },
      { length: 1500, sorted: true },
      { length: 3000, sorted: true },
    ]);
    const factsOf = (prepared: typeof query, read: (at: InvertedIndex, term: number) => ReturnType<Bm25fScorer["impacts"]>) => {
      const facts = new CandidateFacts();
      facts.gather(candidates, prepared, index, read, undefined, { given: true, value: false, name: true });
      const count = candidates.length;
      return {
        outsideIdf: [...facts.outsideIdf.subarray(0, count)],
        valueOnlyIdf: [...facts.valueOnlyIdf.subarray(0, count)],
        descriptionBits: [...facts.descriptionBits.subarray(0, count)],
        termBits: [...facts.termBits.subarray(0, count)],
        takesGiven: [...facts.takesGiven.subarray(0, count)],
        nameHits: [...facts.nameHits.subarray(0, count)],
      };
    };
    const searched = factsOf(query, (at, term) => scorer.impacts(at, term));
    // The same lists marked out of order are read in full.
    expect(searched).toEqual(factsOf(query, (at, term) => ({ ...scorer.impacts(at, term), sorted: false })));
    // Credited: tool_15 and tool_45 (no "fetch", "retrieve"); not tool_30 (both), tool_7 (neither), tool_2996 ("fetch").
    const without = factsOf(plain, (at, term) => scorer.impacts(at, term));
    expect(searched.outsideIdf.map((idf, c) => idf > without.outsideIdf[c]!)).toEqual([true, true, false, false, false, false]);
    expect(searched.takesGiven).toEqual([0, 0, 0, 0, 0, 1]);
  });
});

describe("re-rank facts: a member's own name said by the request", () => {
  test("a name term standing in for two query words is counted once", () => {
    const index = new InvertedIndex();
    const tokenizer = new Tokenizer(index);
    const named: SearchDocument[] = [
      { name: "view_things", server: "shelf", description: "Things on the shelf." },
      { name: "count_things", server: "shelf", description: "How many things." },
      // The index must have the query's words for their synonyms to stand in.
      { name: "screen", description: "Show or display a screen." },
    ];
    for (const doc of named) index.add(doc.name, documentFields(doc, tokenizer));
    const options = rankingOptions();
    const scorer = new Bm25fScorer(options);
    const synonyms = new SynonymTable();
    // show and display both have view as a stand-in.
    const query = prepareQuery(index, { text: tokenizer.tokenize("show display things"), required: [], given: [], valueParameters: [] }, options, undefined, (id) => synonyms.standInsOf(index, id));
    expect(query.standIns.filter((standIn) => standIn.id === index.termId("view")).length).toBe(2);
    const candidates = named.map((doc) => ({ slot: index.slotOf(doc.name)!, score: 0 }));
    const facts = new CandidateFacts();
    facts.gather(candidates, query, index, (at, id) => scorer.impacts(at, id), undefined, { given: false, value: false, name: true });
    expect([...facts.nameHits.subarray(0, 3)]).toEqual([2, 1, 0]);
  });

  test("own-name hits found by searching long lists (terms and a stand-in of two of them) equal a full read's", () => {
    const index = new InvertedIndex();
    const tokenizer = new Tokenizer(index);
    const verb = (i: number) => (i % 12 === 2 ? "view" : ["show", "list", "get"][i % 3]!);
    // A fifth of the tools are on a server named "list" (its word not their own); "view" stays under
    // the share a stand-in may have (10% of 4,000) and over the gather's search share (32 × 8).
    const doc = (i: number): SearchDocument => ({
      name: `${verb(i)}_items_${i}`,
      ...(i % 5 === 0 && { server: "list" }),
      description: `Items of kind ${i % 7}.${i % 40 === 0 ? " Display them." : ""}${i % 100 === 7 ? " View them." : ""}`,
    });
    for (let i = 0; i < 4000; i++) index.add(doc(i).name, documentFields(doc(i), tokenizer));
    const options = rankingOptions();
    const scorer = new Bm25fScorer(options);
    const id = (word: string) => index.termId(tokenizer.tokenize(word)[0]!)!;
    const query = prepareQuery(index, { text: tokenizer.tokenize("show list items display"), required: [], given: [], valueParameters: [] }, options, undefined, (term) =>
      term === id("show") || term === id("display") ? [id("view")] : undefined,
    );
    expect(query.standIns.map((standIn) => standIn.id)).toEqual([id("view"), id("view")]);
    const candidates = [2, 14, 0, 5, 10, 4, 40, 3999].map((i) => ({ slot: index.slotOf(doc(i).name)!, score: 0 }));
    expect(["view", "show", "list", "item"].map((word) => scorer.impacts(index, id(word))).every(({ length, sorted }) => sorted && length > 32 * candidates.length)).toBe(true);
    const nameHitsOf = (read: (at: InvertedIndex, term: number) => ReturnType<Bm25fScorer["impacts"]>) => {
      const facts = new CandidateFacts();
      facts.gather(candidates, query, index, read, undefined, { given: false, value: false, name: true });
      return [...facts.nameHits.subarray(0, candidates.length)];
    };
    const searched = nameHitsOf((at, term) => scorer.impacts(at, term));
    expect(searched).toEqual(nameHitsOf((at, term) => ({ ...scorer.impacts(at, term), sorted: false })));
    const expected = candidates.map(({ slot }) => [...query.terms.map((term) => term.id), id("view")].filter((term) => ownName(index, slot, term)).length);
    expect(searched).toEqual(expected);
    // view_items_2: items and view (once, though it stands in for show and display); list_items_10: items (list is its server's).
    expect(searched).toEqual([2, 2, 2, 1, 1, 2, 1, 2]);
  });
});

/** Each candidate's IDF sums, description bits and parameter marks equal a scan of its own terms. */
function expectFactsOfOwnTerms(index: InvertedIndex, query: ReturnType<typeof prepareQuery>, candidates: readonly { slot: number }[], facts: CandidateFacts): void {
  const idf = new Map(query.terms.map((term) => [term.id, term.idf]));
  candidates.forEach(({ slot }, c) => {
    const start = index.slotTermStart[slot]!;
    const terms = index.slotTermArena.subarray(start, start + index.slotTermCount[slot]!);
    const outside = index.outsideValueCounts[slot]!;
    const distinct = index.distinctCounts[slot]!;
    const sum = (from: number, to: number) => Array.from(terms.subarray(from, to)).reduce((total, id) => total + (idf.get(id) ?? 0), 0);
    expect(facts.outsideIdf[c]).toBeCloseTo(sum(0, outside), 12);
    expect(facts.valueOnlyIdf[c]).toBeCloseTo(sum(outside, distinct), 12);
    const description = new Set(terms.subarray(distinct));
    const bits = query.terms.reduce((mask, term, t) => (description.has(term.id) ? mask | (1 << (t & 31)) : mask), 0);
    expect(facts.descriptionBits[c]).toBe(bits);
    const valueOnlyLeading = Array.from(terms.subarray(outside, distinct)).includes(query.leadingTerm) ? 1 : 0;
    expect(facts.leadingValueOnly[c]).toBe(valueOnlyLeading);
    const parameterNames = (ids: readonly number[]) => (ids.some((id) => hasParameterName(index, slot, id)) ? 1 : 0);
    expect(facts.takesGiven[c]).toBe(parameterNames(query.givenTerms));
    expect(facts.takesValue[c]).toBe(parameterNames(query.valueParameterTerms));
    // Gathered with `name` and no mention: the full-weight terms in its own name and not its server's.
    expect(facts.nameHits[c]).toBe(query.terms.filter((term) => term.weight >= 1 && ownName(index, slot, term.id)).length);
  });
}

/** Whether `slot` has term `id` in its name and not in its server's name, read from the raw postings. */
function ownName(index: InvertedIndex, slot: number, id: number): boolean {
  return hasField(index, slot, id, FIELD_ID.name) && !hasField(index, slot, id, FIELD_ID.server);
}

/** Whether `slot` has term `id` in a parameter name, read from the raw postings. */
function hasParameterName(index: InvertedIndex, slot: number, id: number): boolean {
  return hasField(index, slot, id, FIELD_ID.parameterName);
}

/** Whether `slot` has term `id` in `field`, read from the raw postings. */
function hasField(index: InvertedIndex, slot: number, id: number, field: number): boolean {
  const postings = index.postings[id]!;
  for (let i = 0; i < index.postingLengths[id]!; i++) {
    if (postings[i]! === ((slot << FIELD_BITS) | field)) return true;
  }
  return false;
}

describe("the re-rank's best `limit` are the head of the full ranking", () => {
  test("every maxResults up to the candidate count gives a prefix of the candidate-count list", () => {
    // Past `candidates` (50) a larger maxResults re-ranks more candidates, so only up to 50 compare.
    const index = new ToolSearchIndex();
    const words = ["weather", "forecast", "city", "rain", "wind", "temperature", "daily", "hourly", "alert", "radar"];
    for (let i = 0; i < 160; i++) {
      const picked = words.filter((_, w) => (i * 7 + w * 3) % 5 < 2 + (i % 3));
      index.add({ name: `tool_${i}`, description: `${picked.join(" ")} service ${i}`, parameters: [{ name: picked[0] ?? "q" }] });
    }
    for (const query of ["weather forecast for a city", "hourly rain radar alert", "daily temperature wind"]) {
      const full = index.query(query, { maxResults: 50 }).matches.map((match) => match.name);
      expect(full.length).toBe(50);
      for (const k of [1, 3, 5, 10, 37, 50]) expect(index.query(query, { maxResults: k }).matches.map((match) => match.name)).toEqual(full.slice(0, k));
    }
  });
});

describe("given words: the ASCII scan and the general split agree", () => {
  test("on the same words, with and without a non-ASCII word beside them", () => {
    const texts = [
      "latitude and longitude of this address",
      "the owner OF MY Repo, and the issues for our project's board",
      "from this this that thing",
      "of this 42 and of that x1 and in your 3d",
      "about these' things for those'' people",
      "to my friend's house, at their office, with its keys, into our lab, on his desk",
    ];
    for (const text of texts) {
      const general = givenWords(`${text} ü`).filter((word) => word !== "ü");
      expect(givenWords(text)).toEqual(general);
    }
    expect(givenWords("of this address")).toEqual(["address"]);
  });
});

describe("a query that may be a server's name", () => {
  test("the in-place hash agrees with the squashed name; other text is refused before any lookup", () => {
    const registry = new ServerRegistry();
    registry.addMember("Git-Hub", 0);
    for (const spelling of ["github", "GitHub", "git hub", "Git_Hub!", "  g.i.t.h.u.b  "]) expect(mayBeServerKey(spelling, registry)).toBe(true);
    for (const other of ["gitlab", "github issues", "hub git"]) expect(mayBeServerKey(other, registry)).toBe(false);
    expect(mayBeServerKey("Gïthub", registry)).toBe(true);
  });
});

describe("ScoreSelector: the best k by score, as the heap keeps them", () => {
  const byHeap = (touched: Int32Array, scores: Float32Array, k: number) => {
    const heap = new TopK();
    heap.reset(k);
    for (const slot of touched) heap.push(slot, scores[slot]!);
    return heap.drainInto<{ slot: number; score: number }>([]).map((pair) => pair.slot).sort((a, b) => a - b);
  };
  test("equal sets on random scores with many ties, fewer contenders than k, and one bucket", () => {
    let seed = 7;
    const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    // One selector for every round: what a call leaves behind must not change the next answer.
    const selector = new ScoreSelector();
    for (let round = 0; round < 200; round++) {
      if (round % 50 === 25) {
        expect(selector.select(new Int32Array([0, 1]), 2, new Float32Array([3, -1]), 1, new TopK(), [])).toBeUndefined();
      }
      const slots = 1 + Math.floor(random() * 3000);
      const scores = new Float32Array(slots);
      const count = Math.floor(random() * slots) + 1;
      const touched = new Int32Array(count);
      const levels = round % 3 === 0 ? 4 : 1000;
      for (let i = 0; i < count; i++) {
        touched[i] = (i * 7919) % slots;
        scores[touched[i]!] = round % 5 === 0 ? 1.5 : (1 + Math.floor(random() * levels)) / 37;
      }
      const distinct = new Int32Array([...new Set(touched)]);
      const k = 1 + Math.floor(random() * 60);
      const selected = selector.select(distinct, distinct.length, scores, k, new TopK(), [] as { slot: number; score: number }[])!;
      expect(selected.map((pair) => pair.slot).sort((a, b) => a - b)).toEqual(byHeap(distinct, scores, k));
      for (const pair of selected) expect(pair.score).toBe(scores[pair.slot]!);
    }
  });

  test("a negative score is refused (its bits do not order), so the caller keeps its heap", () => {
    const scores = new Float32Array([1, -2, 3]);
    expect(new ScoreSelector().select(new Int32Array([0, 1, 2]), 3, scores, 2, new TopK(), [])).toBeUndefined();
  });
});

describe("splitWhiteSpace: the parser's split without a regular expression", () => {
  test("the words of split(/\\s+/) without empty edges, and whether a single-space join gives the text back", () => {
    const { splitWhiteSpace } = charClass;
    const texts = ["", " ", "a", "a b", "a  b", "a\tb", " a b", "a b ", "a\u00a0b", "a\u2003b\u3000c\ufeffd\u2028e", "x\u200by", "one two three"];
    for (const text of texts) {
      const { words, single } = splitWhiteSpace(text);
      expect(words).toEqual(text.split(/\s+/).filter((word) => word.length > 0));
      expect(single).toBe(words.join(" ") === text);
    }
  });

  test("isWhiteSpace is what \\s matches, every UTF-16 code unit (the parse joins a query's words with /\\s+/)", () => {
    const differ: number[] = [];
    for (let code = 0; code <= 0xffff; code++) if (charClass.isWhiteSpace(code) !== /\s/.test(String.fromCharCode(code))) differ.push(code);
    expect(differ).toEqual([]);
  });
});

describe("valueKinds: the decimal pre-check refuses nothing the pattern takes", () => {
  test("coordinates after a leading point, at the end, and no decimal at all", () => {
    expect(valueKinds(". at 40.7128, -74.0060")).toEqual(["coordinates"]);
    expect(valueKinds("...40.71,-74.00")).toEqual(["coordinates"]);
    expect(valueKinds("no numbers here. none.")).toEqual([]);
    expect(valueKinds("40 . 71, 74 . 00")).toEqual([]);
  });
});

describe("prepareQuery's term order", () => {
  test("short and long queries alike: IDF descending, ties by term id (the order a plain sort gives)", () => {
    const index = new InvertedIndex();
    const tokenizer = new Tokenizer(index);
    const words = Array.from({ length: 80 }, (_, i) => `w${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`);
    // Term i occurs in (i % 7) + 1 tools: many ties in IDF, across both sort paths.
    for (let tool = 0; tool < 7; tool++) {
      const text = words.filter((_, i) => i % 7 >= tool).join(" ");
      index.add(`t${tool}`, [tokenizer.tokenizeToIds(text), [], [], [], [], [], [], [], []]);
    }
    const options = rankingOptions();
    for (const count of [1, 2, 5, 12, 32, 33, 80]) {
      const text = tokenizer.tokenize(words.slice(0, count).reverse().join(" "));
      const terms = prepareQuery(index, { text, required: [], given: [], valueParameters: [] }, options).terms;
      const expected = [...terms].sort((a, b) => b.idf - a.idf || a.id - b.id);
      expect(terms.map((term) => term.id)).toEqual(expected.map((term) => term.id));
      expect(terms.length).toBe(Math.min(count, options.maxQueryTerms));
    }
  });
});

describe("parseQueryWords: the free-text words", () => {
  test("equal a plain split without page:, +required and mcp__ words (an mcp__server__tool word keeps its tool)", () => {
    const queries = [
      "weather forecast for Paris",
      "  two  spaces\tand tabs ",
      "+github open issues",
      "open issues +github",
      "mcp__gitlab__create_issue with a title",
      "list mcp__gitlab tools page:2",
      "page:2 mcp__gitlab",
      "+4915 is a phone number, not a required word",
      "mcp__ alone",
      "",
    ];
    for (const query of queries) {
      const expected: string[] = [];
      for (const word of query.trim().split(/\s+/).filter(Boolean)) {
        if (/^page:[1-9]\d{0,3}$/i.test(word) || /^\+\p{L}/u.test(word)) continue;
        const mcp = /^mcp__([^_].*?)(?:__(.*))?$/i.exec(word);
        if (mcp === null || mcp[1] === undefined) expected.push(word);
        else if (mcp[2]) expected.push(mcp[2]);
      }
      const { parsed, words } = parseQueryWords(query);
      expect(words).toEqual(expected);
      if (parsed.kind !== "select") expect(parsed.text.split(" ").filter(Boolean)).toEqual(expected);
    }
  });
});

describe("identifierOf: the ASCII scan agrees with the regular expressions", () => {
  const edges = /^[^\p{L}\p{N}_]+|[^\p{L}\p{N}_]+$/gu;
  const punctuation = /[_.\-]|\p{Ll}\p{Lu}/u;
  const reference = (raw: string) => {
    const word = raw.replace(edges, "");
    return word.length >= 3 && punctuation.test(word) ? word : undefined;
  };

  test("on chosen words, sentence ends, real requests' words and random ASCII", () => {
    const words = [
      "India.", "(calculate_distance)", "`get_weather`,", "COVID-19", "real-time", "getUser", "HTMLParser", "GET", "aB", "xAB",
      "...", "_a_", "a.b", "--x--", "e.g.", "U.S.", "a-b", "ab-", "-ab-c-", "\"mcp__git__status\"", "naïve-user", "Ünïcode_x", "日本_語",
    ];
    for (const line of readFileSync(join(import.meta.dir, "../../bench/data/real-requests.jsonl"), "utf8").split("\n")) {
      if (line.trim() !== "") words.push(...(JSON.parse(line) as { query: string }).query.split(/\s+/));
    }
    let seed = 7;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const alphabet = "aZ_.-9(),'\"`!xY";
    for (let i = 0; i < 5000; i++) words.push(Array.from({ length: 1 + Math.floor(random() * 8) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(""));
    for (const word of words) expect([word, identifierOf(word)]).toEqual([word, reference(word)]);
  });
});
