import { describe, expect, test } from "bun:test";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import type { SearchDocument } from "../../src/search/types.ts";

/**
 * Spellings of one server key ("github", "git-hub") are one server. When all tools of one spelling
 * leave and the key comes back under another (a server renamed in the config), the index answers
 * as one built with the new spelling only: the name shown, and the configured name's terms a
 * mention credits ("git", "hub"), are the new spelling's, not the first ever registered.
 */
const others: SearchDocument[] = Array.from({ length: 24 }, (_, i) => ({
  name: `mcp__slack__tool_${i}`,
  server: "slack",
  rawToolName: `tool_${i}`,
  description: i % 4 === 0 ? `posts github links w${i}` : `posts messages w${i} hub w${i + 1}`,
}));
const renamed = (server: string): SearchDocument[] =>
  ["push", "pull", "clone"].map((verb) => ({
    name: `mcp__${server}__${verb}`,
    server,
    rawToolName: verb,
    description: `${verb}es a git branch to the hub`,
  }));
const QUERIES = ["github", "push github", "git hub clone", "github branch hub", "mcp__git-hub", "messages github", "GitHub pull"];

function answers(index: ToolSearchIndex): unknown[] {
  return QUERIES.map((query) => index.query(query, { maxResults: 10 }));
}

describe("a server key respelled after its tools left", () => {
  for (const [before, after] of [["github", "git-hub"], ["git-hub", "GitHub"], ["GitHub", "github"]] as const) {
    test(`${before} → ${after} answers as a fresh index of ${after}`, () => {
      const live = new ToolSearchIndex();
      for (const doc of others) live.add(doc);
      for (const doc of renamed(before)) live.add(doc);
      answers(live); // parses and found servers held in the query cache
      expect(live.removeServer(before)).toBe(3);
      for (const doc of renamed(after)) live.add(doc);
      const fresh = new ToolSearchIndex();
      for (const doc of [...others, ...renamed(after)]) fresh.add(doc);
      expect(answers(live)).toEqual(answers(fresh));
    });
  }
});
