/**
 * The first stage's "continue" pruning: once rarer query terms found enough candidates for the
 * re-rank, a term in more than `frequentTermShare` of the tools only adds to those. When every query
 * term is that common, nothing rarer found the candidates: the first frequent term alone would
 * decide them (ties between equal terms go by term id, so by the index's history), and a tool with
 * all the other words but not that one was never scored. Pruning now starts only when the rarer
 * terms alone found enough candidates.
 */
import { describe, expect, test } from "bun:test";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import type { SearchDocument } from "../../src/search/types.ts";

function pool(): SearchDocument[] {
  const docs: SearchDocument[] = [];
  const filler = (prefix: string, count: number, words: string) => {
    for (let i = 0; i < count; i++) docs.push({ name: `${prefix}_${i}`, description: `${words} item number ${i}` });
  };
  filler("ticket_tool", 150, "Handles a ticket");
  filler("forecast_tool", 200, "Reads a forecast");
  filler("search_tool", 200, "Runs a search");
  filler("update_tool", 200, "Applies an update");
  filler("other_tool", 250, "Does something unrelated");
  docs.push({ name: "forecast_search_update", description: "Forecast search update in one go" });
  return docs;
}

describe("a query whose every term is frequent", () => {
  test("the tool with three of its four words is found, though none of them is the rarest", () => {
    const index = new ToolSearchIndex();
    for (const doc of pool()) index.add(doc);
    const names = index.query("ticket forecast search update", { maxResults: 5 }).matches.map((match) => match.name);
    expect(names[0]).toBe("forecast_search_update");
  });

  test("the answer does not depend on the order the index learned its words", () => {
    const forward = new ToolSearchIndex();
    for (const doc of pool()) forward.add(doc);
    const backward = new ToolSearchIndex();
    for (const doc of pool().reverse()) backward.add(doc);
    const query = "forecast search update ticket";
    const top = (index: ToolSearchIndex) => index.query(query, { maxResults: 5 }).matches.map((match) => match.name)[0];
    expect(top(forward)).toBe("forecast_search_update");
    expect(top(backward)).toBe("forecast_search_update");
  });
});
