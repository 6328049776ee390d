import { describe, expect, test } from "bun:test";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import type { SearchDocument } from "../../src/search/types.ts";

/**
 * The index keeps its per-tool terms in one arena, server membership in linked lists over slots,
 * and reuses slots after a sweep. Servers leaving and coming back, past every compaction
 * threshold, must leave an index that answers exactly like one built fresh from what is left.
 */
/** 300 made-up words: a query of a few of them matches a few dozen tools, so no answer is cut at max_results. */
const WORDS = Array.from({ length: 300 }, (_, i) => `w${i.toString(36)}x${(i * 7).toString(36)}`);
const SERVERS = Array.from({ length: 12 }, (_, i) => `server${String.fromCharCode(97 + i)}`);

function docsOf(server: string, variant = 0): SearchDocument[] {
  let state = server.charCodeAt(6) * 7 + variant;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) % WORDS.length;
  return Array.from({ length: 60 }, (_, i) => ({
    name: `mcp__${server}__tool_${i}`,
    server,
    rawToolName: `tool_${i}`,
    aliases: i === 0 ? [`${server}_first`] : undefined,
    description: Array.from({ length: 8 }, () => WORDS[next()]).join(" "),
    parameters: [{ name: WORDS[next()]!, description: `${WORDS[next()]} ${WORDS[next()]}` }],
  }));
}

const QUERIES = [[1, 2], [3, 4, 5], [6], [7, 8, 9, 10], [11, 12, 13]].map((ids) => ids.map((id) => WORDS[id]).join(" ")).concat("mcp__serverc");

function answers(index: ToolSearchIndex): unknown[] {
  return QUERIES.map((query) => {
    const result = index.query(query, { maxResults: 100 });
    expect(result.matches.length).toBeLessThan(100);
    return result.listed ? result.matches.map((match) => match.name) : new Map(result.matches.map((match) => [match.name, match.score]));
  });
}

describe("ToolSearchIndex under churn", () => {
  test("servers leaving and rejoining (past the sweeps) answer like a fresh index of what is left", () => {
    const index = new ToolSearchIndex();
    for (const server of SERVERS) for (const doc of docsOf(server)) index.add(doc);
    // Most servers leave: far more dead terms and postings than the sweep thresholds.
    for (const server of SERVERS.slice(0, 9)) expect(index.removeServer(server)).toBe(60);
    expect(index.size).toBe(180);
    expect(index.query("select:mcp__servera__tool_3").missing).toEqual(["mcp__servera__tool_3"]);
    expect(index.query("select:servera_first").found).toEqual([]);
    // They come back (some with changed tools), in another order, into reused slots.
    const back = ["serverc", "servera", "serverh", "serverb"];
    for (const server of back) for (const doc of docsOf(server, server === "servera" ? 1 : 0)) index.add(doc);

    const fresh = new ToolSearchIndex();
    for (const server of [...SERVERS.slice(9), ...back]) for (const doc of docsOf(server, server === "servera" ? 1 : 0)) fresh.add(doc);
    expect(index.size).toBe(fresh.size);
    expect(answers(index)).toEqual(answers(fresh));
    expect(index.query("mcp__serverc").matches.map((match) => match.name)).toEqual(docsOf("serverc").slice(0, 5).map((doc) => doc.name));
    expect(index.query("select:servera_first").found).toEqual(["mcp__servera__tool_0"]);
    expect(index.query("select:mcp__serverd__tool_1").missing).toEqual(["mcp__serverd__tool_1"]);
  });

  test("a tool leaving the middle of its server keeps the others' order; coming back puts it last", () => {
    const index = new ToolSearchIndex();
    for (const doc of docsOf("servera").slice(0, 4)) index.add(doc);
    for (const doc of docsOf("serverb").slice(0, 2)) index.add(doc);
    index.remove("mcp__servera__tool_1");
    index.add(docsOf("servera")[1]!);
    const listed = index.query("mcp__servera", { maxResults: 10 }).matches.map((match) => match.name);
    expect(listed).toEqual(["mcp__servera__tool_0", "mcp__servera__tool_2", "mcp__servera__tool_3", "mcp__servera__tool_1"]);
    for (const name of listed) index.remove(name);
    expect(index.query("mcp__servera").matches).toEqual([]);
    expect(index.query("mcp__serverb", { maxResults: 10 }).matches.map((match) => match.name)).toEqual(["mcp__serverb__tool_0", "mcp__serverb__tool_1"]);
  });

  test("a pool name wins over another tool's alias of that spelling only while that tool is there", () => {
    const index = new ToolSearchIndex();
    index.add({ name: "Read", description: "Reads a file." });
    index.add({ name: "mcp__fs__read_file", server: "fs", rawToolName: "read_file", aliases: ["Read"], description: "Reads a file." });
    expect(index.query("select:Read").found).toEqual(["Read"]);
    expect(index.query("select:READ").found).toEqual(["Read", "mcp__fs__read_file"]);
    index.remove("Read");
    expect(index.query("select:Read").found).toEqual(["mcp__fs__read_file"]);
    index.remove("mcp__fs__read_file");
    expect(index.query("select:read").missing).toEqual(["read"]);
    index.add({ name: "Read", description: "Reads a file again." });
    expect(index.query("select:read").found).toEqual(["Read"]);
    expect(index.query("select:Reed").didYouMean).toEqual(["Read"]);
  });
});
