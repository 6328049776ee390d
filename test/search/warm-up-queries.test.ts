/**
 * The warm-up's synthetic queries (warm-up-queries.ts) take the paths behind a named server in any
 * pool with servers: one of distinct servers, and one of renamed copies (server "weather 2" beside
 * "weather"), where a server's name words are other servers' too and so name none of them.
 */
import { afterEach, describe, expect, spyOn, test } from "bun:test";
import { KeywordRanker } from "../../src/search/keyword-ranker.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import { warmUpQueries, type WarmUpSource } from "../../src/search/warm-up-queries.ts";

const SERVERS = ["weather", "calendar", "mail box", "file store", "notes", "maps"];
const ACTIONS = ["get", "list", "create", "delete", "update", "search"];

/** Six servers of six tools each; their names and descriptions say the server's words. */
function distinctPool(): WarmUpSource[] {
  return SERVERS.flatMap((server) =>
    ACTIONS.map((action, i) => ({
      name: `mcp__${server.replace(" ", "_")}__${action}_${server.replace(" ", "_")}_item${i}`,
      description: `Use ${server} to ${action} an item by its id. Returns the ${server} record with fields kind${i} and topic${i}.`,
      server,
    })),
  );
}

/** The pool with `copies` renamed copies of each tool (copy k of server S is server `S k`). */
function copiedPool(copies: number): WarmUpSource[] {
  const pool = distinctPool();
  const out = [...pool];
  for (let k = 1; k <= copies; k++) {
    for (const tool of pool) {
      const rest = tool.name.slice(5);
      const at = rest.indexOf("__");
      out.push({ ...tool, server: `${tool.server} ${k}`, name: `mcp__${rest.slice(0, at)}_${k}${rest.slice(at)}` });
    }
  }
  return out;
}

/** How many of the pool's warm-up queries reach the first stage with a server named (KeywordRanker's membership run). */
function namingQueries(pool: readonly WarmUpSource[]): number {
  const index = new ToolSearchIndex({ collectGarbage: () => {} });
  for (const tool of pool) index.add({ name: tool.name, description: tool.description, ...(tool.server !== undefined && { server: tool.server }) });
  // A private step, spied on: no answer says whether the ranker took a named server as membership.
  const membership = spyOn(KeywordRanker.prototype as unknown as { runWithMembership: () => void }, "runWithMembership");
  let named = 0;
  for (const query of warmUpQueries(pool, (tool) => tool, 256)) {
    const before = membership.mock.calls.length;
    index.warmUp(query);
    if (membership.mock.calls.length > before) named++;
  }
  return named;
}

afterEach(() => {
  (KeywordRanker.prototype as unknown as { runWithMembership: { mockRestore?: () => void } }).runWithMembership.mockRestore?.();
});

describe("warm-up queries naming a server", () => {
  test("a pool of distinct servers gets queries that name one", () => {
    expect(namingQueries(distinctPool())).toBeGreaterThan(0);
  });

  test("a pool of renamed copies, whose servers share their name words, gets them too", () => {
    expect(namingQueries(copiedPool(4))).toBeGreaterThan(0);
  });

  test("a pool without servers gets the same number of queries, none naming one", () => {
    const pool = distinctPool().map(({ name, description }) => ({ name, description }));
    expect(warmUpQueries(pool, (tool) => tool, 256)).toHaveLength(256);
    expect(namingQueries(pool)).toBe(0);
  });
});
