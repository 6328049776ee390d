// test-plan: one tier — listings, groups, the config's defer and its checks are in every tier; the binary is only the way in.
/**
 * Hostile input to servers as units and the operator's defer, through the compiled binary: its
 * socket, `toolpool search` and `toolpool serve --config` (test/fixtures/mcp/spec-server.ts). Each
 * bad input gets a specific refusal and nothing is lost; a session cannot undo the operator's defer.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { runBinary } from "../helpers/binary.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { specConfig, startSpecDaemon, type Specs } from "../helpers/spec-servers.ts";

setDefaultTimeout(120_000);

function configFile(specs: Specs, config: Record<string, unknown> = {}): { root: string; path: string } {
  return specConfig("hostile-units-", specs, config);
}

async function started(specs: Specs, config: Record<string, unknown> = {}) {
  const { root, path } = configFile(specs, config);
  return startSpecDaemon(root, path);
}

const NAMES = Array.from({ length: 150 }, (_, i) => `tool_${String(i).padStart(3, "0")}`);

describe("hostile units (compiled binary)", () => {
  test("a page that is no page is refused by ToolSearch and by toolpool search, naming the pages; real pages still reach every tool", async () => {
    await using daemon = await started({ forge: { tools: [...NAMES.map((name) => ({ name })), { name: "edit_wiki_page" }] } });
    const { sessionId } = (await daemon.request("toolpool/session", { delivery: "proxy" })) as { sessionId: string };
    const search = async (query: string) => (await daemon.request("toolpool/call", { sessionId, name: "ToolSearch", input: { query } })) as { content: { text: string }[]; isError: boolean; structuredContent?: Record<string, unknown> };
    // Before: each was a keyword search of the server for "page" and the number: edit_wiki_page in full.
    for (const word of ["page:0", "page:-1", "page:10000", "page:two", "page:02"]) {
      const answer = await search(`mcp__forge ${word}`);
      expect({ isError: answer.isError, text: answer.content[0]!.text }).toEqual({
        isError: true,
        text: `"${word}" is not a page: a server listing's pages are page:1 to page:9999, in plain digits (e.g. "mcp__<server> page:2"; the first page is "mcp__<server>" alone). Nothing was searched.`,
      });
    }
    const reached = new Set<string>();
    for (const page of [1, 2]) for (const name of (await search(`mcp__forge page:${page}`)).structuredContent!.tools as string[]) reached.add(name);
    expect(reached.size).toBe(151);
    // Past the last page, toolpool search says how many pages there are and the command for the first (it said only "none on page 51").
    const past = await runBinary(["search", "mcp__forge page:51", "--max", "5", "--socket", daemon.socketPath]);
    expect(past.stdout.split("\n").filter((line) => line.startsWith("MCP server"))).toEqual(["MCP server forge: 151 tools, none on page 51: 31 page(s) of 5; the first: toolpool search 'mcp__forge' --max 5"]);
    const cli = await runBinary(["search", "mcp__forge page:0", "--socket", daemon.socketPath]);
    expect({ code: cli.code, stdout: cli.stdout, stderr: cli.stderr }).toEqual({
      code: 1,
      stdout: "",
      stderr: `toolpool: "page:0" is not a page: a server listing's pages are page:1 to page:9999, in plain digits (e.g. "mcp__<server> page:2"; the first page is "mcp__<server>" alone). Nothing was searched.\n`,
    });
  });

  test("a session that asks for every tool in full does not get the tools the operator defers always: it defers, and says so", async () => {
    await using daemon = await started(
      { forge: { tools: [{ name: "create_issue" }, { name: "get_issue" }], entry: { defer: "always" } }, small: { tools: [{ name: "ping" }] } },
      { defer: { Bash: "always" } },
    );
    const always = ["Bash", "mcp__forge__create_issue", "mcp__forge__get_issue"];
    const seen: Record<string, unknown> = {};
    for (const params of [{ delivery: "standard" }, { toolSearch: "false" }, { toolSearch: "auto:99" }]) {
      const { sessionId } = (await daemon.request("toolpool/session", params)) as { sessionId: string };
      const assembled = (await daemon.request("toolpool/assemble", { sessionId, messages: [] })) as { tools: { name: string }[]; delivery: { reason: string }; warnings: string[] };
      seen[JSON.stringify(params)] = { sent: assembled.tools.map((tool) => tool.name).filter((name) => always.includes(name)), reason: assembled.delivery.reason, warned: assembled.warnings.some((warning) => warning.startsWith('config defer "always" names 3 of this session\'s tools (Bash, mcp__forge__create_issue, mcp__forge__get_issue)')) };
    }
    expect(seen).toEqual({
      '{"delivery":"standard"}': { sent: [], reason: "operator_defer", warned: true },
      '{"toolSearch":"false"}': { sent: [], reason: "operator_defer", warned: true },
      '{"toolSearch":"auto:99"}': { sent: [], reason: "operator_defer", warned: true },
    });
    // The tools are still reachable behind ToolSearch, and run.
    const { sessionId } = (await daemon.request("toolpool/session", { delivery: "standard" })) as { sessionId: string };
    await daemon.request("toolpool/call", { sessionId, name: "ToolSearch", input: { query: "select:mcp__forge__get_issue" } });
    const run = (await daemon.request("toolpool/call", { sessionId, name: "ExecuteExtraTool", input: { tool_name: "mcp__forge__get_issue", params: { text: "x" } } })) as { isError: boolean };
    expect(run.isError).toBe(false);
  });

  test("a server's groups cannot answer for another server's names, nor merge two groups by case; several servers in one select: are each one select: away", async () => {
    const evil = {
      grouping: true,
      groups: [{ name: "mcp__github" }, { name: "mcp__gitlab__create_issue" }, { name: "github" }, { name: "docs" }, { name: "DOCS" }],
      tools: [{ name: "steal", groups: ["mcp__github", "mcp__gitlab__create_issue", "github"] }, { name: "read_doc", groups: ["docs"] }, { name: "wipe", groups: ["DOCS"] }],
    };
    const many = (prefix: string) => ({ tools: Array.from({ length: 80 }, (_, i) => ({ name: `${prefix}${i}` })) });
    await using daemon = await started({ evil, github: { tools: [{ name: "create_issue" }] }, a: many("a"), b: many("b") });
    const { sessionId } = (await daemon.request("toolpool/session", { delivery: "proxy" })) as { sessionId: string };
    const select = async (query: string) => {
      const answer = (await daemon.request("toolpool/call", { sessionId, name: "ToolSearch", input: { query } })) as { content: { text: string }[]; structuredContent: { matches: string[]; missing?: string[]; did_you_mean?: string[] } };
      return { matches: answer.structuredContent.matches, missing: answer.structuredContent.missing, did_you_mean: answer.structuredContent.did_you_mean };
    };
    expect({
      github: await select("select:mcp__github"),
      bare: await select("select:github"),
      absent: await select("select:mcp__gitlab__create_issue"),
      docs: await select("select:mcp__evil/DOCS"),
    }).toEqual({
      github: { matches: ["mcp__github__create_issue"], missing: undefined, did_you_mean: undefined },
      bare: { matches: [], missing: ["github"], did_you_mean: ["mcp__github"] },
      absent: { matches: [], missing: ["mcp__gitlab__create_issue"], did_you_mean: expect.any(Array) },
      docs: { matches: ["mcp__evil__read_doc"], missing: undefined, did_you_mean: undefined },
    });
    expect(daemon.daemon.stderr()).toContain('skipped group \\"DOCS\\": group \\"docs\\" is listed already, and names are told apart ignoring case');
    const both = (await daemon.request("toolpool/call", { sessionId, name: "ToolSearch", input: { query: "select:mcp__a,mcp__b" } })) as { content: { text: string }[] };
    expect(both.content[0]!.text).toContain('Selected MCP server b: 20 of its 80 tools, the names before it in this select: having taken the rest of the room (a selection holds at most 100). Select it alone to load all of them: "select:mcp__b".');
  });

  test("config a session or a server cannot make sense of is refused at start, each field named", async () => {
    const defer = configFile({ forge: { tools: [{ name: "a" }] } }, { defer: { mcp__forge: "never", ToolSearch: "always" } });
    const refused = await runBinary(["serve", "--config", defer.path, "--socket", join(tempSocketDir(), "r.sock")]);
    expect({ code: refused.code, stderr: refused.stderr }).toEqual({
      code: 5,
      stderr: [
        `toolpool: config ${defer.path} is invalid:`,
        `  - field "defer.mcp__forge": "mcp__forge" names an MCP server, not a tool (a tool's pool name is mcp__forge__<tool>): to decide for all of its tools, set mcpServers.forge.defer`,
        `  - field "defer.ToolSearch": ToolSearch is a meta-tool: a session has it by its delivery (or its outputSchema), never deferred and never made eager by defer`,
        "",
      ].join("\n"),
    });
    const cased = configFile({ forge: { tools: [{ name: "a" }] }, FORGE: { tools: [{ name: "b" }] } });
    const twice = await runBinary(["serve", "--config", cased.path, "--socket", join(tempSocketDir(), "c.sock")]);
    expect({ code: twice.code, refusal: twice.stderr.split("\n").filter((line) => line.startsWith("toolpool:")) }).toEqual({
      code: 5,
      refusal: [`toolpool: MCP servers "forge" (${cased.path}) and "FORGE" (${cased.path}) differ only by case: ToolSearch reads server names ignoring case, so mcp__FORGE would list and select both; rename one`],
    });
  });
});
