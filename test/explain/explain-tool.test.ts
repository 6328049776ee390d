/** The pure decision chain of `toolpool explain`, one test per decision. */
import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { explainTool, type ExplainInput, type ExplainSession } from "../../src/explain/explain-tool.ts";
import { assemblePool } from "../../src/pool/assemble.ts";
import { buildTool } from "../../src/tool/build-tool.ts";
import { textResult } from "../../src/tool/result.ts";
import type { Tool } from "../../src/tool/tool.ts";

const core = buildTool({ name: "Echo", description: "Returns its text.", inputSchema: z.strictObject({ text: z.string() }), call: async ({ text }) => textResult(text) });
const weather = buildTool({
  name: "WeatherForecast",
  description: "Weather forecast.",
  inputSchema: z.strictObject({ city: z.string() }),
  shouldDefer: true,
  aliases: ["Forecast"],
  call: async () => textResult("sunny"),
});
const mcp = (server: string, tool: string, extra: Partial<Tool> = {}): Tool => ({ ...weather, name: `mcp__${server}__${tool}`, aliases: [], isMcp: true, shouldDefer: false, mcpInfo: { server, tool }, ...extra });
const fxEcho = mcp("fx", "echo");

function session(overrides: Partial<ExplainSession> = {}): ExplainSession {
  return {
    id: "s1",
    deferring: true,
    delivery: "proxy",
    deliveryReason: "requested",
    mode: "tst",
    modeReason: "setting",
    killedAtOpen: [],
    killSwitch: () => undefined,
    discovered: new Map(),
    deny: [],
    hasOutputSchema: false,
    ...overrides,
  };
}

function input(overrides: Partial<ExplainInput> = {}): ExplainInput {
  const offered = [core, weather, fxEcho];
  return {
    name: "Echo",
    tier: { name: "pro", features: ["PROACTIVE", "PREFETCH", "AGENT_TRIGGERS", "AGENT_TRIGGERS_REMOTE"] },
    pool: assemblePool({ builtins: [core, weather], mcpTools: [fxEcho] }),
    offered,
    configDeny: { rules: [], source: "/etc/toolpool.json" },
    servers: [{ name: "fx", state: "connected", startup: "eager" }],
    session: session(),
    suggest: () => [],
    ...overrides,
  };
}

const steps = (result: ReturnType<typeof explainTool>) => result.decisions.map((decision) => `${decision.step}:${decision.verdict}`);

describe("toolpool explain: the chain of decisions", () => {
  test("compiled out of this tier: the flag that gates it, and the tier", () => {
    const result = explainTool(input({ name: "Sleep", tier: { name: "lite", features: [] } }));
    expect(result).toMatchObject({ inToolsArray: false, callable: false, summary: "Sleep is not in this binary: tier lite is built without PROACTIVE" });
    expect(result.decisions).toEqual([
      { step: "compiled", verdict: "blocked", reason: "Sleep is gated by the compile-time flag PROACTIVE (the Sleep tool); this binary (tier lite) was built without it, so it holds none of its code" },
    ]);
  });

  test("denied by a config rule: which rule, from which file", () => {
    const pool = assemblePool({ builtins: [core, weather], mcpTools: [fxEcho], deny: ["mcp__fx"] });
    const result = explainTool(input({ name: "mcp__fx__echo", pool, configDeny: { rules: ["Bash(rm *)", "mcp__fx"], source: "/etc/toolpool.json" } }));
    expect(result.decisions).toEqual([
      { step: "deny_rule", verdict: "blocked", reason: 'removed from the pool by the deny rule "mcp__fx" in /etc/toolpool.json', rule: "mcp__fx", source: "/etc/toolpool.json" },
    ]);
    expect(result.summary).toBe('mcp__fx__echo is denied by "mcp__fx" (/etc/toolpool.json)');
  });

  for (const [state, startup, expected] of [
    ["disabled", "eager", 'MCP server fx is disabled in the config ("disabled": true)'],
    ["parked", "eager", "MCP server fx is parked after repeated failures: exited with code 1"],
    ["pending", "eager", "MCP server fx is connecting"],
    ["idle", "lazy", "MCP server fx starts lazily and has not started yet (a select: of one of its tools, or a call, starts it)"],
  ] as const) {
    test(`server ${state}: its tools are not in the pool, and why`, () => {
      const pool = assemblePool({ builtins: [core, weather], mcpTools: [] });
      const result = explainTool(input({ name: "mcp__fx__echo", pool, servers: [{ name: "fx", state, startup, ...(state === "parked" && { reason: "exited with code 1" }) }] }));
      expect(result.decisions).toEqual([{ step: "server", verdict: "blocked", reason: expected, server: "fx", state }]);
      expect(result.summary).toBe(`mcp__fx__echo is not in the pool: ${expected}`);
    });
  }

  test("a cached tool of a server still connecting is in the pool, with a note", () => {
    const result = explainTool(input({ name: "mcp__fx__echo", servers: [{ name: "fx", state: "pending" }] }));
    expect(result.decisions[0]).toMatchObject({ step: "server", verdict: "note", state: "pending" });
  });

  test("deferred by the mcp_tool rule, not discovered: waits behind ToolSearch", () => {
    const result = explainTool(input({ name: "mcp__fx__echo" }));
    expect(steps(result)).toEqual(["server:pass", "pool:pass", "deferral:note", "delivery:note", "discovered:blocked"]);
    expect(result.decisions[2]).toEqual({ step: "deferral", verdict: "note", reason: "an MCP tool: deferred whenever the session defers", rule: "mcp_tool" });
    expect(result).toMatchObject({ inToolsArray: false, callable: false, tool: "mcp__fx__echo" });
  });

  test("discovered by this session's search (with its query): runs through ExecuteExtraTool in proxy", () => {
    const discovered = new Map([["WeatherForecast", { via: "search" as const, query: "weather city" }]]);
    const result = explainTool(input({ name: "WeatherForecast", session: session({ discovered }) }));
    expect(result.decisions.at(-1)).toEqual({ step: "discovered", verdict: "pass", reason: 'discovered by this session\'s ToolSearch "weather city"', via: "search", query: "weather city" });
    expect(result.decisions.find((decision) => decision.step === "deferral")?.rule).toBe("should_defer");
    expect(result).toMatchObject({ inToolsArray: false, callable: true });
  });

  test("discovered by prefetch or the transcript, in native delivery: in the array with defer_loading", () => {
    for (const via of ["prefetch", "transcript"] as const) {
      const result = explainTool(input({ name: "WeatherForecast", session: session({ delivery: "native", discovered: new Map([["WeatherForecast", { via }]]) }) }));
      expect(result).toMatchObject({ inToolsArray: true, callable: true, summary: "WeatherForecast is in the array as a discovered deferred tool (defer_loading)" });
      expect(result.decisions.at(-1)).toMatchObject({ step: "discovered", verdict: "pass", via });
    }
  });

  test("discovered in mid-conversation delivery: a tool_addition message loads it", () => {
    const result = explainTool(input({ name: "WeatherForecast", session: session({ delivery: "mid-conversation", discovered: new Map([["WeatherForecast", { via: "transcript" as const }]]) }) }));
    expect(result).toMatchObject({ inToolsArray: true, callable: true, summary: "WeatherForecast is discovered: a tool_addition system message loads it (mid-conversation delivery; the array itself never changes)" });
  });

  test("promoted: a deferred tool in the session's core set (its workspace's most used) is sent in full", () => {
    const result = explainTool(input({ name: "WeatherForecast", session: session({ promoted: new Set(["WeatherForecast"]) }) }));
    expect(result).toMatchObject({ inToolsArray: true, callable: true, summary: "WeatherForecast is sent in full: promoted to this session's core set" });
    expect(result.decisions.at(-1)).toMatchObject({ step: "promoted", verdict: "pass" });
    // Without promotion the same session keeps it deferred.
    expect(explainTool(input({ name: "WeatherForecast", session: session() })).inToolsArray).toBe(false);
  });

  test("a core tool is sent in full; a session that does not defer sends deferred tools in full too", () => {
    expect(explainTool(input({ name: "Echo" }))).toMatchObject({ inToolsArray: true, callable: true, summary: "Echo is sent in full in every request (core)" });
    const standard = explainTool(input({ name: "WeatherForecast", session: session({ deferring: false, delivery: "standard", mode: "standard", modeReason: "tool_search=false" }) }));
    expect(standard).toMatchObject({ inToolsArray: true, summary: "WeatherForecast is sent in full: this session does not defer" });
  });

  test("kill switch: named when the session opened (out of its arrays), or now (calls refused)", () => {
    const atOpen = explainTool(input({ name: "Echo", session: session({ killedAtOpen: ["Echo"] }) }));
    expect(atOpen).toMatchObject({ inToolsArray: false, callable: false });
    expect(atOpen.decisions.at(-1)?.step).toBe("kill_switch");
    const now = explainTool(input({ name: "Echo", session: session({ killSwitch: () => 'disabled by the runtime flag "disabled_tools"' }) }));
    expect(now).toMatchObject({ inToolsArray: true, callable: false });
    expect(now.decisions).toContainEqual({ step: "kill_switch", verdict: "blocked", reason: 'calls are refused at once: disabled by the runtime flag "disabled_tools"' });
  });

  test("a session deny rule that names the tool: in the array, every call refused", () => {
    const result = explainTool(input({ name: "Echo", session: session({ deny: ["Echo"] }) }));
    expect(result).toMatchObject({ inToolsArray: true, callable: false });
    expect(result.decisions).toContainEqual({ step: "permissions", verdict: "blocked", reason: 'the session\'s deny rule "Echo" refuses every call', rule: "Echo", source: "session" });
  });

  test("a name collision: which source kept the name, which lost it", () => {
    const pool = assemblePool({ builtins: [core], mcpTools: [mcp("a", "x", { name: "Echo" })] });
    expect(pool.collisions.length).toBe(1);
    const result = explainTool(input({ name: "Echo", pool, offered: [core] }));
    expect(result.decisions[0]).toEqual({ step: "collision", verdict: "note", reason: "several tools are named Echo: built-in Echo kept the name; a/x dropped (a later source never replaces an earlier one)" });
  });

  test("a tool in the pool that is not enabled is never sent", () => {
    const off = buildTool({ name: "Off", description: "Off.", inputSchema: z.strictObject({}), isEnabled: () => false, call: async () => textResult("") });
    const result = explainTool(input({ name: "Off", pool: assemblePool({ builtins: [off], mcpTools: [] }) }));
    expect(result).toMatchObject({ inToolsArray: false, callable: false });
    expect(steps(result)).toEqual(["pool:pass", "enabled:blocked"]);
  });

  test("an alias resolves to its tool", () => {
    const result = explainTool(input({ name: "Forecast" }));
    expect(result.tool).toBe("WeatherForecast");
    expect(result.decisions[0]).toEqual({ step: "alias", verdict: "note", reason: '"Forecast" is an alias of WeatherForecast' });
  });

  test("a name that does not exist: did-you-mean", () => {
    const result = explainTool(input({ name: "Ech", suggest: (name) => (name === "Ech" ? ["Echo"] : []) }));
    expect(result).toEqual({
      name: "Ech",
      session: "s1",
      inToolsArray: false,
      callable: false,
      summary: 'no tool named "Ech"; did you mean Echo?',
      decisions: [{ step: "pool", verdict: "blocked", reason: 'no tool named "Ech" is in the pool' }],
      didYouMean: ["Echo"],
    });
  });

  test("an MCP name for a server that is not configured; a connected server without that tool", () => {
    expect(explainTool(input({ name: "mcp__nope__x" })).decisions[0]).toEqual({ step: "server", verdict: "blocked", reason: 'no MCP server named "nope" is configured' });
    expect(explainTool(input({ name: "mcp__fx__missing" })).summary).toBe('fx offers no tool "missing"');
  });

  test("the session's own tools: ToolSearch and ExecuteExtraTool follow delivery, StructuredOutput the output schema", () => {
    expect(explainTool(input({ name: "ExecuteExtraTool" }))).toMatchObject({ inToolsArray: true });
    expect(explainTool(input({ name: "ExecuteExtraTool", session: session({ delivery: "native" }) }))).toMatchObject({ inToolsArray: false });
    expect(explainTool(input({ name: "ToolSearch", session: session({ deferring: false, delivery: "standard" }) }))).toMatchObject({ inToolsArray: false });
    expect(explainTool(input({ name: "StructuredOutput", session: session({ hasOutputSchema: true }) }))).toMatchObject({ inToolsArray: true });
  });

  test("no session: a pool-level answer", () => {
    expect(explainTool(input({ name: "Echo", session: undefined }))).toMatchObject({ inToolsArray: false, callable: true, decisions: [{ step: "pool" }, { step: "session", verdict: "note" }] });
  });
});
