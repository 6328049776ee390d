/**
 * What a session's ToolSearch counts as found is what its answer delivered: a listing names tools and
 * loads none, and the lookups an answer makes for its own notes (a listing's page, a group's other
 * members) neither find tools nor count as searches.
 */
import { expect, test } from "bun:test";
import { coreHarness } from "../helpers/core-harness.ts";
import { mcp } from "../assembly/fixtures.ts";
import { usageTerms } from "../../src/usage/usage-terms.ts";

const names = Array.from({ length: 250 }, (_, i) => `tool_${String(i).padStart(3, "0")}`);
const tools = names.map((name, i) => mcp("forge", name, { description: `Does ${name}.`, groups: ["everything", ...(i % 2 === 1 ? ["odd"] : [])] }));

test("a listing finds nothing; a group selection finds what it delivered, not the rest it names; each call is one search", async () => {
  // Attack: listing "mcp__forge" marked its 100 listed tools found (explain said "discovered by this
  // session's ToolSearch"; a transcript-less native session would load them), and the answer's own
  // second query counted as a second search.
  const { core, open, call } = coreHarness({ builtins: tools });
  const session = open({ delivery: "proxy" });
  const searches: string[] = [];
  const metrics = core.metrics;
  const search = metrics.search.bind(metrics);
  metrics.search = (event) => {
    searches.push(event.kind);
    search(event);
  };
  await call(session, "ToolSearch", { query: "mcp__forge" });
  await call(session, "ToolSearch", { query: "mcp__forge page:3" });
  const afterListing = names.filter((name) => session.hasDiscovered(`mcp__forge__${name}`)).length;
  const odd = await call(session, "ToolSearch", { query: "select:mcp__forge/odd" });
  const found = names.map((name) => `mcp__forge__${name}`).filter((name) => session.hasDiscovered(name));
  expect({ afterListing, found, searches }).toEqual({
    afterListing: 0,
    found: odd.structuredContent!.matches as string[],
    searches: ["keyword", "keyword", "select"],
  });
  expect(found.length).toBe(100);
});

test("usage history records the model's query once per ToolSearch call, never what the answer looked up for its notes", async () => {
  // Attack: the notes' lookups (a server selection's loaded tools and its groups, a listing's loaded
  // tools) went through the usage wrapper, so `toolpool stats` counted a select:mcp__forge as three
  // searches (two of them keyword searches for "mcp__forge") and the prior learned from them.
  const { core, open, call } = coreHarness({ builtins: tools });
  const session = open({ delivery: "proxy" });
  const server = await call(session, "ToolSearch", { query: "select:mcp__forge" });
  // The answer did look its notes up: the server's groups are named (the selection could not hold it whole).
  expect((server.content[0] as { text: string }).text).toContain("everything");
  // A call after it: what the prior learns words from is the model's searches only (a select: teaches none).
  const workspace = core.usage.of(session).workspace;
  const prior = core.usage.service.prior(workspace);
  for (let i = 0; i < 2; i++) expect((await call(session, "ExecuteExtraTool", { tool_name: "mcp__forge__tool_000", params: { title: "t" } })).isError).toBe(false);
  expect(prior.affinity("mcp__forge__tool_000", usageTerms("mcp__forge"))).toBe(0);
  await call(session, "ToolSearch", { query: "select:mcp__forge/odd" });
  await call(session, "ToolSearch", { query: "mcp__forge" });
  const stats = await core.usageStats({});
  expect({ total: stats.searches.total, select: stats.searches.select, keyword: stats.searches.keyword }).toEqual({ total: 3, select: 2, keyword: 1 });
});
