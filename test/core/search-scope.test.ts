/**
 * A session's ToolSearch (and `toolpool/search` for it) resolves names within the session's scope
 * only: a tool, server or group outside its profile answers exactly as one that does not exist —
 * the same structured answer and the same words — so no query tells the model it is there.
 */
import { describe, expect, test } from "bun:test";
import { coreHarness } from "../helpers/core-harness.ts";
import { mcp } from "../assembly/fixtures.ts";

/** In scope: forge. Outside it (the profile excludes it): abyss, named to sort first among near misses. */
const forge = [
  mcp("forge", "create_issue", { description: "Create an issue in a forge repository.", groups: ["issues"] }),
  mcp("forge", "list_pulls", { description: "List pull requests of a repository.", groups: ["pulls"] }),
];
const abyss = [
  mcp("abyss", "create_issue", { description: "Create an issue in the abyss.", groups: ["secrets"] }),
  mcp("abyss", "create_issua", { description: "Create an issua.", groups: ["secrets"] }),
  mcp("abyss", "create_issub", { description: "Create an issub.", groups: ["secrets"] }),
  mcp("abyss", "read_secret", { description: "Read a secret value from the vault.", groups: ["secrets"] }),
];
const config = { profiles: { open: { exclude: ["mcp__abyss"] } } };

/** Queries that name the hidden server, its tools and its group every way a model could. */
const QUERIES = [
  "select:mcp__abyss__read_secret",
  "select:read_secret",
  "select:mcp__abyss__read_secre",
  "select:mcp__abyss",
  "select:abyss",
  "select:mcp__abyss/secrets",
  "select:secrets",
  "select:create_issue",
  "select:create_issux",
  "select:mcp__abyss__create_issue,mcp__forge__list_pulls",
  "mcp__abyss__read_secret",
  "read_secret",
  "create_issux",
  "mcp__abyss",
  "abyss",
  "discover:read secret vault",
];

async function answers(builtins: typeof forge) {
  const { core, open, call } = coreHarness({ builtins, config });
  const session = open({ profile: "open", delivery: "proxy" });
  const out: Record<string, unknown> = {};
  for (const query of QUERIES) {
    const answer = await call(session, "ToolSearch", { query });
    const searched = await core.searchTools({ query }, session);
    // Scores are left out: BM25's term statistics are the whole index's (a weight, not a name; see docs/search.md).
    out[query] = { text: answer.content, structured: answer.structuredContent, search: { ...searched, matches: searched.matches.map(({ score: _score, ...match }) => match) } };
  }
  return out;
}

describe("names outside a session's scope", () => {
  test("answer exactly as names that do not exist, in ToolSearch and toolpool/search", async () => {
    const withHidden = await answers([...forge, ...abyss]);
    const without = await answers(forge);
    for (const query of QUERIES) expect({ query, answer: withHidden[query] }).toEqual({ query, answer: without[query] });
  });

  test("the attacks that leaked before: an exact hidden name, and near misses that took every suggestion slot", async () => {
    const { core, open, call } = coreHarness({ builtins: [...forge, ...abyss], config });
    const session = open({ profile: "open", delivery: "proxy" });
    // The three nearest names of create_issux are the hidden server's: the session's own is still offered.
    const near = await call(session, "ToolSearch", { query: "select:create_issux" });
    expect(near.structuredContent).toMatchObject({ missing: ["create_issux"], did_you_mean: ["mcp__forge__create_issue"] });
    // A raw name two servers share resolves to the one in scope only.
    const shared = await call(session, "ToolSearch", { query: "select:create_issue" });
    expect(shared.structuredContent).toMatchObject({ matches: ["mcp__forge__create_issue"] });
    expect(shared.structuredContent!.missing).toBeUndefined();
    // A keyword query that is a hidden tool's exact name is ranked like any other words, not answered "nothing".
    const exact = await core.searchTools({ query: "read_secret" }, session);
    expect(exact.exactName).toBeUndefined();
    // Without a session the whole pool is searched: the names are there.
    expect((await core.searchTools({ query: "select:mcp__abyss__read_secret" }, undefined)).found).toEqual(["mcp__abyss__read_secret"]);
  });
});

describe("a bare server name in select:", () => {
  test("selects nothing and offers mcp__<server> and its groups' spellings", async () => {
    const { open, call } = coreHarness({ builtins: [...forge, ...abyss], config });
    const session = open({ profile: "open", delivery: "proxy" });
    const bare = await call(session, "ToolSearch", { query: "select:forge" });
    expect(bare.structuredContent).toEqual({ query: "select:forge", kind: "select", matches: [], missing: ["forge"], did_you_mean: ["mcp__forge", "mcp__forge/issues", "mcp__forge/pulls"] });
    expect((bare.content[0] as { text: string }).text).toBe("Not found: forge.\nDid you mean: mcp__forge, mcp__forge/issues, mcp__forge/pulls?");
    expect(session.searched.size).toBe(0);
    // The spelling offered selects the server whole.
    const server = await call(session, "ToolSearch", { query: "select:mcp__forge" });
    expect(server.structuredContent!.matches).toEqual(["mcp__forge__create_issue", "mcp__forge__list_pulls"]);
  });
});

test("a select: of many bare server names offers spellings for the first three misses only, as suggestions are", async () => {
  const servers = Array.from({ length: 6 }, (_, i) => `srv${i}`);
  const { open, call } = coreHarness({ builtins: servers.flatMap((server) => Array.from({ length: 8 }, (_, g) => mcp(server, `tool_${g}`, { groups: [`g${g}`] }))) });
  const session = open({ delivery: "proxy" });
  const answer = await call(session, "ToolSearch", { query: `select:${servers.join(",")}` });
  expect(answer.structuredContent!.missing).toEqual(servers);
  const offered = answer.structuredContent!.did_you_mean as string[];
  // Each offer is the server's spelling and at most five of its eight groups.
  expect(offered.filter((spelling) => !spelling.includes("/"))).toEqual(["mcp__srv0", "mcp__srv1", "mcp__srv2"]);
  expect(offered.filter((spelling) => spelling.startsWith("mcp__srv0/"))).toHaveLength(5);
});
