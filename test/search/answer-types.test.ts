import { describe, expect, test } from "bun:test";
import { ANSWER_WORDS, AnswerScan, AnswerTable } from "../../src/search/answer-types.ts";
import { InvertedIndex } from "../../src/search/inverted-index.ts";
import { QueryCache } from "../../src/search/query-cache.ts";
import { Tokenizer } from "../../src/search/tokenizer.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import type { SearchDocument } from "../../src/search/types.ts";

const asked = (query: string) => new QueryCache(new Tokenizer()).get(query).tokens.answer;

describe("the question a request asks (AnswerScan through QueryCache)", () => {
  test("'how' and the next word: the kind, and where that word's term stands among the text terms", () => {
    // "documents" (0) "how" (stop word) "many" (1)
    expect(asked("documents: how many are there")).toEqual({ kind: "many", skipAt: 1 });
    expect(asked("How FAR is Berlin")).toEqual({ kind: "far", skipAt: 0 });
  });

  test("'who' asks only as the first word; after a noun it is a relative pronoun", () => {
    expect(asked("Who is in our workspace")).toEqual({ kind: "who", skipAt: -1 });
    expect(asked("list the users who joined today")).toBeUndefined();
  });

  test("'how' before a word of no kind, and requests without a question, ask nothing", () => {
    expect(asked("how do I rename a file")).toBeUndefined();
    expect(asked("many long far files")).toBeUndefined();
    expect(asked("show me how")).toBeUndefined();
  });

  test("the first question counts", () => {
    expect(asked("how long and how far")).toEqual({ kind: "long", skipAt: 0 });
  });

  test("a scan fed by hand: the word after 'how' is looked at even when it is not three letters", () => {
    const scan = new AnswerScan();
    scan.note("how", -1, true);
    expect(scan.afterHow).toBe(true);
    scan.note("often", 3, false);
    expect(scan.asked).toEqual({ kind: "often", skipAt: 3 });
  });
});

describe("AnswerTable: a kind's answer words as term ids", () => {
  test("words the index has, and only those; again after the dictionary grows", () => {
    const tokenizer = new Tokenizer();
    const index = new InvertedIndex();
    const count = index.intern(tokenizer.tokenize("count")[0]!);
    const table = new AnswerTable();
    expect(table.idsOf(index, "many")).toEqual([count]);
    const total = index.intern(tokenizer.tokenize("total")[0]!);
    expect(table.idsOf(index, "many")).toEqual([count, total]);
    expect(table.idsOf(index, "unknown")).toEqual([]);
  });

  test("every kind has words, and 'who' is the one asked alone", () => {
    for (const [, words] of ANSWER_WORDS) expect(words.length).toBeGreaterThan(0);
    expect(ANSWER_WORDS.has("who")).toBe(true);
  });
});

describe("ranking: a question finds the tool that gives its kind of answer (answerType)", () => {
  const build = (answerType: number, tools: SearchDocument[]) => {
    const index = new ToolSearchIndex({ ranking: { answerType, nameTieBreak: 0 } });
    for (const tool of tools) index.add(tool);
    return (query: string) => index.query(query).matches.map((match) => match.name);
  };

  test("'how many documents are in orders': the counting tool first", () => {
    const tools: SearchDocument[] = [
      { name: "find_documents", description: "Find documents in a collection, the documents that match a filter." },
      { name: "count", description: "Count the documents in a collection." },
    ];
    expect(build(0, tools)("how many documents are in orders")[0]).toBe("find_documents");
    expect(build(0.5, tools)("how many documents are in orders")[0]).toBe("count");
  });

  test("'who is in the workspace': the user listing before the channel listing", () => {
    const tools: SearchDocument[] = [
      { name: "list_channels", description: "List the channels of the workspace, every workspace channel." },
      { name: "get_users", description: "Get the users of the workspace." },
    ];
    expect(build(0, tools)("who is in the workspace")[0]).toBe("list_channels");
    expect(build(0.5, tools)("who is in the workspace")[0]).toBe("get_users");
  });

  test("the word after 'how' weighs nothing: 'how long' does not find long things", () => {
    const tools: SearchDocument[] = [
      { name: "long_text", description: "Store a long text." },
      { name: "drive_duration", description: "Duration of a drive between two places." },
    ];
    expect(build(0, tools)("how long is the drive")[0]).toBe("long_text");
    const on = build(0.5, tools)("how long is the drive");
    expect(on[0]).toBe("drive_duration");
    expect(on).not.toContain("long_text");
  });
});
