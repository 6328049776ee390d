/** The operator's `defer` (per tool, per server) and the tool-count guard that keeps the tools array under a provider's limit. */
import { describe, expect, test } from "bun:test";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { parseConfig } from "../../src/config/load.ts";
import { deferKeyWarning, eagerPolicyOf, guardWarning, unmatchedDeferKeys } from "../../src/core/eager-config.ts";
import { applyEagerPolicy, deferSettingFor, MAX_EAGER_MCP_CHARS, META_TOOL_ROOM, type EagerPolicy } from "../../src/deferral/eager-policy.ts";
import { isDeferredTool } from "../../src/deferral/is-deferred.ts";
import { explainTool } from "../../src/explain/explain-tool.ts";
import { HARD_CALL_CAP_MS } from "../../src/mcp/limits.ts";
import { buildServerTools } from "../../src/mcp/pool-tool.ts";
import { assemblePool } from "../../src/pool/assemble.ts";
import { buildTool } from "../../src/tool/build-tool.ts";
import { textResult } from "../../src/tool/result.ts";
import type { Tool } from "../../src/tool/tool.ts";
import { JsonSchemaCompiler } from "../../src/validate/ajv.ts";
import { builtin, mcp } from "../assembly/fixtures.ts";
import { coreHarness } from "../helpers/core-harness.ts";

const policy = (overrides: Partial<EagerPolicy> = {}): EagerPolicy => ({ tools: new Map(), servers: new Map(), maxTools: 128, ...overrides });
const deferredNames = (tools: readonly Tool[]) => tools.filter(isDeferredTool).map((tool) => tool.name);

describe("defer per tool and per server", () => {
  const read = builtin("Read");
  const fetchTool = builtin("WebFetch", { shouldDefer: true });
  const issue = mcp("github", "create_issue");
  const channels = mcp("slack", "list_channels", { alwaysLoad: true });

  test("never makes a deferred tool eager, always defers an eager one (built-in or MCP, alwaysLoad or not); auto changes nothing", () => {
    const tools = [read, fetchTool, issue, channels];
    expect(deferredNames(applyEagerPolicy(tools, policy()).tools)).toEqual(["WebFetch", "mcp__github__create_issue"]);
    const out = applyEagerPolicy(
      tools,
      policy({ tools: new Map([["Read", "always"], ["WebFetch", "never"], ["mcp__github__create_issue", "never"], ["mcp__slack__list_channels", "always"]]) }),
    );
    expect(deferredNames(out.tools)).toEqual(["Read", "mcp__slack__list_channels"]);
    expect(applyEagerPolicy(tools, policy({ tools: new Map([["Read", "auto"]]) })).tools[0]).toBe(read);
  });

  test("a tool's own setting beats its server's, auto included", () => {
    const servers = new Map([["github", "never" as const]]);
    expect(deferSettingFor(issue, policy({ servers }))).toEqual({ setting: "never", via: "server" });
    expect(deferSettingFor(issue, policy({ servers, tools: new Map([["mcp__github__create_issue", "always"]]) }))).toEqual({ setting: "always", via: "tool" });
    expect(deferSettingFor(issue, policy({ servers, tools: new Map([["mcp__github__create_issue", "auto"]]) }))).toEqual({ setting: "auto", via: "tool" });
  });

  test("an mcpServers entry's defer beats the server's own _meta alwaysLoad and the entry's alwaysLoad list", () => {
    const compiler = new JsonSchemaCompiler();
    const definitions: McpTool[] = [
      { name: "pinned", inputSchema: { type: "object" }, _meta: { "anthropic/alwaysLoad": true } },
      { name: "listed", inputSchema: { type: "object" } },
      { name: "plain", inputSchema: { type: "object" } },
    ];
    const build = (defer?: "always" | "never" | "auto") =>
      buildServerTools(definitions, { server: "srv", compiler, alwaysLoad: new Set(["listed"]), deadlineMs: HARD_CALL_CAP_MS, call: async () => textResult("ok"), onSkip: () => {}, ...(defer && { defer }) }).map((tool) => [tool.name, isDeferredTool(tool)]).sort();
    expect(build()).toEqual([["mcp__srv__listed", false], ["mcp__srv__pinned", false], ["mcp__srv__plain", true]]);
    expect(build("auto")).toEqual(build());
    expect(build("always")).toEqual([["mcp__srv__listed", true], ["mcp__srv__pinned", true], ["mcp__srv__plain", true]]);
    expect(build("never")).toEqual([["mcp__srv__listed", false], ["mcp__srv__pinned", false], ["mcp__srv__plain", false]]);
  });

  test("a tool's own auto is the usual rule, whatever its config entry's defer made of it (built tools, as the daemon pools them)", () => {
    // Attack: the docs say a per-tool auto overrides the server's setting; the entry's defer was baked
    // into the tool when it was built, so auto changed nothing (never stayed eager, always deferred
    // a tool its server pins).
    const compiler = new JsonSchemaCompiler();
    const build = (server: string, definitions: McpTool[], defer: "always" | "never") =>
      buildServerTools(definitions, { server, compiler, alwaysLoad: new Set(), deadlineMs: HARD_CALL_CAP_MS, call: async () => textResult("ok"), onSkip: () => {}, defer });
    const plain = (name: string): McpTool => ({ name, inputSchema: { type: "object" } });
    const tools = [
      ...build("nev", [plain("one"), plain("two")], "never"),
      ...build("alw", [{ ...plain("pinned"), _meta: { "anthropic/alwaysLoad": true } }, plain("plain")], "always"),
    ];
    const out = applyEagerPolicy(tools, policy({ tools: new Map([["mcp__nev__one", "auto"], ["mcp__alw__pinned", "auto"]]) }));
    expect(Object.fromEntries(out.tools.map((tool) => [tool.name, isDeferredTool(tool)]))).toEqual({
      mcp__nev__one: true,
      mcp__nev__two: false,
      mcp__alw__pinned: false,
      mcp__alw__plain: true,
    });
    expect(deferSettingFor(tools[1]!, policy())).toEqual({ setting: "never", via: "server" });
  });

  test("config: defer per server and per tool parse; a wrong value is refused with the field named; maxToolsInArray is bounded", () => {
    const config = parseConfig({ mcpServers: { gh: { command: "x", defer: "never" } }, defer: { Read: "always" }, maxToolsInArray: 512 }, "test");
    expect(config.mcpServers.gh?.defer).toBe("never");
    expect(eagerPolicyOf(config).tools.get("Read")).toBe("always");
    expect(eagerPolicyOf(config).maxTools).toBe(512);
    expect(parseConfig({}, "test").maxToolsInArray).toBe(128);
    expect(() => parseConfig({ mcpServers: { gh: { command: "x", defer: "sometimes" } } }, "test")).toThrow("mcpServers.gh.defer");
    expect(() => parseConfig({ defer: { Read: "later" } }, "test")).toThrow("defer");
    expect(() => parseConfig({ maxToolsInArray: 100_000 }, "test")).toThrow("maxToolsInArray");
    expect(() => parseConfig({ maxToolsInArray: 2 }, "test")).toThrow("maxToolsInArray");
  });
});

describe("the tool-count guard", () => {
  const many = (count: number) => Array.from({ length: count }, (_, index) => mcp("big", `t${String(index).padStart(3, "0")}`, { alwaysLoad: true }));

  test("never more eager tools than the limit less the meta-tools' room; the excess, last in pool order, is deferred and named", () => {
    const builtins = [builtin("Bash"), builtin("Read")];
    const pool = assemblePool({ builtins, mcpTools: many(200), eager: policy({ maxTools: 128 }) });
    const eager = pool.tools.filter((tool) => !isDeferredTool(tool));
    expect(eager.length).toBe(128 - META_TOOL_ROOM);
    expect(eager.slice(0, 2).map((tool) => tool.name)).toEqual(["Bash", "Read"]);
    expect(pool.guarded).toHaveLength(202 - (128 - META_TOOL_ROOM));
    expect(pool.guarded?.[0]).toBe("mcp__big__t123");
    // The pool's lookup answers with the guarded (deferred) tool, so every path sees one truth.
    expect(isDeferredTool(pool.get("mcp__big__t199")!)).toBe(true);
  });

  test("the operator's eager tools are kept before those only their server asked for: an alwaysLoad flood cannot push them out", () => {
    // Attack: server "aaa" marks 200 tools `anthropic/alwaysLoad`; in pool order alone they took every
    // place, and the tools the operator named (a per-tool never, an entry's defer: never, an entry's
    // alwaysLoad list) were all deferred by the guard.
    const compiler = new JsonSchemaCompiler();
    const build = (server: string, definitions: McpTool[], entry: { alwaysLoad?: string[]; defer?: "never" } = {}) =>
      buildServerTools(definitions, { server, compiler, alwaysLoad: new Set(entry.alwaysLoad ?? []), deadlineMs: HARD_CALL_CAP_MS, call: async () => textResult("ok"), onSkip: () => {}, ...(entry.defer && { defer: entry.defer }) });
    const plain = (name: string): McpTool => ({ name, inputSchema: { type: "object" } });
    const flood = build("aaa", Array.from({ length: 200 }, (_, i) => ({ ...plain(`f${String(i).padStart(3, "0")}`), _meta: { "anthropic/alwaysLoad": true } })));
    const mine = [...build("nev", [plain("one")], { defer: "never" }), ...build("zzz", [plain("listed"), plain("mine"), plain("other")], { alwaysLoad: ["listed"] })];
    const pool = assemblePool({ builtins: [builtin("Bash"), builtin("Read")], mcpTools: [...flood, ...mine], eager: policy({ maxTools: 40, tools: new Map([["mcp__zzz__mine", "never"]]) }) });
    const eager = pool.tools.filter((tool) => !isDeferredTool(tool)).map((tool) => tool.name);
    expect({ eager: eager.length, operator: ["mcp__nev__one", "mcp__zzz__listed", "mcp__zzz__mine"].filter((name) => eager.includes(name)), other: eager.includes("mcp__zzz__other") }).toEqual({
      eager: 40 - META_TOOL_ROOM,
      operator: ["mcp__nev__one", "mcp__zzz__listed", "mcp__zzz__mine"],
      other: false,
    });
    // The server's own requests fill what is left, in pool order; the rest are guarded and named, in pool order.
    expect(eager.filter((name) => name.startsWith("mcp__aaa__"))).toEqual(flood.slice(0, 40 - META_TOOL_ROOM - 5).map((tool) => tool.name));
    expect(pool.guarded).toEqual(flood.slice(40 - META_TOOL_ROOM - 5).map((tool) => tool.name));
  });

  test("operator never on every tool cannot cross it either; at 512 the same tools all stay eager", () => {
    const tools = many(300).map((tool) => ({ ...tool, alwaysLoad: false }));
    const never = new Map(tools.map((tool) => [tool.name, "never" as const]));
    expect(applyEagerPolicy(tools, policy({ tools: never, maxTools: 128 })).tools.filter((tool) => !isDeferredTool(tool))).toHaveLength(125);
    expect(applyEagerPolicy(tools, policy({ tools: never, maxTools: 512 })).guarded).toEqual([]);
  });

  test("a server's own alwaysLoad on 60 tools of 250K-character schemas: eager up to MAX_EAGER_MCP_CHARS of definitions, the rest deferred and named; built-ins are not counted", () => {
    const schema = { type: "object", properties: { text: { type: "string", description: "s".repeat(250_000) } } };
    const bigTools = Array.from({ length: 60 }, (_, index) => mcp("fat", `t${String(index).padStart(2, "0")}`, { alwaysLoad: true, schema }));
    const builtins = [builtin("Bash"), builtin("Read")];
    const pool = assemblePool({ builtins, mcpTools: [...bigTools, mcp("slim", "small", { alwaysLoad: true })], eager: policy() });
    const eager = pool.tools.filter((tool) => !isDeferredTool(tool));
    const eagerChars = eager.filter((tool) => tool.mcpInfo !== undefined).reduce((sum, tool) => sum + tool.description.length + JSON.stringify(tool.inputJSONSchema).length, 0);
    const fits = Math.floor(MAX_EAGER_MCP_CHARS / (JSON.stringify(bigTools[0]!.inputJSONSchema).length + bigTools[0]!.description.length));
    expect({ eager: eager.map((tool) => tool.name), guarded: pool.guarded, under: eagerChars <= MAX_EAGER_MCP_CHARS }).toEqual({
      eager: ["Bash", "Read", ...bigTools.slice(0, fits).map((tool) => tool.name), "mcp__slim__small"],
      guarded: bigTools.slice(fits).map((tool) => tool.name),
      under: true,
    });
  });

  test("the warning is logged once per change of the guarded set", () => {
    const warnings: unknown[] = [];
    const logger = { warn: (message: string, fields?: unknown) => warnings.push([message, fields]), info() {}, debug() {}, error() {} } as never;
    const warn = guardWarning(() => logger);
    warn({ guarded: ["a", "b"] }, 128);
    warn({ guarded: ["a", "b"] }, 128);
    warn({ guarded: [] }, 128);
    warn({ guarded: ["a"] }, 128);
    expect(warnings).toEqual([
      ["more eager tools than the tools array may hold (maxToolsInArray, or 2 MiB of MCP tool definitions): the excess is deferred", { maxToolsInArray: 128, deferred: 2, tools: "a, b" }],
      ["more eager tools than the tools array may hold (maxToolsInArray, or 2 MiB of MCP tool definitions): the excess is deferred", { maxToolsInArray: 128, deferred: 1, tools: "a" }],
    ]);
  });

  test("a defer entry that names no tool is logged, once per change: not a built-in of this binary, or not a tool its listed server has", () => {
    // Attack: `"defer": {"Reed": "always", "mcp__github__create_isue": "never"}` was silently lost.
    const builtins = [builtin("Bash"), builtin("Read")];
    const mcpTools = [mcp("github", "create_issue")];
    const defer = { Reed: "always", Read: "always", mcp__github__create_isue: "never", mcp__github__create_issue: "never", mcp__lazy__anything: "never" };
    // A server not listed (yet: lazy, connecting) is not judged.
    expect(unmatchedDeferKeys(defer, builtins, mcpTools)).toEqual(["Reed", "mcp__github__create_isue"]);
    expect(unmatchedDeferKeys({}, builtins, mcpTools)).toEqual([]);
    const warnings: unknown[] = [];
    const logger = { warn: (message: string, fields?: unknown) => warnings.push([message, fields]), info() {}, debug() {}, error() {} } as never;
    const warn = deferKeyWarning(() => logger);
    warn(["Reed"]);
    warn(["Reed"]);
    warn([]);
    expect(warnings).toEqual([["config defer names no tool (a built-in of this binary, or a tool its MCP server lists): the setting does nothing", { names: "Reed", count: 1 }]]);
  });

  test("toolpool explain says a tool was deferred by the guard", () => {
    const echo = buildTool({ name: "Echo", description: "e", inputSchema: z.strictObject({}), call: async () => textResult("") });
    const pool = assemblePool({ builtins: [echo], mcpTools: many(20), eager: policy({ maxTools: 8 }) });
    const result = explainTool({
      name: "mcp__big__t019",
      tier: { name: "pro", features: [] },
      pool,
      offered: pool.tools,
      configDeny: { rules: [], source: "config" },
      servers: [{ name: "big", state: "connected", startup: "eager" }],
      session: { id: "s", deferring: true, delivery: "proxy", deliveryReason: "r", mode: "tst", modeReason: "r", killedAtOpen: [], killSwitch: () => undefined, discovered: new Map(), deny: [], hasOutputSchema: false },
      suggest: () => [],
    });
    expect(result.decisions.find((decision) => decision.step === "deferral")).toEqual({
      step: "deferral",
      verdict: "note",
      reason: "deferred by the tool-count guard: more tools are eager than the config's maxToolsInArray lets the tools array hold, or more than 2 MiB of MCP tool definitions (it would be sent in full otherwise)",
      rule: "tool_count_guard",
    });
  });
});

describe("explain names the setting that decided", () => {
  test("the config's per-tool and per-server defer, the entry's alwaysLoad list, the server's own alwaysLoad", () => {
    // Attack: a Read the config deferred was explained as "a built-in that asks to be deferred (shouldDefer)".
    const compiler = new JsonSchemaCompiler();
    const build = (server: string, definitions: McpTool[], entry: { alwaysLoad?: string[]; defer?: "never" } = {}) =>
      buildServerTools(definitions, { server, compiler, alwaysLoad: new Set(entry.alwaysLoad ?? []), deadlineMs: HARD_CALL_CAP_MS, call: async () => textResult("ok"), onSkip: () => {}, ...(entry.defer && { defer: entry.defer }) });
    const plain = (name: string): McpTool => ({ name, inputSchema: { type: "object" } });
    const mcpTools = [...build("nev", [plain("one")], { defer: "never" }), ...build("zzz", [plain("listed"), { ...plain("pinned"), _meta: { "anthropic/alwaysLoad": true } }], { alwaysLoad: ["listed"] })];
    const defer = new Map([["Read", "always" as const]]);
    const pool = assemblePool({ builtins: [builtin("Read")], mcpTools, eager: policy({ tools: defer }) });
    const reason = (name: string) =>
      explainTool({ name, tier: { name: "pro", features: [] }, pool, offered: pool.tools, configDeny: { rules: [], source: "config" }, servers: [{ name: "nev", state: "connected", startup: "eager" }, { name: "zzz", state: "connected", startup: "eager" }], session: { id: "s", deferring: true, delivery: "proxy", deliveryReason: "r", mode: "tst", modeReason: "r", killedAtOpen: [], killSwitch: () => undefined, discovered: new Map(), deny: [], hasOutputSchema: false }, suggest: () => [], deferPolicy: policy({ tools: defer }) }).decisions.find(
        (decision) => decision.step === "deferral",
      )?.reason;
    expect(Object.fromEntries(["Read", "mcp__nev__one", "mcp__zzz__listed", "mcp__zzz__pinned"].map((name) => [name, reason(name)]))).toEqual({
      Read: 'the config\'s defer says "always" for Read: always deferred',
      mcp__nev__one: 'the config\'s mcpServers.nev.defer says "never": never deferred',
      mcp__zzz__listed: "the config's mcpServers.zzz.alwaysLoad names it: never deferred",
      mcp__zzz__pinned: 'its MCP server asks for it to be always loaded (_meta "anthropic/alwaysLoad"): never deferred',
    });
  });
});

describe("the guard through the core", () => {
  const eager = Array.from({ length: 12 }, (_, index) =>
    buildTool({ name: `Eager${String(index).padStart(2, "0")}`, description: "An eager built-in.", inputSchema: z.strictObject({}), call: async () => textResult("") }),
  );

  test("a deferring session's tools array never holds more than maxToolsInArray; the excess is reachable through ToolSearch", async () => {
    const { core, open, call } = coreHarness({ builtins: eager, config: { maxToolsInArray: 8 } });
    expect(core.pool().guarded).toEqual(["Eager05", "Eager06", "Eager07", "Eager08", "Eager09", "Eager10", "Eager11"]);
    for (const delivery of ["proxy", "native"] as const) {
      const session = open({ delivery, model: "claude-sonnet-4-5", provider: "anthropic" });
      const assembled = core.assemble(session, []);
      expect(assembled.tools.length).toBeLessThanOrEqual(8);
    }
    const session = open({ delivery: "proxy" });
    const found = await call(session, "ToolSearch", { query: "select:Eager11" });
    expect(found.structuredContent?.matches).toEqual(["Eager11"]);
  });

  test("a session that would send every tool defers instead over the limit: the array stays under it, the rest is reachable, explain says why", async () => {
    const { core, open, call } = coreHarness({ builtins: eager, config: { maxToolsInArray: 8 } });
    // Standard delivery defers with proxy; a mode that defers nothing keeps the session's own delivery.
    for (const [request, delivery] of [[{ delivery: "standard" }, "proxy"], [{ toolSearch: "false" }, "native"]] as const) {
      const session = open(request);
      const assembled = core.assemble(session, []);
      expect(assembled.tools.length).toBeLessThanOrEqual(8);
      expect(assembled.delivery.reason).toBe("tool_limit");
      expect(assembled.warnings).toEqual([`tools array limit (maxToolsInArray 8): 12 tools would be sent in full, so this request defers with ${delivery} delivery`]);
      const found = await call(session, "ToolSearch", { query: "select:Eager11" });
      expect(found.structuredContent?.matches).toEqual(["Eager11"]);
      const explained = await core.explain("Eager11", session);
      expect(JSON.stringify(explained.decisions)).toContain(`with ${delivery} delivery (tool_limit)`);
    }
    // toolpool status counts the requests the limit changed and shows the last warning.
    expect(core.status().arrayLimit).toEqual({
      maxToolsInArray: 8,
      requests: 2,
      last: "tools array limit (maxToolsInArray 8): 12 tools would be sent in full, so this request defers with native delivery",
    });
  });

  test("a session within the limit leaves status without an arrayLimit", () => {
    const { core, open } = coreHarness({ builtins: eager.slice(0, 4), config: { maxToolsInArray: 8 } });
    core.assemble(open({ delivery: "standard" }), []);
    expect(core.status().arrayLimit).toBeUndefined();
  });

  test("a session cannot widen it: session params have no say, and the limit stays the config's", () => {
    const { core, open } = coreHarness({ builtins: eager, config: { maxToolsInArray: 8 } });
    // Whatever a session asks for (here a made-up field, and every delivery that defers), the pool it sees is the guarded one.
    const session = open({ delivery: "native", toolSearch: "true", maxToolsInArray: 512 } as never);
    expect(core.assemble(session, []).tools.length).toBeLessThanOrEqual(8);
    expect(core.pool().guarded).toHaveLength(7);
  });
});
