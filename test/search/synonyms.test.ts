import { describe, expect, test } from "bun:test";
import { documentFields } from "../../src/search/document-fields.ts";
import { InvertedIndex } from "../../src/search/inverted-index.ts";
import { SYNONYM_GROUPS, SynonymTable } from "../../src/search/synonyms.ts";
import { Tokenizer } from "../../src/search/tokenizer.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import type { SearchDocument } from "../../src/search/types.ts";

const build = (synonymCoverage: number, tools: SearchDocument[]) => {
  const index = new ToolSearchIndex({ ranking: { synonymCoverage } });
  for (const tool of tools) index.add(tool);
  return index;
};
const ranked = (index: ToolSearchIndex, query: string) => index.query(query).matches.map((match) => match.name);
const scoreOf = (index: ToolSearchIndex, query: string, name: string) => index.query(query).matches.find((match) => match.name === name)?.score;

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

  test("a synonym alone brings no tool in: it counts only in the re-rank's coverage", () => {
    expect(ranked(build(1, tools), "folder")).toEqual(["move_mail"]);
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
