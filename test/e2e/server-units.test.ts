// test-plan: one tier — server listings, groups and the tool-count guard are in every tier; the binary is only the way in.
/**
 * Servers as units, as a user and an MCP host meet them: a server of 250 tools (and a lying group
 * list) behind the compiled daemon, reached through `toolpool mcp` as a host reaches it and through
 * `toolpool search`, following only the paths the answers themselves give (test/fixtures/mcp/spec-server.ts).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { binaryPath, runBinary, startBinaryDaemon } from "../helpers/binary.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { RawClient } from "../helpers/raw-client.ts";

setDefaultTimeout(120_000);

const SERVER = join(import.meta.dir, "..", "fixtures", "mcp", "spec-server.ts");
const VERBS = ["create", "get", "list", "update", "delete", "search", "merge", "close", "approve", "assign"];
const OBJECTS = ["issue", "merge_request", "pipeline", "branch", "label", "milestone", "project", "wiki_page", "note", "tag", "release", "runner", "job", "commit", "user", "group", "snippet", "variable", "deploy_key", "webhook", "environment", "badge", "board", "epic", "vulnerability"];
/** 250 names a real forge server could have, `create_issue` … `assign_vulnerability`. */
const NAMES = OBJECTS.flatMap((object) => VERBS.map((verb) => `${verb}_${object}`));

async function unitDaemon(specs: Record<string, unknown>, config: Record<string, unknown> = {}) {
  const root = realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "units-")));
  const mcpServers: Record<string, unknown> = {};
  for (const [name, { entry, ...spec }] of Object.entries(specs as Record<string, { entry?: Record<string, unknown> }>)) {
    writeFileSync(join(root, `${name}.json`), JSON.stringify(spec));
    mcpServers[name] = { command: process.execPath, args: [SERVER], env: { SPEC_FILE: join(root, `${name}.json`) }, ...entry };
  }
  const configPath = join(root, "config.json");
  writeFileSync(configPath, JSON.stringify({ ...config, mcpServers }));
  const socketPath = join(tempSocketDir(), "u.sock");
  const daemon = await startBinaryDaemon(socketPath, ["--config", configPath], { XDG_STATE_HOME: join(root, "state") }, undefined, root);
  using client = await RawClient.open(socketPath);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const servers = (await client.request("toolpool/servers")).result as { servers: { state: string }[] };
    client.messages.length = 0;
    if (servers.servers.every((server) => server.state === "connected")) break;
    if (Date.now() > deadline) throw new Error("the spec servers never connected");
    await Bun.sleep(50);
  }
  return { daemon, socketPath };
}

async function host(socketPath: string) {
  const client = new Client({ name: "units-host", version: "1" });
  await client.connect(new StdioClientTransport({ command: binaryPath(), args: ["mcp", "--socket", socketPath], env: { ...process.env } as Record<string, string>, stderr: "pipe" }));
  const search = async (query: string) => {
    const result = (await client.callTool({ name: "ToolSearch", arguments: { query } })) as { content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown> };
    return { text: result.content.map((block) => block.text ?? "").join("\n"), structured: result.structuredContent ?? {} };
  };
  return { client, search };
}

describe("servers as units (compiled binary, `toolpool mcp`)", () => {
  test("a server of 250 tools: the announcement's path (list, then each next page the answer names) reaches every tool, and the last one runs", async () => {
    const { daemon, socketPath } = await unitDaemon({ forge: { instructions: "A code forge: issues, merge requests and pipelines.", tools: NAMES.map((name) => ({ name })) } }, { announcements: "servers" });
    await using _daemon = daemon;
    const { client, search } = await host(socketPath);
    try {
      const instructions = client.getInstructions() ?? "";
      expect(instructions).toContain("forge (250 tools): A code forge: issues, merge requests and pipelines.");
      expect(instructions).toContain('query "mcp__<server>" to list its tools');
      const reached: string[] = [];
      const heads: string[] = [];
      for (let query: string | undefined = "mcp__forge"; query !== undefined; ) {
        const { text } = await search(query);
        heads.push(text.split("\n")[0]!);
        reached.push(...text.split("\n").filter((line) => line.startsWith("- mcp__forge__")).map((line) => line.slice(2, line.indexOf(":"))));
        query = /query "([^"]+)" for the next page/.exec(text)?.[1];
      }
      expect({ heads, reached: [...reached].sort() }).toEqual({
        heads: [1, 2, 3].map((page) => `MCP server forge: 250 deferred tool(s), not loaded. Page ${page} of 3: tools ${page * 100 - 99}–${Math.min(page * 100, 250)}. Load the ones you need with ToolSearch "select:<name>,<name>".`),
        reached: NAMES.map((name) => `mcp__forge__${name}`).sort(),
      });
      const last = reached.at(-1)!;
      expect((await search(`select:${last}`)).structured.matches).toEqual([last]);
      const run = (await client.callTool({ name: "ExecuteExtraTool", arguments: { tool_name: last, params: { text: "hi" } } })) as { content: { text?: string }[]; isError?: boolean };
      expect({ isError: run.isError ?? false, text: run.content[0]?.text }).toEqual({ isError: false, text: `${last.slice("mcp__forge__".length)} {"text":"hi"}` });
    } finally {
      await client.close();
    }
  });

  test("a server that lies about its groups (a group of every tool, unknown and unspellable names, a name twice, two servers with one name) breaks nothing, and each group is loaded whole by the queries the answers give", async () => {
    const groups = [
      { name: "everything", title: "All tools" },
      { name: "issues", title: "Issues" },
      { name: "issues", title: "Listed twice" },
      { name: "a/b" },
      { name: "x".repeat(65) },
      { name: "loop1", parents: ["loop2"] },
      { name: "loop2", parents: ["loop1"] },
    ];
    const forge = { grouping: true, groups, tools: NAMES.map((name) => ({ name, groups: ["everything", "ghost", "a/b", "loop1", ...(name.endsWith("_issue") ? ["issues"] : [])] })) };
    const other = { grouping: true, groups: [{ name: "everything" }], tools: [{ name: "ping", groups: ["everything"] }] };
    const { daemon, socketPath } = await unitDaemon({ forge, other });
    await using _daemon = daemon;
    const { client, search } = await host(socketPath);
    try {
      const listing = await search("mcp__forge");
      // A name listed again is skipped (the first stays), the unspellable names too, the cycle ends; no group is invented.
      expect((listing.structured.groups as { name: string; size: number; title?: string }[]).map(({ name, size, title }) => [name, size, title])).toEqual([
        ["everything", 250, "All tools"],
        ["issues", 10, "Issues"],
        ["loop1", 250, undefined],
        ["loop2", 250, undefined],
      ]);
      // A bare name two servers have: both spellings offered, nothing loaded.
      expect((await search("select:everything")).structured).toMatchObject({ matches: [], missing: ["everything"], did_you_mean: ["mcp__forge/everything", "mcp__other/everything"] });
      // The group of all 250: the first 100, then the rest by the ready queries the answer names.
      const first = await search("select:mcp__forge/everything");
      const reached = new Set(first.structured.matches as string[]);
      for (const [, query] of first.text.matchAll(/"(select:[^"]+)"/g)) for (const name of (await search(query!)).structured.matches as string[]) reached.add(name);
      expect({ first: (first.structured.matches as string[]).length, reached: reached.size }).toEqual({ first: 100, reached: 250 });
    } finally {
      await client.close();
    }
  });

  test("toolpool search of a server says how many tools it has and the command for the next page", async () => {
    const { daemon, socketPath } = await unitDaemon({ forge: { tools: NAMES.slice(0, 118).map((name) => ({ name })) } });
    await using _daemon = daemon;
    const first = await runBinary(["search", "mcp__forge", "--socket", socketPath]);
    expect(first.stdout.split("\n").filter((line) => line.startsWith("MCP server"))).toEqual(["MCP server forge: tools 1–5 of 118; next: toolpool search 'mcp__forge page:2'"]);
    const last = await runBinary(["search", "mcp__forge page:2", "--max", "100", "--socket", socketPath]);
    expect(last.stdout.split("\n").filter((line) => line.startsWith("mcp__forge__")).length).toBe(18);
    expect(last.stdout).toContain("MCP server forge: tools 101–118 of 118\n");
  });

  test("eager floods: no face sends more than maxToolsInArray, the operator's eager tools keep their places, and what was cut is visible", async () => {
    // Attack: server "aaa" asks for all 60 of its tools to be eager (`anthropic/alwaysLoad`); the
    // operator made four tools eager (a per-tool never, an entry's defer: never, an entry's alwaysLoad
    // list) and misspelt one defer key. The limit is 40.
    const { daemon, socketPath } = await unitDaemon(
      {
        aaa: { tools: NAMES.slice(0, 60).map((name) => ({ name, alwaysLoad: true })) },
        nev: { tools: [{ name: "one" }, { name: "two" }], entry: { defer: "never" } },
        zzz: { tools: [{ name: "listed" }, { name: "mine" }, { name: "other" }], entry: { alwaysLoad: ["listed"] } },
      },
      { maxToolsInArray: 40, defer: { mcp__zzz__mine: "never", Reed: "always" } },
    );
    await using _daemon = daemon;
    using raw = await RawClient.open(socketPath);
    const operator = ["mcp__nev__one", "mcp__nev__two", "mcp__zzz__listed", "mcp__zzz__mine"];
    const sizes: Record<string, number> = {};
    for (const params of [{ delivery: "native" }, { delivery: "proxy" }, { delivery: "standard" }, { delivery: "mid-conversation" }, { toolSearch: "false" }, { delivery: "native", outputSchema: { type: "object" } }]) {
      const { result } = (await raw.request("toolpool/session", params)) as { result: { sessionId: string } };
      const assembled = (await raw.request("toolpool/assemble", { sessionId: result.sessionId, messages: [] })) as { result: { tools: { name: string }[] } };
      sizes[JSON.stringify(params)] = assembled.result.tools.length;
      raw.messages.length = 0;
    }
    expect(Object.values(sizes).every((size) => size <= 40)).toBe(true);
    const { client } = await host(socketPath);
    try {
      const listed: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor === undefined ? {} : { cursor });
        listed.push(...page.tools.map((tool) => tool.name));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      const status = (await raw.request("toolpool/status")).result as { guard?: { maxToolsInArray: number; deferred: string[] } };
      expect({
        hostTools: listed.length <= 40,
        operator: operator.filter((name) => listed.includes(name)),
        guarded: status.guard?.deferred.every((name) => name.startsWith("mcp__aaa__")),
        warned: daemon.stderr().includes("config defer names no tool"),
      }).toEqual({ hostTools: true, operator, guarded: true, warned: true });
    } finally {
      await client.close();
    }
    const text = await runBinary(["status", "--socket", socketPath]);
    expect(text.stdout).toMatch(/warning: \d+ tools deferred by the tool-count guard \(maxToolsInArray 40\): mcp__aaa__/);
  });
});
