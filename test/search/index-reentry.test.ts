import { describe, expect, test } from "bun:test";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import type { SearchDocument } from "../../src/search/types.ts";

/** Two servers whose tools share words, so a query's filter is asked about many contenders. */
function pool(): ToolSearchIndex {
  const index = new ToolSearchIndex();
  const docs: SearchDocument[] = [];
  for (const server of ["forge", "wiki"]) {
    for (const verb of ["create", "update", "delete", "list", "get"]) {
      for (const noun of ["issue", "page", "comment"]) docs.push({ name: `mcp__${server}__${verb}_${noun}`, description: `${verb} a ${noun} on ${server}.`, server, rawToolName: `${verb}_${noun}` });
    }
  }
  for (const doc of docs) index.add(doc);
  return index;
}

const REFUSED = /^ToolSearchIndex: cannot (query|add a tool|remove a tool|work out impacts) from inside a query's filter or scope callback/;

describe("ToolSearchIndex: a query's callbacks cannot re-enter it", () => {
  // Before: the nested query ran on the scratch the outer ranking was reading (query-scratch.ts, the ranker's candidates).
  // Each query shape with a callback it calls: a keyword ranking's filter, a listing's filter and scope, a select's scope, an exact name's scope.
  for (const [kind, text, option] of [
    ["keyword", "create issue", "filter"],
    ["listing", "mcp__forge", "filter"],
    ["listing", "mcp__forge", "scope"],
    ["select", "select:mcp__forge__get_page,mcp__wiki__get_page", "scope"],
    ["exact name", "mcp__forge__get_page", "scope"],
  ] as const) {
    test(`a query from the ${option} of a ${kind} query is refused, and the index answers as before afterwards`, () => {
      const index = pool();
      const expected = index.query(text, { maxResults: 5 });
      let nested = 0;
      const callback = (_name: string) => {
        nested++;
        index.query("delete comment");
        return true;
      };
      expect(() => index.query(text, { maxResults: 5, [option]: callback })).toThrow(REFUSED);
      expect(nested).toBe(1);
      // The guard was let go: the same query answers the same, and so do others.
      expect(index.query(text, { maxResults: 5 })).toEqual(expected);
      expect(index.query("delete comment", { maxResults: 3 }).matches.map((match) => match.name)).toEqual(pool().query("delete comment", { maxResults: 3 }).matches.map((match) => match.name));
    });
  }

  test("adding, removing or working out impacts from a callback is refused; the pool is unchanged", () => {
    const index = pool();
    const size = index.size;
    const attempts: [string, () => unknown][] = [
      ["add", () => index.add({ name: "mcp__forge__sneak", description: "create issue", server: "forge" })],
      ["remove", () => index.remove("mcp__forge__create_issue")],
      ["impacts", () => index.precomputeImpacts(100)],
      ["warm-up", () => index.warmUp("create issue")],
    ];
    for (const [, attempt] of attempts) {
      expect(() => index.query("create issue", { filter: () => (attempt(), true) })).toThrow(REFUSED);
    }
    expect({ size, has: index.has("mcp__forge__create_issue"), sneak: index.has("mcp__forge__sneak") }).toEqual({ size: index.size, has: true, sneak: false });
  });

  test("a filter that throws lets the guard go: the next query answers", () => {
    const index = pool();
    expect(() => index.query("create issue", { filter: () => { throw new Error("the caller's own fault"); } })).toThrow("the caller's own fault");
    expect(index.query("create issue", { maxResults: 1 }).matches.map((match) => match.name)).toEqual(["mcp__forge__create_issue"]);
  });

  test("queries one after another (not nested) are untouched by the guard", () => {
    const index = pool();
    const first = index.query("update page", { maxResults: 3, filter: (name) => name.includes("wiki") });
    const second = index.query("update page", { maxResults: 3, filter: (name) => name.includes("wiki") });
    expect(second).toEqual(first);
    expect(first.matches[0]?.name).toBe("mcp__wiki__update_page");
  });
});
