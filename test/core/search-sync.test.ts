/**
 * SearchSync under churn: a server that re-lists with new words each time must not grow the index
 * without bound (its term table only grows), so past a budget of additions the index is built afresh
 * from the pool — and answers exactly as an index built from nothing would.
 */
import { describe, expect, test } from "bun:test";
import { SearchSync } from "../../src/core/search-sync.ts";
import { buildMcpTool } from "../../src/tool/build-tool.ts";
import { textResult } from "../../src/tool/result.ts";
import type { Tool } from "../../src/tool/tool.ts";
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
