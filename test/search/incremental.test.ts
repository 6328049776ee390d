import { describe, expect, test } from "bun:test";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import type { SearchDocument } from "../../src/search/types.ts";

const WORDS = (
  "issue repository branch commit message channel weather forecast city stock price file folder read write " +
  "search list create delete update calendar event meeting email send translate image video audio map route"
).split(" ");

/** Deterministic pseudo-random numbers (a linear congruential generator), so failures replay. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function makeDoc(id: number, next: () => number): SearchDocument {
  const pick = (count: number) => Array.from({ length: count }, () => WORDS[Math.floor(next() * WORDS.length)]).join(" ");
  const server = `server${id % 40}`;
  return {
    name: `mcp__${server}__${pick(2).replace(" ", "_")}_${id}`,
    server,
    rawToolName: `tool_${id}`,
    description: pick(3 + Math.floor(next() * 12)),
    parameters: [{ name: pick(1), description: pick(4) }],
  };
}

function results(index: ToolSearchIndex, query: string): Map<string, number> {
  return new Map(index.query(query, { maxResults: 100 }).matches.map((match) => [match.name, match.score]));
}

describe("incremental updates", () => {
  test("after heavy churn the index answers exactly like one built from the survivors", () => {
    const next = random(7);
    const churned = new ToolSearchIndex();
    const docs = new Map<string, SearchDocument>();
    for (let id = 0; id < 2_000; id++) {
      const doc = makeDoc(id, next);
      churned.add(doc);
      docs.set(doc.name, doc);
    }
    // Enough removals to sweep dead postings and reuse their slots.
    for (const name of [...docs.keys()].filter(() => next() < 0.7)) {
      churned.remove(name);
      docs.delete(name);
    }
    expect(churned.removeServer("server3")).toBeGreaterThan(0);
    for (const name of [...docs.keys()]) if (docs.get(name)!.server === "server3") docs.delete(name);
    for (let id = 2_000; id < 2_400; id++) {
      const doc = makeDoc(id, next);
      churned.add(doc);
      docs.set(doc.name, doc);
    }
    for (const name of [...docs.keys()].slice(0, 50)) {
      const doc = { ...docs.get(name)!, description: "replaced translate audio" };
      churned.replace(doc);
      docs.set(name, doc);
    }

    const fresh = new ToolSearchIndex();
    for (const doc of docs.values()) fresh.add(doc);
    expect(churned.size).toBe(fresh.size);
    for (const query of ["weather forecast", "send email meeting", "replaced audio", "stock price city", "mcp__server5 list"]) {
      const expected = results(fresh, query);
      const actual = results(churned, query);
      if (expected.size < 100) expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [name, score] of actual) {
        if (expected.has(name)) expect(score).toBeCloseTo(expected.get(name)!, 3);
      }
    }
  });

  test("a removed server's tools never come back from any query form", () => {
    const index = new ToolSearchIndex();
    index.add({ name: "mcp__gone__ping", server: "gone", rawToolName: "ping", description: "Ping a host." });
    index.add({ name: "Ping", description: "Ping locally." });
    index.removeServer("gone");
    expect(index.query("ping host", { maxResults: 10 }).matches.map((match) => match.name)).toEqual(["Ping"]);
    expect(index.query("mcp__gone").matches).toEqual([]);
    expect(index.query("select:mcp__gone__ping").missing).toEqual(["mcp__gone__ping"]);
    expect(index.query("ping").exactName).toBe("Ping");
  });

  test("an emptied index answers every query with nothing", () => {
    const index = new ToolSearchIndex();
    index.add({ name: "Only", description: "The only tool." });
    index.remove("Only");
    expect(index.size).toBe(0);
    expect(index.query("only tool").matches).toEqual([]);
    index.add({ name: "Again", description: "Back again." });
    expect(index.query("again").exactName).toBe("Again");
  });
});
