import { describe, expect, test } from "bun:test";
import { scanTranscript } from "../../src/assembly/scan-transcript.ts";
import { createToolSearchTool, descriptionFor, type ToolSearchDeps, type ToolSearchEngine } from "../../src/builtin/tool-search.ts";
import { LISTING_PAGE_SIZE } from "../../src/builtin/tool-search-units.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import { searchDocument } from "../../src/core/search-document.ts";
import { executeTool } from "../../src/pipeline/execute.ts";
import { resultText, type ToolResult } from "../../src/tool/result.ts";
import type { ToolContext } from "../../src/tool/tool.ts";
import { DEFAULT_PERMISSIONS } from "../../src/permissions/rules.ts";
import { anthropicCall, indexOf, mcp, samplePool } from "../assembly/fixtures.ts";

const pool = samplePool();
const engine = indexOf(pool);
const context: ToolContext = {
  signal: new AbortController().signal,
  sessionId: "s",
  workspaceRoots: ["/tmp"],
  cwd: "/tmp",
  sessionState: new Map(),
};

// The real engine satisfies the interface ToolSearch codes against.
const engineContract: ToolSearchEngine = new ToolSearchIndex();
void engineContract;

function search(query: string, options: Partial<ToolSearchDeps> & { max_results?: number } = {}): Promise<ToolResult> {
  const { max_results, ...deps } = options;
  const tool = createToolSearchTool({ engine, lookup: pool.get, delivery: "proxy", ...deps });
  const lookup = (name: string) => (name === tool.name ? tool : undefined);
  const input = max_results === undefined ? { query } : { query, max_results };
  return executeTool(tool.name, input, context, { lookup, permissions: DEFAULT_PERMISSIONS });
}

const discoveredBy = (result: ToolResult) => [
  ...scanTranscript(anthropicCall("ToolSearch", {}, result.content as unknown as Record<string, unknown>[])).discovered,
];

describe("ToolSearch (proxy)", () => {
  test("select: resolves names, aliases and raw MCP names; core tools are already loaded; missing ones tolerated", async () => {
    const result = await search("select:create-ticket,FileRead,Nope,mcp__github__get_issue");
    expect(result.isError).toBe(false);
    expect(result.structuredContent).toEqual({
      query: "select:create-ticket,FileRead,Nope,mcp__github__get_issue",
      kind: "select",
      matches: ["mcp__jira__create-ticket", "mcp__github__get_issue"],
      already_loaded: ["Read"],
      missing: ["Nope"],
    });
    const text = resultText(result);
    expect(text).toContain("Already loaded as core tool(s): Read. Call them directly with your normal tool interface — not through ExecuteExtraTool.");
    expect(text).toContain("Not found: Nope.");
    expect(text).toContain("### mcp__jira__create-ticket\nOpen a Jira ticket.\nInput schema: {\"type\":\"object\"");
    expect(text.endsWith("[toolpool discovered: mcp__jira__create-ticket, mcp__github__get_issue]")).toBe(true);
    expect(discoveredBy(result)).toEqual(["mcp__jira__create-ticket", "mcp__github__get_issue"]);
  });

  test("keyword search returns deferred tools only, ranked, with schemas", async () => {
    const result = await search("github issue");
    expect(result.structuredContent?.matches).toEqual(["mcp__github__create_issue", "mcp__github__get_issue"]);
    expect(resultText(result)).toContain('ExecuteExtraTool {"tool_name": "<name>", "params": {...}}');
    expect(discoveredBy(result)).toEqual(["mcp__github__create_issue", "mcp__github__get_issue"]);
  });

  test("max_results bounds a keyword search", async () => {
    expect((await search("github issue", { max_results: 1 })).structuredContent?.matches).toHaveLength(1);
    expect((await search("github issue", { defaultMaxResults: 1 })).structuredContent?.matches).toHaveLength(1);
  });

  test("discover: shows schemas and loads nothing", async () => {
    const result = await search("discover:slack message");
    const text = resultText(result);
    expect(text).toContain("### mcp__slack__post_message");
    expect(text).toContain("Input schema:");
    expect(text).toContain('not loaded. To use one, call ToolSearch with "select:<name>" first.');
    expect(text).not.toContain("[toolpool discovered:");
    expect(discoveredBy(result)).toEqual([]);
  });

  test("an exact core tool name: already loaded, not 'no match'", async () => {
    const result = await search("Read");
    expect(result.structuredContent).toMatchObject({ matches: [], already_loaded: ["Read"] });
  });

  test("a near miss gets a did-you-mean", async () => {
    const result = await search("select:mcp__github__create_isue");
    expect(result.structuredContent).toMatchObject({ missing: ["mcp__github__create_isue"], did_you_mean: ["mcp__github__create_issue"] });
    expect(resultText(result)).toContain("Did you mean: mcp__github__create_issue?");
  });

  test("an empty result names the servers still connecting", async () => {
    const result = await search("kanban roadmap", { pendingServers: () => ["linear"] });
    expect(result.structuredContent).toMatchObject({ matches: [], pending_mcp_servers: ["linear"] });
    expect(resultText(result)).toContain("MCP servers still connecting: linear.");
  });

  test("a result that found tools still names the servers still connecting", async () => {
    const found = await search("github issue", { pendingServers: () => ["linear"] });
    expect(found.structuredContent).toMatchObject({ matches: ["mcp__github__create_issue", "mcp__github__get_issue"], pending_mcp_servers: ["linear"] });
    expect(resultText(found)).toContain("MCP servers still connecting: linear. Their tools are not searchable yet");
    const settled = await search("github issue", { pendingServers: () => [] });
    expect(settled.structuredContent).not.toHaveProperty("pending_mcp_servers");
    expect(resultText(settled)).not.toContain("still connecting");
  });

  test("a connecting server whose tools come from the cache is marked stale, not absent", async () => {
    const found = await search("github issue", { pendingServers: () => ["github", "linear"], cachedServers: () => ["github"] });
    expect(found.structuredContent).toMatchObject({
      pending_mcp_servers: ["linear"],
      stale_mcp_servers: ["github"],
      stale_matches: ["mcp__github__create_issue", "mcp__github__get_issue"],
    });
    const text = resultText(found);
    expect(text).toContain("MCP servers still connecting: linear.");
    expect(text).toContain("searched from their cached tool lists (may be stale until they connect): github.");
  });

  test("matches from a server waiting for a login are marked, with the command the user runs; others are not", async () => {
    const found = await search("github issue", { loginServers: () => ["github", "linear"] });
    expect(found.structuredContent).toMatchObject({
      needs_login_mcp_servers: ["github"],
      needs_login_matches: ["mcp__github__create_issue", "mcp__github__get_issue"],
    });
    expect(resultText(found)).toContain("Tools of MCP server github need a login before they can run: ask the user to run `toolpool auth login github`, then call them.");
    // linear waits for a login too, but nothing of it matched: no note about it.
    expect(resultText(found)).not.toContain("linear");
    const other = await search("jira ticket", { loginServers: () => ["github"] });
    expect(other.structuredContent).not.toHaveProperty("needs_login_mcp_servers");
    expect(resultText(other)).not.toContain("need a login");
  });

  test("mcp__server alone lists that server's deferred tools without loading them", async () => {
    const result = await search("mcp__github");
    expect(result.structuredContent).toEqual({
      query: "mcp__github",
      kind: "server",
      server: "github",
      tools: ["mcp__github__create_issue", "mcp__github__get_issue"],
      total: 2,
      page: 1,
      pages: 1,
    });
    const text = resultText(result);
    expect(text).toStartWith("MCP server github: 2 deferred tool(s), not loaded. Load the ones you need");
    expect(text).not.toContain("page:");
    expect(text).toContain("- mcp__github__create_issue: ");
    expect(discoveredBy(result)).toEqual([]);
  });

  test("a server with more tools than a page: every tool is reachable, the listing says how many and how to get the rest", async () => {
    // The issue's gitlab case: 118 tools, of which only the first 100 were listed, with no way on.
    const names = Array.from({ length: 118 }, (_, i) => `tool_${String(i).padStart(3, "0")}`);
    const bigPool = samplePool({ mcpTools: names.map((name) => mcp("gitlab", name, { description: `Does ${name}. More words.` })) });
    const bigEngine = indexOf(bigPool);
    const list = (query: string) => {
      const tool = createToolSearchTool({ engine: bigEngine, lookup: bigPool.get, delivery: "proxy" });
      return executeTool(tool.name, { query }, context, { lookup: (name) => (name === tool.name ? tool : undefined), permissions: DEFAULT_PERMISSIONS });
    };
    const first = await list("mcp__gitlab");
    expect(first.structuredContent).toMatchObject({ server: "gitlab", total: 118, page: 1, pages: 2 });
    expect((first.structuredContent!.tools as string[]).length).toBe(100);
    expect(resultText(first)).toStartWith("MCP server gitlab: 118 deferred tool(s), not loaded. Page 1 of 2: tools 1–100.");
    expect(resultText(first)).toContain('18 more: query "mcp__gitlab page:2" for the next page.');
    const second = await list("mcp__gitlab page:2");
    expect(second.structuredContent).toMatchObject({ total: 118, page: 2, pages: 2 });
    expect(second.structuredContent!.tools).toEqual(names.slice(100).map((name) => `mcp__gitlab__${name}`));
    expect(resultText(second)).toStartWith("MCP server gitlab: 118 deferred tool(s), not loaded. Page 2 of 2: tools 101–118.");
    expect(resultText(second)).not.toContain("more: query");
    const all = [...(first.structuredContent!.tools as string[]), ...(second.structuredContent!.tools as string[])];
    expect(new Set(all).size).toBe(118);
    // Any case; a page past the end says so instead of "no tools".
    expect((await list("mcp__gitlab PAGE:2")).structuredContent).toMatchObject({ page: 2, tools: second.structuredContent!.tools });
    const past = await list("mcp__gitlab page:3");
    expect(past.structuredContent).toMatchObject({ total: 118, page: 3, pages: 2, tools: [] });
    expect(resultText(past)).toBe('MCP server gitlab has 118 deferred tool(s) on 2 page(s); page 3 is past the last. Query "mcp__gitlab" for the first page.');
  });

  test("a listing of two servers is named and paged as one: following its pages reaches every tool of both", async () => {
    // Attack: "mcp__gitlab mcp__big" said "MCP server gitlab: 168 deferred tool(s)" and pointed to
    // "mcp__gitlab page:2", the first server's alone: big's tools were on no page the path gave.
    const names = (count: number) => Array.from({ length: count }, (_, i) => `tool_${String(i).padStart(3, "0")}`);
    const bigPool = samplePool({ mcpTools: [...names(118).map((name) => mcp("gitlab", name)), ...names(50).map((name) => mcp("big", name))] });
    const tool = createToolSearchTool({ engine: indexOf(bigPool), lookup: bigPool.get, delivery: "proxy" });
    const run = (query: string) => executeTool(tool.name, { query }, context, { lookup: (name) => (name === tool.name ? tool : undefined), permissions: DEFAULT_PERMISSIONS });
    const reached = new Set<string>();
    const heads: string[] = [];
    for (let query: string | undefined = "mcp__gitlab mcp__big"; query !== undefined; ) {
      const result = await run(query);
      heads.push(resultText(result).split("\n")[0]!);
      for (const name of result.structuredContent!.tools as string[]) reached.add(name);
      query = /query "([^"]+)" for the next page/.exec(resultText(result))?.[1];
    }
    expect({ heads, reached: reached.size }).toEqual({
      heads: [
        'MCP servers gitlab, big: 168 deferred tool(s), not loaded. Page 1 of 2: tools 1–100. Load the ones you need with ToolSearch "select:<name>,<name>".',
        'MCP servers gitlab, big: 168 deferred tool(s), not loaded. Page 2 of 2: tools 101–168. Load the ones you need with ToolSearch "select:<name>,<name>".',
      ],
      reached: 168,
    });
  });

  test("a listing of 25 servers is paged as the query that made it: following its pages reaches every tool of all of them", async () => {
    // Attack: the servers a listing spans were looked up one by one for the first 20 named only, so
    // the next page's query named 20 servers — another, shorter listing — and the last 50 tools were
    // on no page the path gave (and every named server cost the serving thread one more walk of it).
    const servers = Array.from({ length: 25 }, (_, i) => `s${String(i).padStart(2, "0")}`);
    const bigPool = samplePool({ mcpTools: servers.flatMap((server) => Array.from({ length: 10 }, (_, i) => mcp(server, `tool_${i}`))) });
    const tool = createToolSearchTool({ engine: indexOf(bigPool), lookup: bigPool.get, delivery: "proxy" });
    const run = (query: string) => executeTool(tool.name, { query }, context, { lookup: (name) => (name === tool.name ? tool : undefined), permissions: DEFAULT_PERMISSIONS });
    const reached = new Set<string>();
    let pages = 0;
    for (let query: string | undefined = servers.map((server) => `mcp__${server}`).join(" "); query !== undefined && pages < 10; pages++) {
      const result = await run(query);
      for (const name of result.structuredContent!.tools as string[]) reached.add(name);
      query = /query "([^"]+)" for the next page/.exec(resultText(result))?.[1];
    }
    expect({ pages, reached: reached.size }).toEqual({ pages: 3, reached: 250 });
  });

  test("a server whose tools are loaded already: its listing and its selection name them as loaded, not \"0 tools\"", async () => {
    // Attack: every tool of "nev" eager (defer: never): select:mcp__nev answered "No deferred tools
    // matched" and "Selected MCP server nev as a whole: its 0 tool(s)"; its listing named none.
    const unitPool = samplePool({
      mcpTools: [mcp("nev", "one", { alwaysLoad: true }), mcp("nev", "two", { alwaysLoad: true }), mcp("half", "a", { alwaysLoad: true }), mcp("half", "b"), mcp("half", "c")],
    });
    const tool = createToolSearchTool({ engine: indexOf(unitPool), lookup: unitPool.get, delivery: "proxy" });
    const run = (query: string) => executeTool(tool.name, { query }, context, { lookup: (name) => (name === tool.name ? tool : undefined), permissions: DEFAULT_PERMISSIONS });
    const selected = await run("select:mcp__nev");
    expect(selected.structuredContent).toMatchObject({ matches: [], already_loaded: ["mcp__nev__one", "mcp__nev__two"] });
    expect(resultText(selected)).toBe(
      "Already loaded as core tool(s): mcp__nev__one, mcp__nev__two. Call them directly with your normal tool interface — not through ExecuteExtraTool.\nSelected MCP server nev as a whole: it has no deferred tools.",
    );
    expect(resultText(await run("mcp__nev"))).toBe("MCP server nev has no deferred tools to load.\nIts 2 tool(s) loaded already as core tools (call them directly, no select): mcp__nev__one, mcp__nev__two.");
    expect(resultText(await run("mcp__half"))).toContain("Also its 1 tool(s) loaded already as core tools (call them directly, no select): mcp__half__a.");
    expect((await run("select:mcp__half")).structuredContent).toMatchObject({ matches: ["mcp__half__b", "mcp__half__c"], already_loaded: ["mcp__half__a"] });
  });

  test("select:mcp__<server> loads the server as a unit; past 100 tools it says how many and where the rest are", async () => {
    const small = await search("select:mcp__github");
    expect(small.structuredContent).toMatchObject({
      kind: "select",
      matches: ["mcp__github__create_issue", "mcp__github__get_issue"],
      selected_servers: [{ server: "github", total: 2, selected: 2 }],
    });
    expect(resultText(small)).toContain("Selected MCP server github as a whole: its 2 tool(s).");
    expect(discoveredBy(small)).toEqual(["mcp__github__create_issue", "mcp__github__get_issue"]);
    const names = Array.from({ length: 118 }, (_, i) => `tool_${String(i).padStart(3, "0")}`);
    const bigPool = samplePool({ mcpTools: names.map((name) => mcp("gitlab", name, { description: `Does ${name}.` })) });
    const tool = createToolSearchTool({ engine: indexOf(bigPool), lookup: bigPool.get, delivery: "native" });
    const big = await executeTool(tool.name, { query: "select:mcp__github__get_issue,mcp__gitlab" }, context, { lookup: (name) => (name === tool.name ? tool : undefined), permissions: DEFAULT_PERMISSIONS });
    expect(big.structuredContent).toMatchObject({ selected_servers: [{ server: "gitlab", total: 118, selected: 99 }] });
    expect((big.structuredContent!.matches as string[]).length).toBe(100);
    expect(resultText(big)).toContain('Selected MCP server gitlab as a whole: 99 of its 118 tools (a selection holds at most 100). List the rest with "mcp__gitlab page:1" and select them by name.');
    expect(resultText(big)).not.toContain("Its groups");
  });

  test("a group's spelling asked as keywords (no select:) is answered with its select: form, not only 'no match'", async () => {
    // Attack: listings write groups as "select:mcp__forge/<group>"; a model that queried "mcp__forge/issues" got "No deferred tools matched".
    const pool = samplePool({ mcpTools: [mcp("forge", "create_issue", { groups: ["issues"] }), mcp("forge", "list_issues", { groups: ["issues"] })] });
    const engine = new ToolSearchIndex();
    for (const each of pool.tools) engine.add(searchDocument(each));
    const tool = createToolSearchTool({ engine, lookup: pool.get, delivery: "proxy" });
    const run = (query: string) => executeTool(tool.name, { query }, context, { lookup: (name) => (name === tool.name ? tool : undefined), permissions: DEFAULT_PERMISSIONS });
    expect(resultText(await run("mcp__forge/issues"))).toBe('Did you mean: select:mcp__forge/issues?\nNo deferred tools matched "mcp__forge/issues".');
    expect(resultText(await run("MCP__forge/Issues"))).toBe('Did you mean: select:MCP__forge/Issues?\nNo deferred tools matched "MCP__forge/Issues".');
    // A spelling of no group, or a longer query, is "no match" alone, as before.
    expect(resultText(await run("mcp__forge/nothing"))).toBe('No deferred tools matched "mcp__forge/nothing".');
    expect(resultText(await run("mcp__forge/issues/x"))).toBe('No deferred tools matched "mcp__forge/issues/x".');
  });

  test("a server or group named twice in one select: (any case) is one selection, noted once", async () => {
    // Attack: select:issues,ISSUES listed the group twice in selected_groups, and its note twice.
    const pool = samplePool({ mcpTools: [mcp("forge", "create_issue", { groups: ["issues"] }), mcp("forge", "list_issues", { groups: ["issues"] }), mcp("forge", "read_file")] });
    const engine = new ToolSearchIndex();
    for (const each of pool.tools) engine.add(searchDocument(each));
    const tool = createToolSearchTool({ engine, lookup: pool.get, delivery: "proxy" });
    const run = (query: string) => executeTool(tool.name, { query }, context, { lookup: (name) => (name === tool.name ? tool : undefined), permissions: DEFAULT_PERMISSIONS });
    const groups = await run("select:mcp__forge/issues,MCP__FORGE/ISSUES,mcp__forge/issues");
    expect(groups.structuredContent).toMatchObject({ matches: ["mcp__forge__create_issue", "mcp__forge__list_issues"], selected_groups: [{ server: "forge", group: "issues", total: 2, selected: 2 }] });
    expect((groups.structuredContent!.selected_groups as unknown[]).length).toBe(1);
    const servers = await run("select:mcp__forge,MCP__Forge");
    expect(servers.structuredContent).toMatchObject({ selected_servers: [{ server: "forge", total: 3, selected: 3 }] });
    expect((servers.structuredContent!.selected_servers as unknown[]).length).toBe(1);
    expect(resultText(servers).split("\n").filter((line) => line.startsWith("Selected MCP server"))).toHaveLength(1);
  });

  test("servers cut short by the names before them in one select: are each one select: away, not a listing to pick from", async () => {
    // Attack: select:mcp__a,mcp__b,mcp__c of 80 tools each: b got 20 and c none, each told to list
    // "page:1" (all 80 of its tools) and pick the rest out by name, c "selected as a whole" with 0.
    const servers = ["a", "b", "c"];
    const pool = samplePool({ mcpTools: servers.flatMap((server) => Array.from({ length: 80 }, (_, i) => mcp(server, `t${String(i).padStart(2, "0")}`))) });
    const tool = createToolSearchTool({ engine: indexOf(pool), lookup: pool.get, delivery: "proxy" });
    const run = (query: string) => executeTool(tool.name, { query }, context, { lookup: (name) => (name === tool.name ? tool : undefined), permissions: DEFAULT_PERMISSIONS });
    const all = await run("select:mcp__a,mcp__b,mcp__c");
    const notes = resultText(all).split("\n").filter((line) => line.startsWith("Selected MCP server"));
    expect(notes).toEqual([
      "Selected MCP server a as a whole: its 80 tool(s).",
      'Selected MCP server b: 20 of its 80 tools, the names before it in this select: having taken the rest of the room (a selection holds at most 100). Select it alone to load all of them: "select:mcp__b".',
      'Selected MCP server c: 0 of its 80 tools, the names before it in this select: having taken the rest of the room (a selection holds at most 100). Select it alone to load all of them: "select:mcp__c".',
    ]);
    // Following the answer reaches every tool.
    const reached = new Set(discoveredBy(all));
    for (const [, query] of resultText(all).matchAll(/"(select:mcp__[bc])"/g)) for (const name of discoveredBy(await run(query!))) reached.add(name);
    expect(reached.size).toBe(240);
  });

  test("a selection too large for one answer names what it left out, each one a select: away; nothing is lost between the pages", async () => {
    // Attack: 118 tools of ~1,700-character descriptions. select:mcp__gitlab showed 55 schemas, said
    // "45 more match(es) not shown: narrow the query" and "List the rest with mcp__gitlab page:2",
    // where tools 101–118 are: tools 56–100 were on no path the answer gave.
    const names = Array.from({ length: 118 }, (_, i) => `tool_${String(i).padStart(3, "0")}`);
    const long = (name: string) => `Does ${name}. ${"Details of its parameters and of what it changes. ".repeat(34)}`;
    const bigPool = samplePool({ mcpTools: names.map((name) => mcp("gitlab", name, { description: long(name) })) });
    const tool = createToolSearchTool({ engine: indexOf(bigPool), lookup: bigPool.get, delivery: "proxy" });
    const run = (query: string) => executeTool(tool.name, { query }, context, { lookup: (name) => (name === tool.name ? tool : undefined), permissions: DEFAULT_PERMISSIONS });
    const first = await run("select:mcp__gitlab");
    const text = resultText(first);
    const shown = first.structuredContent!.matches as string[];
    const rest = first.structuredContent!.not_shown as string[];
    expect({ cut: shown.length < 100, whole: [...shown, ...rest], underCap: text.length <= 100_000, discovered: discoveredBy(first) }).toEqual({
      cut: true,
      whole: names.slice(0, 100).map((name) => `mcp__gitlab__${name}`),
      underCap: true,
      discovered: shown,
    });
    // Each ready query the answer gives is followed as written; with page 2 of the listing, every tool is reached.
    const queries = [...text.matchAll(/"(select:[^"]+)"/g)].map((match) => match[1]!);
    const reached = new Set(discoveredBy(first));
    for (const query of queries) for (const name of discoveredBy(await run(query))) reached.add(name);
    expect(text).toContain('List the rest with "mcp__gitlab page:2"');
    const page2 = await run("mcp__gitlab page:2");
    for (const name of page2.structuredContent!.tools as string[]) reached.add(name);
    expect(reached.size).toBe(118);
  });

  test("a ready select: query holds at most 100 names and fits what the engine reads (4,096 characters)", async () => {
    const { selectQueries } = await import("../../src/builtin/tool-search-notes.ts");
    const names = Array.from({ length: 150 }, (_, i) => `mcp__a_server_with_a_long_name__${"a_tool_with_a_long_name_".repeat(1)}${i}`);
    const queries = [...selectQueries(names).matchAll(/"(select:[^"]+)"/g)].map((match) => match[1]!);
    expect({
      names: queries.flatMap((query) => query.slice("select:".length).split(",")),
      fit: queries.every((query) => query.length <= 4096 && query.split(",").length <= 100),
    }).toEqual({ names, fit: true });
    expect(queries.length).toBe(3);
  });

  test("a server too large for one selection names its groups, with the server's words for them, as the way to load the rest", async () => {
    const names = Array.from({ length: 118 }, (_, i) => `tool_${String(i).padStart(3, "0")}`);
    const groupOf = (i: number) => (i < 60 ? "issues" : "merge_requests");
    const groupInfo = { issues: { title: "Issue tracking", description: "Open, edit and close issues. More words." }, merge_requests: { description: "Review code." } };
    const bigPool = samplePool({ mcpTools: names.map((name, i) => mcp("gitlab", name, { description: `Does ${name}.`, groups: [groupOf(i)], groupInfo: { [groupOf(i)]: groupInfo[groupOf(i)] } })) });
    const info = (server: string) => new Map(server === "gitlab" ? Object.entries(groupInfo) : []);
    // The daemon's documents (groups included), as core/search-document.ts makes them.
    const engine = new ToolSearchIndex();
    for (const each of bigPool.tools) engine.add(searchDocument(each));
    const tool = createToolSearchTool({ engine, lookup: bigPool.get, delivery: "proxy", groupInfo: info });
    const run = (query: string) => executeTool(tool.name, { query }, context, { lookup: (name) => (name === tool.name ? tool : undefined), permissions: DEFAULT_PERMISSIONS });
    const groupLines = [
      'Its groups (Load a whole group with ToolSearch "select:mcp__gitlab/<group>"):',
      "- group issues (60 tools): Issue tracking — Open, edit and close issues.",
      "- group merge_requests (58 tools): Review code.",
    ].join("\n");
    expect(resultText(await run("select:mcp__gitlab"))).toContain(groupLines);
    // The listing names them the same way; a server selected whole does not need them.
    expect(resultText(await run("mcp__gitlab"))).toContain(groupLines);
    expect(resultText(await run("select:mcp__github"))).not.toContain("Its groups");
  });

  test("a group too large for one selection names the rest of its tools, as ready select: queries that reach every member", async () => {
    // Attack: "select the rest by name" — but no listing says which tools a group holds, and the
    // group's tools (every other one here) are spread over the server's listing pages.
    const names = Array.from({ length: 460 }, (_, i) => `tool_${String(i).padStart(3, "0")}`);
    const bigPool = samplePool({
      mcpTools: names.map((name, i) => mcp("gitlab", name, { description: `Does ${name}.`, groups: [...(i % 2 === 1 ? ["half"] : []), "All"] })),
    });
    const engine = new ToolSearchIndex();
    for (const each of bigPool.tools) engine.add(searchDocument(each));
    const tool = createToolSearchTool({ engine, lookup: bigPool.get, delivery: "native" });
    const run = (query: string) => executeTool(tool.name, { query }, context, { lookup: (name) => (name === tool.name ? tool : undefined), permissions: DEFAULT_PERMISSIONS });
    const half = await run("select:mcp__gitlab/half");
    const members = names.filter((_, i) => i % 2 === 1).map((name) => `mcp__gitlab__${name}`);
    const reached = new Set(half.structuredContent!.matches as string[]);
    const queries = [...resultText(half).matchAll(/"(select:[^"]+)"/g)].map((match) => match[1]!);
    for (const query of queries) for (const name of (await run(query)).structuredContent!.matches as string[]) reached.add(name);
    expect({ selected: reached.size, all: [...reached].sort() }).toEqual({ selected: 230, all: members });
    expect(resultText(half)).toContain("Selected group half of MCP server gitlab: 100 of its 230 tools (a selection holds at most 100). The rest: ToolSearch \"select:mcp__gitlab__tool_201,");
    // Past three selections' worth the note stops naming, says how many it did not, and where they are.
    const all = await run("select:mcp__gitlab/all");
    const named = [...resultText(all).matchAll(/"(select:[^"]+)"/g)].flatMap((match) => match[1]!.slice("select:".length).split(","));
    expect({ named: named.length, first: named[0], last: named.at(-1) }).toEqual({ named: 300, first: "mcp__gitlab__tool_100", last: "mcp__gitlab__tool_399" });
    expect(resultText(all)).toContain('60 more of the group are not named here: find them by keyword within the server ("mcp__gitlab <words>").');
  });

  test("a select: of many large groups names at most 300 of their other tools in all, and the answer stays whole", async () => {
    // Attack: 60 groups of all 460 tools in one select: each note named 300 more names (18,000 in all),
    // past the answer's cap; the pipeline cut the answer and its discovered line.
    const names = Array.from({ length: 460 }, (_, i) => `tool_${String(i).padStart(3, "0")}`);
    const groups = Array.from({ length: 16 }, (_, i) => `g${i}`);
    const bigPool = samplePool({ mcpTools: names.map((name) => mcp("gitlab", name, { description: `Does ${name}.`, groups })) });
    const engine = new ToolSearchIndex();
    for (const each of bigPool.tools) engine.add(searchDocument(each));
    const tool = createToolSearchTool({ engine, lookup: bigPool.get, delivery: "proxy" });
    const result = await executeTool(tool.name, { query: `select:${groups.map((group) => `mcp__gitlab/${group}`).join(",")}` }, context, { lookup: (name) => (name === tool.name ? tool : undefined), permissions: DEFAULT_PERMISSIONS });
    const text = resultText(result);
    const named = [...text.matchAll(/"(select:mcp__gitlab__[^"]+)"/g)].flatMap((match) => match[1]!.slice("select:".length).split(","));
    expect({
      named: named.length,
      whole: !text.includes("[toolpool: output truncated"),
      discovered: discoveredBy(result).length,
      noRoom: text.split("\n").filter((line) => line.includes("this answer has no room to name the rest")).length,
    }).toEqual({ named: 300, whole: true, discovered: 100, noRoom: 15 });
  });

  test("the notes of three large groups of a 5,000-tool server cost the pool about one look-up per member, not page walks of the server", async () => {
    // Attack: each group note read up to 20 listing pages of the server for the group's other
    // members, every page a walk of all 5,000 tools through the session's filter: one select: of
    // three spread-out groups held the daemon's serving thread 140-530 ms (compiled binary, pings).
    const names = Array.from({ length: 5_000 }, (_, i) => `tool_${String(i).padStart(4, "0")}`);
    const bigPool = samplePool({ mcpTools: names.map((name, i) => mcp("big", name, { description: `Does ${name}.`, groups: i % 37 < 3 ? [`g${i % 37}`] : [] })) });
    const engine = new ToolSearchIndex();
    for (const each of bigPool.tools) engine.add(searchDocument(each));
    let lookups = 0;
    const tool = createToolSearchTool({ engine, lookup: (name) => (lookups++, bigPool.get(name)), delivery: "proxy" });
    const result = await executeTool(tool.name, { query: "select:mcp__big/g0,mcp__big/g1,mcp__big/g2" }, context, { lookup: (name) => (name === tool.name ? tool : undefined), permissions: DEFAULT_PERMISSIONS });
    const text = resultText(result);
    const named = [...text.matchAll(/"(select:mcp__big__[^"]+)"/g)].flatMap((match) => match[1]!.slice("select:".length).split(","));
    const members = names.filter((_, i) => i % 37 < 3).map((name) => `mcp__big__${name}`);
    // Every member is selected or named once (3 × 136 = 408 members; 100 selected, 300 named, 8 counted).
    expect({ named: named.length, unique: new Set(named).size, fromGroups: named.every((name) => members.includes(name)), selected: discoveredBy(result).length }).toEqual({ named: 300, unique: 300, fromGroups: true, selected: 100 });
    expect(named.some((name) => (result.structuredContent!.matches as string[]).includes(name))).toBe(false);
    expect(text).toContain("8 more of the group are not named here");
    expect(JSON.stringify(result.structuredContent!.selected_groups)).not.toContain("rest");
    // The walks made ~300,000 look-ups; the members' own list needs a few per member.
    expect(lookups).toBeLessThan(10 * members.length);
  });

  test("a listing of a 5,000-tool server with groups and loaded tools asks the engine once and the pool about once per tool", async () => {
    // Attack: one listing answer walked the server six times (the model's query, its page's, the
    // loaded tools', each with another walk for its groups' sizes): ~30,000 look-ups, ~35 ms of the
    // serving thread (compiled binary, pings from a second connection).
    const names = Array.from({ length: 5_000 }, (_, i) => `tool_${String(i).padStart(4, "0")}`);
    const bigPool = samplePool({ mcpTools: names.map((name, i) => mcp("big", name, { description: `Does ${name}.`, groups: [`g${i % 30}`] })) });
    const index = new ToolSearchIndex();
    for (const each of bigPool.tools) index.add(searchDocument(each));
    let queries = 0;
    const counted: ToolSearchEngine = { query: (text, options) => (queries++, index.query(text, options)), peek: (text, options) => (queries++, index.query(text, options)) };
    let lookups = 0;
    const loadedOnes = new Set(names.filter((_, i) => i % 200 === 7).map((name) => `mcp__big__${name}`));
    const tool = createToolSearchTool({ engine: counted, lookup: (name) => (lookups++, bigPool.get(name)), isDeferred: (each) => !loadedOnes.has(each.name), delivery: "proxy" });
    const run = (query: string) => executeTool(tool.name, { query }, context, { lookup: (name) => (name === tool.name ? tool : undefined), permissions: DEFAULT_PERMISSIONS });
    for (const [query, first] of [["mcp__big", "tool_0000"], ["mcp__big page:3", "tool_0201"]] as const) {
      queries = 0;
      lookups = 0;
      const result = await run(query);
      const text = resultText(result);
      expect(text.split("\n")[0]).toBe(`MCP server big: 4975 deferred tool(s), not loaded. Page ${query.endsWith("3") ? 3 : 1} of 50: tools ${query.endsWith("3") ? "201–300" : "1–100"}. Load the ones you need with ToolSearch "select:<name>,<name>".`);
      expect(text).toContain("Also its 25 tool(s) loaded already as core tools (call them directly, no select): mcp__big__tool_0007, mcp__big__tool_0207");
      expect(text).toContain(", and 5 more.");
      expect((result.structuredContent!.tools as string[])[0]).toBe(`mcp__big__${first}`);
      expect((result.structuredContent!.groups as { size: number }[]).reduce((sum, group) => sum + group.size, 0)).toBe(4975);
      expect(queries).toBe(1);
      // The six walks made ~30,000 look-ups; one walk needs one a tool, and one a tool shown.
      expect(lookups).toBeLessThan(names.length + 2 * LISTING_PAGE_SIZE);
    }
  });

  test("a tool whose definition no answer holds is shown as its signature, not cut short, and stays reachable", async () => {
    // Attack: a schema may be 256K characters; a proxy answer showed it anyway (the first tool always
    // was), the pipeline cut the answer at 100,000 characters mid-schema with its discovered line, and
    // the tools after it were not shown. Named only, a proxy session could never run it.
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 2_000; i++) properties[`p${i}`] = { type: "string", description: "x".repeat(100) };
    const bigPool = samplePool({ mcpTools: [mcp("big", "huge", { schema: { type: "object", properties, required: ["p0"] } }), mcp("big", "small")] });
    const engine = new ToolSearchIndex();
    for (const each of bigPool.tools) engine.add(searchDocument(each));
    for (const compact of [false, true]) {
      const delivered: string[] = [];
      const tool = createToolSearchTool({ engine, lookup: bigPool.get, delivery: "proxy", compact, onDelivered: (names) => delivered.push(...names) });
      const run = (query: string) => executeTool(tool.name, { query }, context, { lookup: (name) => (name === tool.name ? tool : undefined), permissions: DEFAULT_PERMISSIONS });
      const selected = await run("select:mcp__big__huge,mcp__big__small");
      const text = resultText(selected);
      expect({
        whole: !text.includes("[toolpool: output truncated"),
        short: text.length < 20_000,
        discovered: discoveredBy(selected),
        tooLarge: selected.structuredContent!.too_large,
        said: text.includes("Shown as signatures, each definition longer than an answer holds (100,000 characters): mcp__big__huge."),
        signature: text.includes("mcp__big__huge(p0: string, p1?: string"),
        delivered,
      }).toEqual({
        whole: true,
        short: true,
        discovered: ["mcp__big__huge", "mcp__big__small"],
        tooLarge: ["mcp__big__huge"],
        said: true,
        signature: true,
        delivered: ["mcp__big__huge", "mcp__big__small"],
      });
    }
  });

  test("select: of something that is neither a tool nor mcp__<server> of a known server is missing, as before", async () => {
    const result = await search("select:mcp__nosuch,mcp__,mcp__github__nope");
    expect(result.structuredContent).toMatchObject({ missing: ["mcp__nosuch", "mcp__", "mcp__github__nope"] });
    expect(result.structuredContent).not.toHaveProperty("selected_servers");
  });

  test("page:N is only a page number when N is 1–9999; any other page: word is refused, not searched as a word", async () => {
    // The engine reads it as a plain word; ToolSearch refuses it (tool-search-page.ts, and the hostile-queries test).
    for (const query of ["mcp__github page:0", "mcp__github page:99999999"]) {
      const result = await search(query);
      expect({ isError: result.isError, structured: result.structuredContent }).toEqual({ isError: true, structured: undefined });
    }
  });

  test("a query that matches nothing says so", async () => {
    expect(resultText(await search("xyzzy"))).toBe('No deferred tools matched "xyzzy".');
  });

  test("a custom isDeferred is honoured", async () => {
    const result = await search("select:Bash", { isDeferred: (tool) => tool.name === "Bash" });
    expect(result.structuredContent?.matches).toEqual(["Bash"]);
  });

  test("invalid input is refused by the pipeline with a fix", async () => {
    const result = await search("");
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain("Invalid input for ToolSearch");
  });
});

describe("ToolSearch (native)", () => {
  test("tool_reference blocks plus a short text", async () => {
    const result = await search("select:mcp__github__create_issue,Read", { delivery: "native" });
    expect(result.content).toEqual([
      {
        type: "text",
        text: "Loaded 1 tool(s): mcp__github__create_issue. Call them directly.\nAlready loaded as core tool(s): Read. Call them directly with your normal tool interface — not through ExecuteExtraTool.",
      },
      { type: "tool_reference", tool_name: "mcp__github__create_issue" },
    ]);
    expect(discoveredBy(result)).toEqual(["mcp__github__create_issue"]);
  });

  test("discover: is text, not references", async () => {
    const result = await search("discover:github", { delivery: "native" });
    expect(result.content.every((block) => block.type === "text")).toBe(true);
  });
});

describe("ToolSearch (mid-conversation)", () => {
  test("text and the discovered line, no tool_reference blocks (the daemon's tool_addition loads them)", async () => {
    const result = await search("select:mcp__github__create_issue,Read", { delivery: "mid-conversation" });
    expect(result.content).toEqual([
      {
        type: "text",
        text: "Loaded 1 tool(s): mcp__github__create_issue. They are added to your tools before your next turn; call them directly then.\nAlready loaded as core tool(s): Read. Call them directly with your normal tool interface — not through ExecuteExtraTool.\n\n[toolpool discovered: mcp__github__create_issue]",
      },
    ]);
    expect(discoveredBy(result)).toEqual(["mcp__github__create_issue"]);
  });

  test("a tool the conversation's fixed tools array cannot take is named, not loaded, and not counted found", async () => {
    // Attack: the answer said every match was loaded and the session counted them found, while the
    // next request could not add the ones its pinned array left out (the tool-count limit) — a later
    // call of one passed the found check for a tool the model was never given.
    const delivered: string[] = [];
    const result = await search("select:mcp__github__create_issue,mcp__github__get_issue", {
      delivery: "mid-conversation",
      addable: (names) => ({ addable: names.filter((name) => name !== "mcp__github__get_issue"), full: [], fixedWithout: names.filter((name) => name === "mcp__github__get_issue"), limit: 128, room: 100 }),
      onDelivered: (names) => delivered.push(...names),
    });
    expect(resultText(result)).toBe(
      "Loaded 1 tool(s): mcp__github__create_issue. They are added to your tools before your next turn; call them directly then.\nNot loaded: mcp__github__get_issue. This conversation's tools array was fixed without them (its tool-count limit, or they joined the pool later), and they cannot be added to it mid-conversation.\n\n[toolpool discovered: mcp__github__create_issue]",
    );
    expect({ matches: result.structuredContent!.matches, notAddable: result.structuredContent!.not_addable, delivered, discovered: discoveredBy(result) }).toEqual({
      matches: ["mcp__github__create_issue"],
      notAddable: ["mcp__github__get_issue"],
      delivered: ["mcp__github__create_issue"],
      discovered: ["mcp__github__create_issue"],
    });
  });

  test("its description says a system message adds the tools, and never names ExecuteExtraTool", () => {
    const text = descriptionFor("mid-conversation");
    expect(text).toContain("added to your tools by a system message before your next turn");
    expect(text).not.toContain("ExecuteExtraTool");
    expect(text).not.toMatch(/^(native|proxy|midconv)\|/m);
  });
});

describe("ToolSearch as a tool", () => {
  const tool = createToolSearchTool({ engine, lookup: pool.get, delivery: "proxy" });

  test("read-only and concurrency-safe", () => {
    expect(tool.isReadOnly({ query: "x" })).toBe(true);
    expect(tool.isConcurrencySafe({ query: "x" })).toBe(true);
    expect(tool.shouldDefer).toBe(false);
  });

  test("wire schema", () => {
    expect(tool.inputJSONSchema).toEqual({
      type: "object",
      properties: {
        query: { type: "string", minLength: 1, description: 'A "select:Name1,Name2" selection, keywords, or "discover:keywords".' },
        max_results: { description: "How many tools a keyword search returns at most (default 5).", type: "integer", minimum: 1, maximum: 100 },
      },
      required: ["query"],
      additionalProperties: false,
    });
  });

  test.each(["native", "proxy"] as const)("the %s description keeps its own lines only", (delivery) => {
    const text = descriptionFor(delivery);
    expect(text).not.toMatch(/^(native|proxy)\|/m);
    expect(text.includes("ExecuteExtraTool")).toBe(delivery === "proxy");
    expect(text.includes("call it directly, like any other tool")).toBe(delivery === "native");
    expect(text).toContain("<available-deferred-tools>");
    expect(text).not.toMatch(/^(names|servers)\|/m);
    expect(text).not.toContain("<available-deferred-servers>");
  });

  test("with announcements: servers, the description says servers are announced and how to list one", () => {
    const text = descriptionFor("native", undefined, "servers");
    expect(text).toContain("<available-deferred-servers>");
    expect(text).toContain('query "mcp__<server>" to list that server\'s tools (a long list comes in pages: "mcp__<server> page:2")');
    expect(text).not.toContain("<available-deferred-tools>");
    expect(descriptionFor("native", undefined, "delta")).toBe(descriptionFor("native"));
  });
});
