/** The grouping extension's client side in isolation: capability, paging bounds, nesting (cycles), the daemon's own key, a failing groups/list. */
import { describe, expect, test } from "bun:test";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import {
  enclosingGroups,
  GROUPS_META_KEY,
  listAllGroups,
  MAX_GROUP_PAGES,
  MAX_GROUPS_PER_SERVER,
  MAX_GROUPS_PER_TOOL,
  MAX_MEMBERSHIP_ENTRIES,
  offersGrouping,
  POOL_GROUPS_META_KEY,
  withGrouping,
  withGroupMembership,
} from "../../src/mcp/server-groups.ts";
import type { ServerConnection } from "../../src/mcp/server-connection-contract.ts";
import { groupTextOf, listingGroupTexts, POOL_GROUP_INFO_META_KEY } from "../../src/mcp/group-text.ts";
import { buildServerTools, toPoolTool } from "../../src/mcp/pool-tool.ts";
import { JsonSchemaCompiler } from "../../src/validate/ajv.ts";
import { GroupRegistry } from "../../src/search/group-registry.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";

const tool = (name: string, meta?: Record<string, unknown>): McpTool => ({ name, inputSchema: { type: "object" }, ...(meta && { _meta: meta }) });

describe("server groups", () => {
  test("the capability is read from extensions or experimental, nothing else", () => {
    expect(offersGrouping({ extensions: { "io.modelcontextprotocol/grouping": {} } })).toBe(true);
    expect(offersGrouping({ experimental: { "io.modelcontextprotocol/grouping": { listChanged: true } } })).toBe(true);
    expect(offersGrouping({ extensions: { "io.modelcontextprotocol/grouping": true } })).toBe(false);
    expect(offersGrouping({ groups: { listChanged: true } })).toBe(false);
    expect(offersGrouping(undefined)).toBe(false);
  });

  test("a server that pages forever, repeats a cursor or lists too many groups is cut off with a warning", async () => {
    let pages = 0;
    const endless = await listAllGroups(async () => ({ groups: [{ name: `g${pages}` }], nextCursor: `c${pages++}` }));
    expect(endless.groups.length).toBe(MAX_GROUP_PAGES);
    expect(endless.warnings).toEqual([`stopped listing groups after ${MAX_GROUP_PAGES} pages`]);
    const looping = await listAllGroups(async () => ({ groups: [], nextCursor: "same" }));
    expect(looping.warnings).toEqual(["stopped listing groups: the server repeated a cursor"]);
    const many = await listAllGroups(async () => ({ groups: Array.from({ length: MAX_GROUPS_PER_SERVER + 5 }, (_, i) => ({ name: `g${i}` })) }));
    expect(many.groups.length).toBe(MAX_GROUPS_PER_SERVER);
    expect(many.warnings).toEqual([`kept the first ${MAX_GROUPS_PER_SERVER} groups (the per-server limit)`]);
    await expect(listAllGroups(async () => ({ groups: "nope" }))).rejects.toThrow("groups/list answered without a groups array");
  });

  test("bad and repeated group entries are skipped, each with its reason", async () => {
    const listed = await listAllGroups(async () => ({
      groups: [{ name: "ok", description: "Fine.", _meta: { [GROUPS_META_KEY]: ["parent", "bad parent", 7] } }, { name: "ok" }, { name: "has space" }, { name: "x".repeat(65) }, 42],
    }));
    expect(listed.groups).toEqual([{ name: "ok", parents: ["parent"], text: { description: "Fine." } }]);
    expect(listed.warnings).toEqual([
      'skipped group "ok": listed twice',
      'skipped group "has space": a group name is 1-64 letters, digits, "_", "-" or "."',
      `skipped group "${"x".repeat(65)}": a group name is 1-64 letters, digits, "_", "-" or "."`,
      "skipped a group that is not an object",
    ]);
  });

  test("a group whose name differs from a listed one only by case is skipped with its reason: the query language cannot tell them apart", async () => {
    // Attack: groups `docs` {a} and `DOCS` {b} became one group `docs` {a, b} in the index, so
    // select:mcp__s/DOCS loaded a, which DOCS does not hold — and nothing said so.
    const groups = [{ name: "docs", title: "Lower" }, { name: "DOCS", title: "Upper" }, { name: "Docs" }, { name: "docs" }];
    const listed = await listAllGroups(async () => ({ groups }));
    expect(listed.groups).toEqual([{ name: "docs", parents: [], text: { title: "Lower" } }]);
    expect(listed.warnings).toEqual([
      'skipped group "DOCS": group "docs" is listed already, and names are told apart ignoring case',
      'skipped group "Docs": group "docs" is listed already, and names are told apart ignoring case',
      'skipped group "docs": listed twice',
    ]);
    const tools = withGroupMembership([{ name: "a", inputSchema: { type: "object" }, _meta: { [GROUPS_META_KEY]: ["docs"] } }, { name: "b", inputSchema: { type: "object" }, _meta: { [GROUPS_META_KEY]: ["DOCS"] } }], listed.groups);
    expect(tools.map((tool) => [tool.name, tool._meta?.[POOL_GROUPS_META_KEY]])).toEqual([["a", ["docs"]], ["b", undefined]]);
  });

  test("a group named like a server or a tool (mcp__…) is skipped: select: of a server or tool not in the pool must not load another server's tools", async () => {
    // Attack: group "mcp__github" (or "mcp__github__create_issue"): while github was still connecting,
    // select:mcp__github loaded the naming server's own tools.
    const listed = await listAllGroups(async () => ({ groups: [{ name: "mcp__github" }, { name: "MCP__github__create_issue" }, { name: "github" }] }));
    expect(listed.groups.map((group) => group.name)).toEqual(["github"]);
    expect(listed.warnings).toEqual([
      'skipped group "mcp__github": a name starting "mcp__" reads as an MCP server or tool in select:',
      'skipped group "MCP__github__create_issue": a name starting "mcp__" reads as an MCP server or tool in select:',
    ]);
  });

  test("a flood of bad entries on every page is named ten times, then counted: no overflow, no log flood", async () => {
    // Attack: 20 pages of a million bad entries each overflowed the stack (the groups were lost) and,
    // at fewer entries, logged one warning line per entry on every listing.
    let pages = 0;
    const listed = await listAllGroups(async () => {
      pages++;
      return { groups: [...Array.from({ length: 200_000 }, () => 1), { name: `ok${pages}` }, { name: "ok1" }], nextCursor: `c${pages}` };
    });
    expect(listed.groups.map((group) => group.name)).toEqual(Array.from({ length: MAX_GROUP_PAGES }, (_, i) => `ok${i + 1}`));
    expect(listed.warnings).toEqual([
      ...Array.from({ length: 10 }, () => "skipped a group that is not an object"),
      `stopped listing groups after ${MAX_GROUP_PAGES} pages`,
      `skipped ${MAX_GROUP_PAGES * 200_001 - 10} more bad group entries`,
    ]);
  });

  test("nesting is followed through parents; a cycle ends the walk", () => {
    const closure = enclosingGroups([
      { name: "a", parents: ["b"] },
      { name: "b", parents: ["c"] },
      { name: "c", parents: ["a", "unlisted"] },
      { name: "d", parents: [] },
    ]);
    expect([...closure.get("a")!].sort()).toEqual(["a", "b", "c"]);
    expect(closure.get("d")).toEqual(["d"]);
  });

  test("the daemon's own key is always the daemon's: a server's value is dropped, undeclared groups are not taken", () => {
    const tools = withGroupMembership(
      [
        tool("in", { [GROUPS_META_KEY]: ["child"], other: 1 }),
        tool("forged", { [POOL_GROUPS_META_KEY]: ["child"] }),
        tool("ghost", { [GROUPS_META_KEY]: ["ghost"] }),
        tool("plain"),
      ],
      [
        { name: "parent", parents: [] },
        { name: "child", parents: ["parent"] },
      ],
    );
    expect(tools.map((entry) => entry._meta)).toEqual([
      { [GROUPS_META_KEY]: ["child"], other: 1, [POOL_GROUPS_META_KEY]: ["child", "parent"] },
      {},
      { [GROUPS_META_KEY]: ["ghost"] },
      undefined,
    ]);
  });

  test("group titles and descriptions: checked, written under the daemon's key on the first member only, read back for every member, a server's own value dropped", async () => {
    const listed = await listAllGroups(async () => ({
      groups: [
        { name: "parent", title: "  Parent\n\tgroup ", description: 42 },
        { name: "child", description: `Kids.\u0000\u202e\n${"x".repeat(10_000)}`, _meta: { [GROUPS_META_KEY]: ["parent"] } },
        { name: "__proto__", title: "Prototype" },
        { name: "bare" },
      ],
    }));
    expect(listed.groups.map((group) => [group.name, group.text])).toEqual([
      ["parent", { title: "Parent group" }],
      ["child", { description: `Kids. ${"x".repeat(293)}…` }],
      ["__proto__", { title: "Prototype" }],
      ["bare", undefined],
    ]);
    const tools = withGroupMembership(
      [
        tool("a", { [GROUPS_META_KEY]: ["child", "__proto__"] }),
        tool("b", { [GROUPS_META_KEY]: ["child"], [POOL_GROUP_INFO_META_KEY]: { child: { title: "forged" }, evil: { title: "x" } } }),
        tool("c", { [GROUPS_META_KEY]: ["bare"] }),
        tool("d", { [POOL_GROUP_INFO_META_KEY]: { child: { title: "forged" } } }),
      ],
      listed.groups,
    );
    const info = tools.map((entry) => entry._meta?.[POOL_GROUP_INFO_META_KEY] as Record<string, unknown> | undefined);
    expect(info[0]).toEqual(Object.fromEntries([["__proto__", { title: "Prototype" }], ["child", { description: `Kids. ${"x".repeat(293)}…` }], ["parent", { title: "Parent group" }]]));
    // `b` is in `child` and `parent` too, whose texts `a` carries already: a listing holds each text once.
    expect(info.slice(1)).toEqual([undefined, undefined, undefined]);
    expect(tools[3]!._meta).toEqual({});
    // Read back into mcpInfo: only the tool's groups, each checked again; `__proto__` is an own entry, not a prototype.
    const compiler = new JsonSchemaCompiler();
    const options = { server: "s", compiler, alwaysLoad: new Set<string>(), deadlineMs: 1000, call: async () => ({ content: [], isError: false }), onSkip: () => {} };
    const pooled = toPoolTool(tools[0]!, options);
    expect(pooled.mcpInfo?.groups).toEqual(["__proto__", "child", "parent"]);
    expect(Object.getPrototypeOf(pooled.mcpInfo!.groupInfo)).toBe(Object.prototype);
    expect(Object.keys(pooled.mcpInfo!.groupInfo!)).toEqual(["__proto__", "child", "parent"]);
    // The whole listing (as the catalog cache reads it back): every member gets its groups' texts.
    const built = buildServerTools(JSON.parse(JSON.stringify(tools)) as McpTool[], options);
    expect(built.map((each) => [each.mcpInfo!.tool, each.mcpInfo!.groupInfo])).toEqual([
      ["a", Object.fromEntries([["__proto__", { title: "Prototype" }], ["child", { description: `Kids. ${"x".repeat(293)}…` }], ["parent", { title: "Parent group" }]])],
      ["b", { child: { description: `Kids. ${"x".repeat(293)}…` }, parent: { title: "Parent group" } }],
      ["c", undefined],
      ["d", undefined],
    ]);
    expect(listingGroupTexts([{ _meta: { [POOL_GROUP_INFO_META_KEY]: { a: { title: "A\nB", description: ["no"] } } } }])).toEqual(new Map([["a", { title: "A B" }]]));
    expect(groupTextOf({ title: " \n\t ", description: "" })).toBeUndefined();
  });

  test("5,000 tools in 16 described groups each: the listing holds each text once, checked once, and every member shares it", () => {
    const groups = Array.from({ length: 64 }, (_, g) => ({ name: `g${g}`, parents: [], text: groupTextOf({ title: `Group ${g} `.padEnd(64, "t"), description: `Does ${g}. `.padEnd(300, "d") })! }));
    const listed = withGroupMembership(
      Array.from({ length: 5_000 }, (_, n) => tool(`t${n}`, { [GROUPS_META_KEY]: Array.from({ length: 16 }, (_, k) => `g${(n + k) % 64}`) })),
      groups,
    );
    // What the catalog cache stores and a re-listing compares: ~1.6 MB of names and schemas; each text was on all ~1,250 members (+30 MB).
    const listingChars = JSON.stringify(listed).length;
    const compiler = new JsonSchemaCompiler();
    const built = buildServerTools(JSON.parse(JSON.stringify(listed)) as McpTool[], { server: "s", compiler, alwaysLoad: new Set(), deadlineMs: 1000, call: async () => ({ content: [], isError: false }), onSkip: () => {} });
    const texts = new Set(built.flatMap((each) => Object.values(each.mcpInfo!.groupInfo!)));
    expect({ under4MB: listingChars < 4_000_000, distinctTexts: texts.size, everyMember16: built.every((each) => Object.keys(each.mcpInfo!.groupInfo!).length === 16) }).toEqual({
      under4MB: true,
      distinctTexts: 64,
      everyMember16: true,
    });
  });

  test("a tool in more than MAX_GROUPS_PER_TOOL groups keeps that many, with a warning", () => {
    const groups = Array.from({ length: MAX_GROUPS_PER_TOOL + 4 }, (_, i) => ({ name: `g${String(i).padStart(2, "0")}`, parents: [] }));
    const warnings: string[] = [];
    const [greedy] = withGroupMembership([tool("greedy", { [GROUPS_META_KEY]: groups.map((group) => group.name) })], groups, warnings);
    expect((greedy!._meta![POOL_GROUPS_META_KEY] as string[]).length).toBe(MAX_GROUPS_PER_TOOL);
    expect(warnings).toEqual([`tool "greedy" is in ${MAX_GROUPS_PER_TOOL + 4} groups; kept ${MAX_GROUPS_PER_TOOL}`]);
  });

  test("a hostile nesting (every group in every group, thousands of unknown parents, every tool in every group) is read in bounded work", async () => {
    // Attack: 200 groups each naming all 200 groups plus 10,000 unlisted parents, and 2,000 tools
    // each naming all 200 groups, stalled the daemon's thread 6.5 s per listing (groups × groups ×
    // entries in the nesting walk, tools × groups × closure in the membership) and logged one
    // warning per tool. Now: a _meta list is read to MAX_MEMBERSHIP_ENTRIES, a walk pushes each
    // listed group once, membership is a bit-set union, and the warnings are a bounded few.
    const names = Array.from({ length: MAX_GROUPS_PER_SERVER }, (_, i) => `g${String(i).padStart(3, "0")}`);
    const unknown = Array.from({ length: 10_000 }, (_, i) => `u${i}`);
    const listed = await listAllGroups(async () => ({ groups: names.map((name) => ({ name, _meta: { [GROUPS_META_KEY]: [...unknown, ...names] } })) }));
    expect(listed.groups.length).toBe(MAX_GROUPS_PER_SERVER);
    for (const group of listed.groups) expect(group.parents.length).toBeLessThanOrEqual(MAX_MEMBERSHIP_ENTRIES);
    // A group that names all the others first (within the bound) nests as declared.
    const nested = names.map((name) => ({ name, parents: names }));
    const tools = Array.from({ length: 2_000 }, (_, i) => tool(`t${i}`, { [GROUPS_META_KEY]: i === 0 ? ["g007"] : names }));
    const warnings: string[] = [];
    const out = withGroupMembership(tools, nested, warnings);
    expect(out[0]!._meta![POOL_GROUPS_META_KEY]).toEqual(names.slice(0, MAX_GROUPS_PER_TOOL));
    expect(out[1_999]!._meta![POOL_GROUPS_META_KEY]).toEqual(names.slice(0, MAX_GROUPS_PER_TOOL));
    expect(warnings.length).toBe(11);
    expect(warnings[0]).toBe(`tool "t0" is in ${MAX_GROUPS_PER_SERVER} groups; kept ${MAX_GROUPS_PER_TOOL}`);
    expect(warnings.at(-1)).toBe(`1990 more tool(s) are in more than ${MAX_GROUPS_PER_TOOL} groups; kept ${MAX_GROUPS_PER_TOOL} each`);
    // Membership still follows nesting exactly, through the bit sets: a chain, and a tool off it.
    const chain = withGroupMembership([tool("leaf", { [GROUPS_META_KEY]: ["c", "nope"] }), tool("top", { [GROUPS_META_KEY]: ["a"] })], [
      { name: "a", parents: [] },
      { name: "b", parents: ["a"] },
      { name: "c", parents: ["b", "unlisted"] },
      { name: "z", parents: ["c"] },
    ]);
    expect(chain.map((entry) => entry._meta![POOL_GROUPS_META_KEY])).toEqual([["a", "b", "c"], ["a"]]);
  });

  test("a failing groups/list keeps the tools and says why; without the capability groups/list is never asked", async () => {
    const inner: ServerConnection = {
      pid: 1,
      listTools: async () => ({ tools: [tool("a", { [GROUPS_META_KEY]: ["g"], [POOL_GROUPS_META_KEY]: ["g"] })], warnings: [] }),
      callTool: async () => ({ content: [] }),
      onToolsChanged: () => {},
      onLost: () => {},
      close: async () => {},
    };
    let asked = 0;
    const failing = withGrouping(inner, {
      capabilities: { extensions: { "io.modelcontextprotocol/grouping": {} } },
      request: async () => {
        asked++;
        throw new Error("boom");
      },
      onGroupsChanged: () => {},
    });
    const listing = await failing.listTools(1_000);
    expect(listing.tools[0]!._meta).toEqual({ [GROUPS_META_KEY]: ["g"] });
    expect(listing.warnings).toEqual(["groups/list failed, so the server's groups are left out: boom"]);
    const plain = withGrouping(inner, { capabilities: {}, request: async () => ({ groups: (asked++, []) }), onGroupsChanged: () => {} });
    expect((await plain.listTools(1_000)).tools[0]!._meta).toEqual({ [GROUPS_META_KEY]: ["g"] });
    expect(asked).toBe(1);
  });

  test("groups/list_changed lists again like a tool list change", () => {
    let fire = () => {};
    const inner = { onToolsChanged: () => {} } as unknown as ServerConnection;
    const grouped = withGrouping(inner, { capabilities: { experimental: { "io.modelcontextprotocol/grouping": {} } }, request: async () => ({ groups: [] }), onGroupsChanged: (listener) => (fire = listener) });
    let changed = 0;
    grouped.onToolsChanged(() => changed++);
    fire();
    expect(changed).toBe(1);
  });
});

describe("groups in the search index", () => {
  test("a group lives while one of its tools does; removing the last drops it", () => {
    const index = new ToolSearchIndex();
    index.add({ name: "mcp__s__a", description: "a", server: "s", rawToolName: "a", groups: ["g"] });
    index.add({ name: "mcp__s__b", description: "b", server: "s", rawToolName: "b", groups: ["g", "h"] });
    expect(index.query("select:mcp__s/G").matches.map((match) => match.name)).toEqual(["mcp__s__a", "mcp__s__b"]);
    // A listing sizes groups by what its filter admits (a session's own tools): a group with none is left out.
    expect(index.query("mcp__s", { filter: (name) => name !== "mcp__s__b" }).serverGroups).toEqual([{ name: "g", size: 1 }]);
    expect(index.query("mcp__s").serverGroups).toEqual([{ name: "g", size: 2 }, { name: "h", size: 1 }]);
    index.remove("mcp__s__b");
    expect(index.query("select:mcp__s/h")).toMatchObject({ found: [], missing: ["mcp__s/h"] });
    expect(index.query("mcp__s").serverGroups).toEqual([{ name: "g", size: 1 }]);
    index.removeServer("s");
    expect(index.query("select:g")).toMatchObject({ found: [], missing: ["g"] });
  });

  test("a tool name wins over a group of the same spelling; a bare name two servers share is ambiguous", () => {
    const index = new ToolSearchIndex();
    index.add({ name: "mcp__s__a", description: "a", server: "s", rawToolName: "a", groups: ["a"] });
    index.add({ name: "mcp__t__b", description: "b", server: "t", rawToolName: "b", groups: ["a"] });
    expect(index.query("select:a").found).toEqual(["mcp__s__a"]);
    const registry = new GroupRegistry();
    expect(registry.groupsOf(0)).toEqual([]);
    index.add({ name: "mcp__t__c", description: "c", server: "t", rawToolName: "c", groups: ["shared"] });
    index.add({ name: "mcp__s__d", description: "d", server: "s", rawToolName: "d", groups: ["shared"] });
    expect(index.query("select:shared")).toMatchObject({ found: [], missing: ["shared"], didYouMean: ["mcp__s/shared", "mcp__t/shared"] });
  });

  test("a bare name that is a server's name selects no other server's group of that name", () => {
    // Attack: server "evil" names a group "github"; select:github loaded evil's tools while github was right there.
    const index = new ToolSearchIndex();
    index.add({ name: "mcp__github__create_issue", description: "c", server: "github", rawToolName: "create_issue" });
    index.add({ name: "mcp__evil__steal", description: "s", server: "evil", rawToolName: "steal", groups: ["github", "tools"] });
    expect(index.query("select:github")).toMatchObject({ found: [], missing: ["github"], didYouMean: ["mcp__github"] });
    // Its own groups and other bare names still resolve.
    expect(index.query("select:tools").found).toEqual(["mcp__evil__steal"]);
    expect(index.query("select:mcp__evil/github").found).toEqual(["mcp__evil__steal"]);
    index.add({ name: "mcp__github__list", description: "l", server: "github", rawToolName: "list", groups: ["github"] });
    expect(index.query("select:github").found).toEqual(["mcp__github__list"]);
  });
});
