/**
 * After a catalog change the impact sweep works out again only the terms whose postings (or their
 * slots) changed, as long as the field averages are the ones the cached impacts were worked out
 * with (a same-length replace); a change of the averages makes every term stale. Either way the
 * impacts are the ones a fresh index gives, and so are the rankings.
 */
import { describe, expect, test } from "bun:test";
import { Bm25fScorer } from "../../src/search/bm25f-scorer.ts";
import { FIELD_COUNT, FIELD_ID } from "../../src/search/fields.ts";
import { InvertedIndex } from "../../src/search/inverted-index.ts";
import { rankingOptions } from "../../src/search/ranking-options.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import type { SearchDocument } from "../../src/search/types.ts";

const WORDS = ["alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa", "lambda", "mu", "nu", "xi", "rho"];

function fieldsOf(index: InvertedIndex, name: string[], description: string[], server: string): number[][] {
  const fields: number[][] = Array.from({ length: FIELD_COUNT }, () => []);
  fields[FIELD_ID.name] = name.map((word) => index.intern(word));
  fields[FIELD_ID.description] = description.map((word) => index.intern(word));
  fields[FIELD_ID.server] = [index.intern(server)];
  return fields;
}

function wordsFor(i: number, count: number, offset = 0): string[] {
  return Array.from({ length: count }, (_, k) => WORDS[(i * 7 + k * 3 + offset) % WORDS.length]!);
}

/** Every live term's impacts as a scorer that never swept works them out. */
function freshValues(index: InvertedIndex): Map<number, number[]> {
  const scorer = new Bm25fScorer(rankingOptions());
  const out = new Map<number, number[]>();
  for (let id = 0; id < index.terms.length; id++) {
    if (index.documentFrequency[id]! === 0) continue;
    const impacts = scorer.impacts(index, id);
    out.set(id, [...impacts.entries.subarray(0, impacts.length), ...impacts.values.subarray(0, impacts.length)]);
  }
  return out;
}

function sweptValues(scorer: Bm25fScorer, index: InvertedIndex): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (let id = 0; id < index.terms.length; id++) {
    if (index.documentFrequency[id]! === 0) continue;
    const impacts = scorer.impactCache.peek(id)!;
    expect(impacts.version).toBe(index.version);
    out.set(id, [...impacts.entries.subarray(0, impacts.length), ...impacts.values.subarray(0, impacts.length)]);
  }
  return out;
}

describe("the impact sweep redoes only stale terms", () => {
  test("a same-length replace works out again only the terms of the tools replaced, to a fresh index's values", () => {
    const index = new InvertedIndex();
    for (let i = 0; i < 200; i++) index.add(`tool_${i}`, fieldsOf(index, wordsFor(i, 2), wordsFor(i, 6), `server${i % 4}`));
    const scorer = new Bm25fScorer(rankingOptions());
    while (!scorer.precomputeImpacts(index, 500));
    const before = scorer.impactsWorkedOut;
    expect(before).toBeGreaterThan(WORDS.length);
    // Tool 5 re-listed with the same field lengths and one new word and one other word.
    index.remove(index.slotOf("tool_5")!);
    index.add("tool_5", fieldsOf(index, ["brandnew", "beta"], wordsFor(5, 6), "server1"));
    const changed = new Set([...wordsFor(5, 2), ...wordsFor(5, 6), "server1", "brandnew", "beta"].map((word) => index.termId(word)!));
    while (!scorer.precomputeImpacts(index, 500));
    expect(scorer.impactsWorkedOut - before).toBe(changed.size);
    expect(scorer.impactsWorkedOut - before).toBeLessThan(index.terms.length);
    expect(sweptValues(scorer, index)).toEqual(freshValues(index));
  });

  test("a change of the field averages (an added tool) works out every term again", () => {
    const index = new InvertedIndex();
    for (let i = 0; i < 100; i++) index.add(`tool_${i}`, fieldsOf(index, wordsFor(i, 2), wordsFor(i, 5), `server${i % 3}`));
    const scorer = new Bm25fScorer(rankingOptions());
    while (!scorer.precomputeImpacts(index, 500));
    const before = scorer.impactsWorkedOut;
    index.add("longer", fieldsOf(index, ["alpha"], wordsFor(1, 9), "server0"));
    let live = 0;
    for (let id = 0; id < index.terms.length; id++) if (index.documentFrequency[id]! > 0) live++;
    while (!scorer.precomputeImpacts(index, 500));
    expect(scorer.impactsWorkedOut - before).toBe(live);
    expect(sweptValues(scorer, index)).toEqual(freshValues(index));
  });

  test("a query after a same-length change reads the same impacts a fresh index works out", () => {
    const index = new InvertedIndex();
    for (let i = 0; i < 120; i++) index.add(`tool_${i}`, fieldsOf(index, wordsFor(i, 2), wordsFor(i, 4), `server${i % 2}`));
    const scorer = new Bm25fScorer(rankingOptions());
    while (!scorer.precomputeImpacts(index, 500));
    index.remove(index.slotOf("tool_9")!);
    index.add("tool_9", fieldsOf(index, ["zeta", "eta"], wordsFor(9, 4, 1), "server1"));
    const fresh = freshValues(index);
    for (const [id, values] of fresh) {
      const impacts = scorer.impacts(index, id);
      expect([...impacts.entries.subarray(0, impacts.length), ...impacts.values.subarray(0, impacts.length)]).toEqual(values);
    }
  });
});

function tool(server: string, i: number, variant: number): SearchDocument {
  const words = (n: number, offset: number) => wordsFor(i + variant * 5, n, offset).join(" ");
  return {
    name: `mcp__${server}__${words(2, 0).replace(" ", "_")}_${i}`,
    description: `${words(5, 1)} records`,
    server,
    parameters: [{ name: "target", description: words(3, 2) }],
  };
}

describe("rankings after a server's tools are replaced equal those of an index that never swept", () => {
  test("same-length replace, then the sweep, then queries", () => {
    const servers = ["alpha", "beta", "gamma"];
    const first = servers.flatMap((server) => Array.from({ length: 60 }, (_, i) => tool(server, i, 0)));
    const index = new ToolSearchIndex();
    for (const doc of first) index.add(doc);
    while (!index.precomputeImpacts(1024));
    const replaced = Array.from({ length: 60 }, (_, i) => tool("beta", i, 1));
    index.replaceServer("beta", replaced);
    while (!index.precomputeImpacts(1024));
    // The same changes, impacts worked out by the queries alone (slots, so ties, are the same).
    const fresh = new ToolSearchIndex();
    for (const doc of first) fresh.add(doc);
    fresh.replaceServer("beta", replaced);
    for (const query of ["alpha records", "sigma kappa target", "omega lambda", "records mu nu xi", "beta rho delta gamma"]) {
      expect(index.query(query, { maxResults: 10 })).toEqual(fresh.query(query, { maxResults: 10 }));
    }
  });
});
