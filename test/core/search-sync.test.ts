/**
 * SearchSync under churn: a server that re-lists with new words each time must not grow the index
 * without bound (its term table only grows), so past a budget of additions the index is built afresh
 * from the pool — and answers exactly as an index built from nothing would.
 */
import { describe, expect, test } from "bun:test";
import { SearchSync } from "../../src/core/search-sync.ts";
import { searchDocument } from "../../src/core/search-document.ts";
import { buildMcpTool } from "../../src/tool/build-tool.ts";
import { textResult } from "../../src/tool/result.ts";
import type { McpInfo, Tool } from "../../src/tool/tool.ts";
import { JsonSchemaCompiler } from "../../src/validate/ajv.ts";

const compiler = new JsonSchemaCompiler();

function listing(round: number, count: number): Tool[] {
  return Array.from({ length: count }, (_, i) =>
    buildMcpTool(
      {
        name: `mcp__churn__t${i}`,
        description: `churning tool ${i} word${round}x${i} shared${i % 7}`,
        inputJSONSchema: { type: "object" },
        mcpInfo: { server: "churn", tool: `t${i}` },
        call: async () => textResult(""),
      },
      compiler,
    ),
  );
}

describe("SearchSync under churn", () => {
  test("past its budget of additions the index is rebuilt from the pool: old words are gone, answers equal a fresh index's", () => {
    const sync = new SearchSync();
    const first = sync.index;
    let rebuilt = false;
    for (let round = 0; round < 40; round++) {
      sync.sync(listing(round, 500));
      expect(sync.query("word0x3").matches.length > 0).toBe(round === 0);
      if (sync.index !== first) rebuilt = true;
    }
    // 40 × 500 additions against a pool of 500: over 4 × 500 + 10,000, so at least one rebuild.
    expect(rebuilt).toBe(true);
    const fresh = new SearchSync();
    fresh.sync(listing(39, 500));
    for (const query of ["word39x3", "churning tool 12", "shared3", "select:mcp__churn__t7", "mcp__churn"]) {
      expect(sync.query(query)).toEqual(fresh.query(query));
    }
  });

  test("sync with the pool's own lookup records the same changes as without it (removals found by count, not by a set of names)", () => {
    const round = (n: number, count: number, from = 0) => listing(n, count + from).slice(from);
    const withLookup = new SearchSync();
    const plain = new SearchSync();
    // Grow, replace some, remove some (from either end), both at once, and nothing.
    const steps = [round(0, 300), [...round(0, 300), ...round(1, 20, 300)], round(2, 250, 50), [...round(2, 100, 50), ...round(3, 60, 200)], [...round(2, 100, 50), ...round(3, 60, 200)]];
    for (const tools of steps) {
      const names = new Set(tools.map((tool) => tool.name));
      const changes = withLookup.sync(tools, (name) => names.has(name));
      expect(changes).toEqual(plain.sync(tools));
      for (const query of ["word2x60", "word3x210", "churning tool 12", "select:mcp__churn__t10", "shared3"]) expect(withLookup.query(query)).toEqual(plain.query(query));
    }
    expect([...withLookup.index.names()].length).toBe(160);
  });
});

describe("a tool's groups as ranking evidence", () => {
  const tool = (name: string, description: string, info: Partial<McpInfo> = {}) =>
    buildMcpTool({ name: `mcp__crm__${name}`, description, inputJSONSchema: { type: "object" }, mcpInfo: { server: "crm", tool: name, ...info }, call: async () => textResult("") }, compiler);

  test("a group's words lift its members a little: a tie between equal tools goes to the group that says the word, a tool's own name still wins", () => {
    const sync = new SearchSync();
    sync.sync([
      tool("create_record", "Creates a new record."),
      tool("create_item", "Creates a new record.", { groups: ["people"], groupInfo: { people: { title: "Contact management", description: "Customers and leads." } } }),
      tool("create_entry", "Creates a new record.", { groups: ["billing"], groupInfo: { billing: { title: "Invoices" } } }),
      tool("create_contact", "Creates a new record."),
    ]);
    const order = (query: string) => sync.query(query).matches.map((match) => match.name);
    // Without the group the three equal tools would tie; the group's title says "contact".
    expect(order("create record for a customer").slice(0, 1)).toEqual(["mcp__crm__create_item"]);
    expect(order("new record for an invoice").slice(0, 1)).toEqual(["mcp__crm__create_entry"]);
    // Low weight: a tool named for the word beats one whose group only mentions it.
    expect(order("create contact").slice(0, 2)).toEqual(["mcp__crm__create_contact", "mcp__crm__create_item"]);
  });

  test("a re-listed tool whose group's text changed is indexed again (its name, schema and groups the same)", () => {
    const sync = new SearchSync();
    const member = (title: string) => tool("create_item", "Creates a new record.", { groups: ["people"], groupInfo: { people: { title } } });
    sync.sync([member("Contact management"), tool("create_record", "Creates a new record.")]);
    expect(sync.query("contact").matches.map((match) => match.name)).toEqual(["mcp__crm__create_item"]);
    sync.sync([member("Invoices"), tool("create_record", "Creates a new record.")]);
    expect(sync.query("contact").matches).toEqual([]);
    expect(sync.query("invoices").matches.map((match) => match.name)).toEqual(["mcp__crm__create_item"]);
  });

  test("the evidence is bounded, whatever a tool's groups say", () => {
    const long = { title: "t".repeat(64), description: "word ".repeat(60) };
    const groups = Array.from({ length: 16 }, (_, i) => `g${i}`);
    const doc = searchDocument(tool("x", "X.", { groups, groupInfo: Object.fromEntries(groups.map((group) => [group, long])) }));
    expect(doc.serverDescription!.length).toBe(600);
    expect(searchDocument(tool("y", "Y.")).serverDescription).toBeUndefined();
  });
});
