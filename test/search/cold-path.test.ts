import { describe, expect, test } from "bun:test";
import { documentFields } from "../../src/search/document-fields.ts";
import { FIELD_COUNT, FIELD_ID, type FieldTerms } from "../../src/search/fields.ts";
import { InvertedIndex } from "../../src/search/inverted-index.ts";
import { Tokenizer } from "../../src/search/tokenizer.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import type { SearchDocument } from "../../src/search/types.ts";

/** The cold path's shortcuts must answer exactly as the plain computation would. */
describe("documentFields with reused scratch arrays", () => {
  const docs: SearchDocument[] = [
    { name: "mcp__git__status", server: "git", rawToolName: "git_status_status", description: "Show the working tree status", parameters: [{ name: "repo_path", description: "Repository path", values: ["short", "long"] }] },
    { name: "send_mail", description: "Send an e-mail", aliases: ["mail"] },
    { name: "mcp__x__noop", server: "x", description: "" },
  ];

  test("each document's fields equal a fresh computation: nothing of the previous document is left over", () => {
    const interner = new InvertedIndex();
    const tokenizer = new Tokenizer(interner);
    const scratch: FieldTerms = Array.from({ length: FIELD_COUNT }, () => []);
    for (const doc of docs) {
      const fresh = documentFields(doc, tokenizer).map((field) => [...field]);
      expect(documentFields(doc, tokenizer, scratch).map((field) => [...field])).toEqual(fresh);
    }
  });

  test("the raw MCP name adds only the words the pool name lacks (repeats of those kept, as before)", () => {
    const interner = new InvertedIndex();
    const tokenizer = new Tokenizer(interner);
    const fields = documentFields(docs[0]!, tokenizer);
    expect(fields[FIELD_ID.name]!.map((id) => interner.terms[id])).toEqual(["statu", "git"]);
    const doubled = documentFields({ name: "mcp__x__run", server: "x", rawToolName: "go_go_run", description: "" }, tokenizer);
    expect(doubled[FIELD_ID.name]!.map((id) => interner.terms[id])).toEqual(["run", "go", "go"]);
  });
});

describe("clearQueryCache", () => {
  test("a query asked again after the cache is emptied is answered the same, and the index keeps answering", () => {
    const index = new ToolSearchIndex();
    index.add({ name: "mcp__gitlab__create_issue", server: "gitlab", description: "Create a new issue in a GitLab project" });
    index.add({ name: "mcp__github__create_issue", server: "github", description: "Create a new issue in a GitHub repository" });
    index.add({ name: "get_weather", description: "Current weather for a city" });
    const first = index.query("open an issue in GitLab", { maxResults: 3 });
    index.clearQueryCache();
    expect(index.query("open an issue in GitLab", { maxResults: 3 })).toEqual(first);
    expect(first.matches[0]!.name).toBe("mcp__gitlab__create_issue");
    index.clearQueryCache();
    expect(index.query("weather in Paris").matches.map((match) => match.name)).toEqual(["get_weather"]);
  });
});

describe("the re-rank's query-term bit filter", () => {
  test("tools whose terms share the filter's bits with query terms (ids 2,048 apart) are ranked as without the filter", () => {
    // Fill the dictionary so later terms get ids ≥ 2,048: the filter keys on id & 2047, so the
    // query's terms collide with earlier ones; the IDF array must still decide.
    const index = new ToolSearchIndex();
    const filler = Array.from({ length: 2_100 }, (_, i) => `w${i.toString(36)}x`);
    for (let i = 0; i < filler.length; i += 30) index.add({ name: `filler_${i}`, description: filler.slice(i, i + 30).join(" ") });
    index.add({ name: "convert_currency", description: "Convert an amount of money between currencies at today's exchange rate" });
    index.add({ name: "exchange_rate", description: "Today's exchange rate between two currencies" });
    index.add({ name: "colliding", description: `${filler.slice(0, 60).join(" ")} money` });
    const ranked = index.query("convert money at the exchange rate", { maxResults: 3 }).matches.map((match) => match.name);
    expect(ranked).toEqual(["convert_currency", "exchange_rate", "colliding"]);
  });
});
