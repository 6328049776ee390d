import { describe, expect, test } from "bun:test";
import { documentFields } from "../../src/search/document-fields.ts";
import { prepareQuery } from "../../src/search/query-terms.ts";
import { rankingOptions } from "../../src/search/ranking-options.ts";
import { InvertedIndex } from "../../src/search/inverted-index.ts";
import { SYNONYM_GROUPS, SynonymTable } from "../../src/search/synonyms.ts";
import { Tokenizer } from "../../src/search/tokenizer.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import type { SearchDocument } from "../../src/search/types.ts";

// The name's tie-break off: these compare coverage alone (a synonym in a name counts there too).
const build = (synonymCoverage: number, tools: SearchDocument[]) => {
  const index = new ToolSearchIndex({ ranking: { synonymCoverage, nameTieBreak: 0 } });
  for (const tool of tools) index.add(tool);
  return index;
};
const ranked = (index: ToolSearchIndex, query: string) => index.query(query).matches.map((match) => match.name);
const scoreOf = (index: ToolSearchIndex, query: string, name: string) => index.query(query, { maxResults: 50 }).matches.find((match) => match.name === name)?.score;

describe("a synonym covers the request's word for a tool that lacks it", () => {
  // Both tools list files and lack "folder" (a mail tool has it); the bucket tool says "files" more
  // often, so it wins on the words alone. The directory tool has a synonym of the missing word.
  const tools: SearchDocument[] = [
    { name: "list_bucket_files", description: "List files and file names of a storage bucket, all files at once." },
    { name: "list_directory", description: "List the files of a directory." },
    { name: "move_mail", description: "Move a mail message to another mail folder." },
  ];

  test("'list the files in my folder': the directory tool is covered, and first", () => {
    expect(ranked(build(0, tools), "list the files in my folder")[0]).toBe("list_bucket_files");
    expect(ranked(build(1, tools), "list the files in my folder")[0]).toBe("list_directory");
  });

  test("a synonym alone brings no tool in once the words found enough tools (synonym-fill.test.ts for fewer)", () => {
    const index = new ToolSearchIndex({ ranking: { candidates: 1, nameTieBreak: 0 } });
    for (const tool of tools) index.add(tool);
    expect(ranked(index, "folder")).toEqual(["move_mail"]);
  });

  test("a tool that has the word itself gains nothing from also having a synonym", () => {
    const both: SearchDocument[] = [
      { name: "open_folder", description: "Open a folder, the directory of a project." },
      { name: "open_folder_view", description: "Open a folder in the viewer window." },
    ];
    for (const name of ["open_folder", "open_folder_view"]) {
      expect(scoreOf(build(1, both), "open folder please", name)).toBe(scoreOf(build(0, both), "open folder please", name)!);
    }
  });

  test("several synonyms of one word cover it once, as one synonym does", () => {
    // The two tools differ only in one word: "photo" (a second synonym of "picture") or "xyz", not
    // in the query; neither has "archive". Counting each synonym would give edit_photo more coverage.
    const many: SearchDocument[] = [
      { name: "edit_photo", description: "Edit an image photo of files." },
      { name: "edit_xyz", description: "Edit an image xyz of files." },
      { name: "attach_mail", description: "Attach a picture to a mail archive." },
    ];
    const query = "edit picture files archive";
    const index = build(1, many);
    const withOne = scoreOf(index, query, "edit_xyz")!;
    expect(withOne).toBeGreaterThan(scoreOf(build(0, many), query, "edit_xyz")!);
    expect(scoreOf(index, query, "edit_photo")).toBeCloseTo(withOne, 9);
  });

  test("a synonym met only as an enum value covers nothing", () => {
    const valueOnly: SearchDocument[] = [
      { name: "list_bucket_files", description: "List files and file names of a storage bucket, all files at once." },
      { name: "list_entries", description: "List the files of a place.", parameters: [{ name: "kind", description: "what to list", values: ["directory", "bucket"] }] },
      { name: "move_mail", description: "Move a mail message to another mail folder." },
    ];
    const on = build(1, valueOnly);
    const off = build(0, valueOnly);
    expect(scoreOf(on, "list the files in my folder", "list_entries")).toBe(scoreOf(off, "list the files in my folder", "list_entries")!);
  });
});

describe("bounds", () => {
  test("a synonym in more than a tenth of the tools (and more than the re-rank takes) covers nothing", () => {
    const tools: SearchDocument[] = [
      ...Array.from({ length: 60 }, (_, i) => ({ name: `dir_tool_${i}`, description: `Walk a directory, kind ${i}.` })),
      ...Array.from({ length: 300 }, (_, i) => ({ name: `other_${i}`, description: `Do another thing, number ${i}.` })),
      { name: "move_mail", description: "Move a mail message to another mail folder." },
    ];
    for (const name of ["dir_tool_0", "dir_tool_1"]) {
      expect(scoreOf(build(1, tools), "walk folder kind", name)).toBe(scoreOf(build(0, tools), "walk folder kind", name)!);
    }
  });

  test("past the 32nd query term, a tool with the word itself is still found and not credited", () => {
    // 35 rare words each in one tool; "folder" in many, so its IDF puts it after all of them.
    const rare = Array.from({ length: 35 }, (_, i) => `qz${String.fromCharCode(97 + Math.floor(i / 26))}${String.fromCharCode(97 + (i % 26))}x`);
    const tools: SearchDocument[] = [
      ...rare.map((word) => ({ name: `rare_${word}`, description: `Handle ${word}.` })),
      ...Array.from({ length: 12 }, (_, i) => ({ name: `folder_tool_${i}`, description: `Keep a folder, shelf ${i}.` })),
      { name: "has_both", description: "Open a folder or directory." },
      { name: "has_synonym", description: "Open a directory." },
    ];
    const query = `open folder ${rare.join(" ")}`;
    expect(scoreOf(build(1, tools), query, "has_both")).toBe(scoreOf(build(0, tools), query, "has_both")!);
    expect(scoreOf(build(1, tools), query, "has_synonym")!).toBeGreaterThan(scoreOf(build(0, tools), query, "has_synonym")!);
  });

  test("a query credits at most 8 synonyms, the rarest terms' first", () => {
    const index = new InvertedIndex();
    const tokenizer = new Tokenizer(index);
    const words = Array.from({ length: 12 }, (_, i) => `word${String.fromCharCode(97 + i)}`);
    for (const word of words) index.add(`tool_${word}`, documentFields({ name: `tool_${word}`, description: `About ${word} and more ${word}.` }, tokenizer));
    const ids = words.map((word) => index.termId(new Tokenizer().tokenize(word)[0]!)!);
    // Every word stands in for every other one.
    const all = (id: number) => ids.filter((other) => other !== id);
    const query = prepareQuery(index, { text: tokenizer.tokenize(words.slice(0, 6).join(" ")), required: [], given: [], valueParameters: [] }, rankingOptions(), undefined, all);
    expect(query.standIns).toHaveLength(8);
    for (const standIn of query.standIns) expect(query.terms.some((term) => term.id === standIn.id)).toBe(false);
  });
});

describe("SynonymTable", () => {
  const idOf = (index: InvertedIndex, word: string) => index.termId(new Tokenizer().tokenize(word)[0]!);

  test("resolves the groups again when the dictionary grows", () => {
    const index = new InvertedIndex();
    const tokenizer = new Tokenizer(index);
    const table = new SynonymTable([["folder", "directory"]]);
    index.add("a", documentFields({ name: "open_folder", description: "Open a folder." }, tokenizer));
    const folder = idOf(index, "folder")!;
    expect(table.standInsOf(index, folder)).toBeUndefined();
    index.add("b", documentFields({ name: "read_directory", description: "Read a directory." }, tokenizer));
    expect(table.standInsOf(index, folder)).toEqual([idOf(index, "directory")!]);
  });

  test("every word of the built-in table is one index term", () => {
    const tokenizer = new Tokenizer();
    for (const group of SYNONYM_GROUPS) {
      expect(group.length).toBeGreaterThanOrEqual(2);
      for (const word of group) expect(tokenizer.tokenize(word)).toHaveLength(1);
    }
  });
});
