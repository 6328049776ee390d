/**
 * RankingOptions.synonymFill: when the request's own words find fewer tools than the re-rank
 * holds, tools that have a synonym of a request word (and none of what was found) are brought in.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { searchDocumentFromTool } from "../../src/search/tool-document.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import type { SearchDocument } from "../../src/search/types.ts";

const TOOLS: SearchDocument[] = [
  { name: "list_directory", description: "List the files of a directory." },
  { name: "move_mail", description: "Move a mail message to another mail folder." },
  { name: "open_folder", description: "Open a folder, the directory of a project." },
  { name: "edit_photo", description: "Edit an image photo of files." },
  { name: "edit_xyz", description: "Edit an image xyz of files." },
  { name: "set_kind", description: "Set the kind of an entry.", parameters: [{ name: "kind", values: ["directory", "file"] }] },
  // The index must have the request's word for its synonyms to stand in.
  { name: "frame_picture", description: "Frame a picture." },
];

function build(ranking: Record<string, number> = {}): ToolSearchIndex {
  const index = new ToolSearchIndex({ ranking: { nameTieBreak: 0, ...ranking } });
  for (const tool of TOOLS) index.add(tool);
  return index;
}

const matches = (index: ToolSearchIndex, query: string) => index.query(query, { maxResults: 10 }).matches;
const names = (index: ToolSearchIndex, query: string) => matches(index, query).map((match) => match.name);

describe("synonyms fill a request whose words found too few tools", () => {
  test("a tool with a synonym of the word comes in", () => {
    expect(names(build({ synonymFill: 0 }), "folder")).toEqual(["open_folder", "move_mail"]);
    // At half the word's weight: above a tool that says the word once in a long description.
    expect(names(build(), "folder")).toEqual(["open_folder", "list_directory", "move_mail"]);
  });

  test("tools the words found keep their scores; an enum value brings nothing in", () => {
    const on = new Map(matches(build(), "folder").map((match) => [match.name, match.score]));
    const off = new Map(matches(build({ synonymFill: 0 }), "folder").map((match) => [match.name, match.score]));
    // open_folder has directory too: it was found by the word, so the synonym adds nothing to it.
    for (const name of ["open_folder", "move_mail"]) expect(on.get(name)).toBe(off.get(name)!);
    expect(on.has("set_kind")).toBe(false);
  });

  test("only when the words found fewer tools than the re-rank holds", () => {
    expect(names(build({ candidates: 2 }), "folder")).toEqual(["open_folder", "move_mail"]);
    expect(names(build({ candidates: 3 }), "folder")).toEqual(["open_folder", "list_directory", "move_mail"]);
  });

  test("a request that names a server gets no other server's tools by synonym", () => {
    const index = new ToolSearchIndex({ ranking: { nameTieBreak: 0 } });
    index.add({ name: "mcp__github__create_issue", server: "github", description: "Create an issue in a GitHub repository." });
    index.add({ name: "mcp__github__get_issue", server: "github", description: "Get an issue of a GitHub repository." });
    index.add({ name: "mcp__jira__create_ticket", server: "jira", description: "Create a Jira ticket." });
    // issue ~ ticket: unnamed, the ticket tool is brought in; with the server named, the request is about its tools.
    expect(names(index, "issue")).toContain("mcp__jira__create_ticket");
    expect(names(index, "github issue")).toEqual(["mcp__github__create_issue", "mcp__github__get_issue"]);
  });

  test("two synonyms of one word count once, as one does", () => {
    // edit_photo has image and photo (both picture's synonyms), edit_xyz image alone.
    const scores = new Map(matches(build(), "picture").map((match) => [match.name, match.score]));
    expect(scores.get("edit_photo")).toBeGreaterThan(0);
    expect(scores.get("edit_photo")).toBeCloseTo(scores.get("edit_xyz")!, 9);
  });

  test("on the real pool: 'what's in this folder' finds the directory listing", () => {
    const catalogs = (
      JSON.parse(readFileSync(join(import.meta.dir, "../../bench/data/real-servers.json"), "utf8")) as {
        servers: { server: string; tools: { name: string; description?: string; inputSchema?: unknown }[] }[];
      }
    ).servers;
    const pool = (ranking = {}) => {
      const index = new ToolSearchIndex({ ranking });
      for (const catalog of catalogs) {
        for (const tool of catalog.tools) {
          const name = `mcp__${catalog.server}__${tool.name}`;
          index.add(searchDocumentFromTool({ name, server: catalog.server, rawToolName: tool.name, description: tool.description ?? "", inputSchema: tool.inputSchema }));
        }
      }
      return index;
    };
    const listing = (index: ToolSearchIndex) => names(index, "what's in this folder").slice(0, 5).some((name) => name.endsWith("__list_directory"));
    expect(listing(pool())).toBe(true);
    expect(listing(pool({ synonymFill: 0 }))).toBe(false);
  });
});
