/** Compact ToolSearch answers (flag `search_compact_answers`): one-line signatures, full schemas only for select: and a clear first. */
import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { scanTranscript } from "../../src/assembly/scan-transcript.ts";
import { SIGNATURE_MAX_PARAMS, toolSignature, typeName } from "../../src/assembly/tool-signature.ts";
import { clearlyFirst, CLEAR_FIRST_RATIO, NAMED_FIRST_RATIO, spellsName } from "../../src/builtin/tool-search-compact.ts";
import { createToolSearchTool, type ToolSearchDeps, type ToolSearchEngine } from "../../src/builtin/tool-search.ts";
import { buildInfo } from "../../src/build-info.ts";
import { StaticFlags } from "../../src/flags/static-flags.ts";
import { DEFAULT_PERMISSIONS } from "../../src/permissions/rules.ts";
import type { QueryResult } from "../../src/search/types.ts";
import { buildTool } from "../../src/tool/build-tool.ts";
import { executeTool } from "../../src/pipeline/execute.ts";
import { resultText, textResult, type ToolResult } from "../../src/tool/result.ts";
import type { ToolContext } from "../../src/tool/tool.ts";
import { anthropicCall, indexOf, mcp, samplePool } from "../assembly/fixtures.ts";
import { coreHarness } from "../helpers/core-harness.ts";

const pool = samplePool();
const context: ToolContext = { signal: new AbortController().signal, sessionId: "s", workspaceRoots: ["/tmp"], cwd: "/tmp", sessionState: new Map() };

/** An engine whose keyword answer is fixed, so "clearly first" is decided by the scores given here. */
function fixedEngine(matches: { name: string; score: number }[], extra: Partial<QueryResult> = {}): ToolSearchEngine {
  const real = indexOf(pool);
  return {
    query(text, options) {
      if (text.startsWith("select:")) return real.query(text, options);
      return { kind: "keyword", matches: matches.filter((match) => options?.filter?.(match.name) ?? true), ...extra };
    },
  };
}

function search(query: string, deps: Partial<ToolSearchDeps>): Promise<ToolResult> {
  const tool = createToolSearchTool({ engine: indexOf(pool), lookup: pool.get, delivery: "proxy", compact: true, ...deps });
  return executeTool(tool.name, { query }, context, { lookup: (name) => (name === tool.name ? tool : undefined), permissions: DEFAULT_PERMISSIONS });
}

const discoveredBy = (result: ToolResult) => [...scanTranscript(anthropicCall("ToolSearch", {}, result.content as unknown as Record<string, unknown>[])).discovered];

const close = [
  { name: "mcp__github__create_issue", score: 10 },
  { name: "mcp__github__get_issue", score: 9 },
  { name: "mcp__jira__create-ticket", score: 4 },
];
const clear = [
  { name: "mcp__github__create_issue", score: 20 },
  { name: "mcp__github__get_issue", score: 9 },
];

describe("one-line signatures", () => {
  test("name, parameters with types (optional marked ?), first sentence of the description", () => {
    const line = toolSignature({
      name: "mcp__x__send",
      description: "Send a message to a channel. Markdown is allowed.\n\nLong details follow.",
      inputJSONSchema: {
        type: "object",
        properties: {
          channel: { type: "string" },
          tags: { type: "array", items: { type: "string" } },
          mode: { enum: ["fast", "slow"] },
          when: { anyOf: [{ type: "string" }, { type: "null" }] },
          meta: { type: "object", properties: { a: { type: "number" } } },
        },
        required: ["channel"],
      },
    });
    expect(line).toBe('- mcp__x__send(channel: string, tags?: string[], mode?: "fast"|"slow", when?: string|null, meta?: object) — Send a message to a channel.');
  });

  test("a schema with many parameters, long names and a long description still gives a bounded line", () => {
    const properties = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`${"p".repeat(200)}${index}`, { type: "string" }]));
    const line = toolSignature({ name: "t", description: "word ".repeat(500), inputJSONSchema: { type: "object", properties } });
    expect(line).toContain(`… +${40 - SIGNATURE_MAX_PARAMS} more`);
    expect(line.length).toBeLessThan(1_400);
  });

  test("odd schemas do not throw: no properties, non-object property schemas, deep arrays", () => {
    expect(toolSignature({ name: "t", description: "", inputJSONSchema: {} })).toBe("- t()");
    expect(typeName(true)).toBe("any");
    expect(typeName({ type: "array", items: { type: "array", items: { type: "array", items: { type: "string" } } } })).toBe("array[][]");
  });
});

describe("clearly first", () => {
  test("the only match, the exact name, or a score at least CLEAR_FIRST_RATIO times the second's", () => {
    expect(clearlyFirst({ matches: [{ name: "a", score: 1 }] })).toBe("a");
    expect(clearlyFirst({ matches: [{ name: "a", score: 1 }, { name: "b", score: 1 }], exactName: "a" })).toBe("a");
    expect(clearlyFirst({ matches: [{ name: "a", score: CLEAR_FIRST_RATIO * 4 }, { name: "b", score: 4 }] })).toBe("a");
    expect(clearlyFirst({ matches: [{ name: "a", score: CLEAR_FIRST_RATIO * 4 - 0.01 }, { name: "b", score: 4 }] })).toBeUndefined();
    expect(clearlyFirst({ matches: [] })).toBeUndefined();
    expect(clearlyFirst({ matches: [{ name: "a", score: 0 }, { name: "b", score: 0 }] })).toBeUndefined();
  });

  test("a query that spells the first's own name out needs only NAMED_FIRST_RATIO; a partial spelling does not", () => {
    const close = { matches: [{ name: "mcp__mail__send_email", score: NAMED_FIRST_RATIO * 4 }, { name: "mcp__mail__draft_email", score: 4 }] };
    const ownName = (name: string) => name.split("__")[2]!;
    expect(clearlyFirst(close, { query: "please send an Email to Bob", ownName })).toBe("mcp__mail__send_email");
    expect(clearlyFirst(close, { query: "email Bob", ownName })).toBeUndefined();
    expect(clearlyFirst(close)).toBeUndefined();
    const under = { matches: [{ name: "mcp__mail__send_email", score: NAMED_FIRST_RATIO * 4 - 0.01 }, { name: "b", score: 4 }] };
    expect(clearlyFirst(under, { query: "send email", ownName })).toBeUndefined();
    expect(spellsName("get the user by id", "getUserById")).toBe(true);
    expect(spellsName("get user", "get-user.v2")).toBe(false);
    expect(spellsName("anything", "__")).toBe(false);
  });
});

describe("compact answers (proxy)", () => {
  test("no clear first: every match on one line, no schema, nothing discovered", async () => {
    const result = await search("github issue", { engine: fixedEngine(close) });
    const text = resultText(result);
    expect(text).not.toContain("Input schema");
    expect(text).toContain("- mcp__github__create_issue(title: string) — Create an issue in a GitHub repository.");
    expect(text).toContain("- mcp__jira__create-ticket(title: string) — Open a Jira ticket.");
    expect(text).toContain('"select:<name>"');
    expect(discoveredBy(result)).toEqual([]);
    expect(result.structuredContent).toEqual({ query: "github issue", kind: "keyword", matches: close.map((match) => match.name), compact: true, full: [] });
  });

  test("a clear first is shown in full and discovered; the others are lines", async () => {
    const delivered: string[][] = [];
    const result = await search("create github issue", { engine: fixedEngine(clear), onDelivered: (names) => delivered.push([...names]) });
    const text = resultText(result);
    expect(text).toContain('### mcp__github__create_issue\nCreate an issue in a GitHub repository.\nInput schema: {"type":"object"');
    expect(text).toContain("- mcp__github__get_issue(title: string) — Read one GitHub issue with its comments.");
    expect(text).not.toContain("### mcp__github__get_issue");
    expect(discoveredBy(result)).toEqual(["mcp__github__create_issue"]);
    expect(delivered).toEqual([["mcp__github__create_issue"]]);
  });

  test("select: of a tool named on a line delivers it in full, as without the flag", async () => {
    const delivered: string[][] = [];
    const result = await search("select:mcp__github__get_issue", { engine: fixedEngine(close), onDelivered: (names) => delivered.push([...names]) });
    expect(resultText(result)).toContain("### mcp__github__get_issue\nRead one GitHub issue with its comments.\nInput schema:");
    expect(discoveredBy(result)).toEqual(["mcp__github__get_issue"]);
    expect(delivered).toEqual([["mcp__github__get_issue"]]);
  });

  test("the flag off: the same search gives every match in full (today's answer)", async () => {
    const result = await search("github issue", { engine: fixedEngine(close), compact: false });
    expect(discoveredBy(result)).toEqual(close.map((match) => match.name));
    expect(result.structuredContent?.compact).toBeUndefined();
  });

  test("many long matches are cut by whole lines, and the answer says how many were left out", async () => {
    const schema = { type: "object", properties: Object.fromEntries(Array.from({ length: 12 }, (_, index) => [`${"q".repeat(39)}${index}`, { type: "string" }])) };
    // The clear first carries a 50 KB description: the lines share what is left of the answer's budget.
    const tools = Array.from({ length: 100 }, (_, index) => mcp("big", `tool_${"x".repeat(100)}_${index}`, { schema, description: "d ".repeat(index === 0 ? 25_000 : 80) }));
    const big = samplePool({ mcpTools: tools });
    const matches = tools.map((tool, index) => ({ name: tool.name, score: index === 0 ? 1_000 : 100 - index * 0.1 }));
    const engine: ToolSearchEngine = { query: () => ({ kind: "keyword", matches }) };
    const tool = createToolSearchTool({ engine, lookup: big.get, delivery: "proxy", compact: true });
    const result = await executeTool(tool.name, { query: "x", max_results: 100 }, context, { lookup: () => tool, permissions: DEFAULT_PERMISSIONS });
    const text = resultText(result);
    expect(text.length).toBeLessThan(100_000);
    expect(text.endsWith(`[toolpool discovered: ${tools[0]!.name}]`)).toBe(true);
    expect(text).toMatch(/\d+ more match\(es\) not shown: narrow the query\./);
  });
});

describe("compact answers (native)", () => {
  test("only the clear first is a tool_reference; lines load nothing", async () => {
    const result = await search("create github issue", { engine: fixedEngine(clear), delivery: "native" });
    expect(result.content.filter((block) => block.type === "tool_reference")).toEqual([{ type: "tool_reference", tool_name: "mcp__github__create_issue" }]);
    expect(resultText(result)).toContain("- mcp__github__get_issue(title: string)");
    expect(discoveredBy(result)).toEqual(["mcp__github__create_issue"]);
  });

  test("no clear first: no references at all, the text says to select", async () => {
    const result = await search("github issue", { engine: fixedEngine(close), delivery: "native" });
    expect(result.content.every((block) => block.type === "text")).toBe(true);
    expect(resultText(result)).toContain('not loaded — load one with ToolSearch "select:<name>"');
  });

  test("the description says so only when the flag is on", () => {
    const on = createToolSearchTool({ engine: indexOf(pool), lookup: pool.get, delivery: "native", compact: true });
    const off = createToolSearchTool({ engine: indexOf(pool), lookup: pool.get, delivery: "native" });
    expect(on.description).toContain("one line per tool");
    expect(off.description).not.toContain("one line per tool");
  });

  test("mid-conversation answers in full with the flag on, and its description does not claim otherwise", async () => {
    const midconv = createToolSearchTool({ engine: fixedEngine(close), lookup: pool.get, delivery: "mid-conversation", compact: true });
    const answer = await search("github issue", { engine: fixedEngine(close), delivery: "mid-conversation" });
    expect({ compact: answer.structuredContent?.compact, lines: resultText(answer).includes("- mcp__github__get_issue("), claims: midconv.description.includes("one line per tool") }).toEqual({
      compact: undefined,
      lines: false,
      claims: false,
    });
  });
});

describe("compact answers through the core (the runtime flag)", () => {
  const weather = buildTool({ name: "WeatherNow", description: "Current weather for a city.", inputSchema: z.strictObject({ city: z.string() }), shouldDefer: true, isReadOnly: true, call: async ({ city }) => textResult(`${city}: sunny`) });
  const forecast = buildTool({ name: "WeatherForecast", description: "Weather forecast for a city.", inputSchema: z.strictObject({ city: z.string(), days: z.number() }), shouldDefer: true, isReadOnly: true, call: async ({ city }) => textResult(`${city}: rain`) });
  const flags = (on: boolean) => new StaticFlags({ features: buildInfo().features, values: { search_compact_answers: on } });

  test("a tool named only on a line is not marked found: a wrong ExecuteExtraTool call gets its schema, a right one runs", async () => {
    const { open, call } = coreHarness({ builtins: [weather, forecast], flags: flags(true) });
    const session = open({ delivery: "proxy" });
    const answer = await call(session, "ToolSearch", { query: "weather city" });
    expect(answer.structuredContent?.compact).toBe(true);
    const lined = (answer.structuredContent?.matches as string[]).filter((name) => !(answer.structuredContent?.full as string[]).includes(name));
    expect(lined.length).toBeGreaterThan(0);
    const name = lined[0]!;
    expect(session.hasDiscovered(name)).toBe(false);
    const wrong = await call(session, "ExecuteExtraTool", { tool_name: name, params: { town: "Oslo" } });
    expect(resultText(wrong)).toContain(`The input schema of ${name}:`);
    const right = await call(session, "ExecuteExtraTool", { tool_name: name, params: name === "WeatherNow" ? { city: "Oslo" } : { city: "Oslo", days: 2 } });
    expect(right.isError).toBe(false);
  });

  test("flag off (the default): every match found is marked, as before", async () => {
    const { open, call } = coreHarness({ builtins: [weather, forecast] });
    const session = open({ delivery: "proxy" });
    const answer = await call(session, "ToolSearch", { query: "weather city" });
    expect(answer.structuredContent?.compact).toBeUndefined();
    expect([...session.searched].sort()).toEqual(["WeatherForecast", "WeatherNow"]);
    expect(session.settings.runtime.compactAnswers).toBe(false);
  });
});
