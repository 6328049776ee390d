import { describe, expect, test } from "bun:test";
import { InvertedIndex } from "../../src/search/inverted-index.ts";
import { MEMBER_CLASSES, MemberTable } from "../../src/search/member-synonyms.ts";
import { Tokenizer } from "../../src/search/tokenizer.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import type { SearchDocument } from "../../src/search/types.ts";

const tokenizer = new Tokenizer();
const term = (word: string) => tokenizer.tokenize(word)[0]!;

describe("MemberTable: a member word's class words, as term ids of one index", () => {
  test("every class word is one index term (a row whose class splits would reach nothing)", () => {
    for (const [word] of MEMBER_CLASSES) expect([word, tokenizer.tokenize(word!).length]).toEqual([word, 1]);
  });

  test("a member reaches its class; the class reaches no member; a word of no row reaches nothing", () => {
    const index = new InvertedIndex();
    const ids = Object.fromEntries(["friday", "date", "km", "distance", "weather"].map((word) => [word, index.intern(term(word))]));
    const table = new MemberTable();
    expect(table.classesOf(index, ids.friday!)).toEqual([ids.date!]);
    expect(table.classesOf(index, ids.km!)).toEqual([ids.distance!]);
    expect(table.classesOf(index, ids.date!)).toBeUndefined();
    expect(table.classesOf(index, ids.weather!)).toBeUndefined();
  });

  test("a class word the index did not have is found once the dictionary grows", () => {
    const index = new InvertedIndex();
    const txt = index.intern(term("txt"));
    const table = new MemberTable();
    expect(table.classesOf(index, txt)).toBeUndefined();
    const file = index.intern(term("file"));
    expect(table.classesOf(index, txt)).toEqual([file]);
  });

  test("a member word the index lacks is found by its text", () => {
    const index = new InvertedIndex();
    const file = index.intern(term("file"));
    const table = new MemberTable();
    expect(table.classesOfWord(index, term("txt"))).toEqual([file]);
    expect(table.classesOfWord(index, term("weather"))).toBeUndefined();
  });

  test("a word in two rows reaches both classes", () => {
    const index = new InvertedIndex();
    const ids = ["mp4", "video", "clip"].map((word) => index.intern(term(word)));
    const table = new MemberTable([["video", "mp4"], ["clip", "mp4"]]);
    expect(table.classesOf(index, ids[0]!)).toEqual([ids[1]!, ids[2]!]);
  });
});

describe("ranking: a member word finds the tool that says its class (memberSynonyms)", () => {
  // Each tool has one of the request's words; only the file tool says "file", and the request
  // names one by its format ("notes.txt": notes + txt). The list tool says its word twice.
  const tools: SearchDocument[] = [
    { name: "append_line", description: "Append a line to a list of lines." },
    { name: "save_file", description: "Save text to a file." },
  ];
  const ranked = (memberSynonyms: number, query: string) => {
    const index = new ToolSearchIndex({ ranking: { memberSynonyms, nameTieBreak: 0 } });
    for (const tool of tools) index.add(tool);
    return index.query(query).matches.map((match) => match.name);
  };

  test("'save the line to notes.txt': the file tool first with the rule, the list tool without", () => {
    expect(ranked(0, "save the line to notes.txt")[0]).toBe("append_line");
    expect(ranked(0.5, "save the line to notes.txt")[0]).toBe("save_file");
  });

  test("a member word whose only tool was removed still reaches its class", () => {
    const index = new ToolSearchIndex({ ranking: { nameTieBreak: 0 } });
    for (const tool of [...tools, { name: "txt_viewer", description: "Show a txt." }]) index.add(tool);
    index.remove("txt_viewer");
    expect(index.query("save the line to notes.txt").matches[0]!.name).toBe("save_file");
  });

  test("the class word weighs less than the word itself: a request that says 'file' and 'txt' ranks as saying 'file'", () => {
    const index = new ToolSearchIndex({ ranking: { nameTieBreak: 0 } });
    for (const tool of tools) index.add(tool);
    const off = new ToolSearchIndex({ ranking: { memberSynonyms: 0, nameTieBreak: 0 } });
    for (const tool of tools) off.add(tool);
    const score = (at: ToolSearchIndex) => at.query("save the file out.txt").matches.find((match) => match.name === "save_file")!.score;
    expect(score(index)).toBe(score(off));
  });
});
