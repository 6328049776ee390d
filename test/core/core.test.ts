/** The core through its typed API, no socket: sessions own their state; one pipeline; one MCP view. */
import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { buildTool } from "../../src/tool/build-tool.ts";
import { resultText, textResult } from "../../src/tool/result.ts";
import type { Tool } from "../../src/tool/tool.ts";
import { SettingsError } from "../../src/session/settings-error.ts";
import { coreHarness } from "../helpers/core-harness.ts";

const quote = buildTool({
  name: "StockQuote",
  description: "Look up the latest stock price quote for a ticker symbol.",
  inputSchema: z.strictObject({ ticker: z.string() }),
  shouldDefer: true,
  isReadOnly: true,
  call: async ({ ticker }) => textResult(`${ticker}: 100`),
});
const echo = buildTool({ name: "Echo", description: "Returns its text.", inputSchema: z.strictObject({ text: z.string() }), call: async ({ text }) => textResult(text) });

function counting(tool: Tool): { tool: Tool; count: () => number } {
  let validations = 0;
  return { tool: { ...tool, validator: (input: unknown) => (validations++, tool.validator(input)) }, count: () => validations };
}

describe("the call pipeline, through the core", () => {
  test("a call is validated once, directly and through ExecuteExtraTool", async () => {
    const counted = counting(quote);
    const { open, call } = coreHarness({ builtins: [echo, counted.tool] });
    const session = open({ delivery: "proxy" });
    expect(resultText(await call(session, "StockQuote", { ticker: "A" }))).toBe("A: 100");
    expect(counted.count()).toBe(1);
    expect(resultText(await call(session, "ExecuteExtraTool", { tool_name: "StockQuote", params: { ticker: "B" } }))).toBe("B: 100");
    expect(counted.count()).toBe(2);
  });

  test("a blind call that validates marks the tool discovered in the session; one that does not gets the schema", async () => {
    const { open, call } = coreHarness({ builtins: [echo, quote] });
    const session = open({ delivery: "proxy" });
    const wrong = await call(session, "ExecuteExtraTool", { tool_name: "StockQuote", params: { symbol: "A" } });
    expect(resultText(wrong)).toContain('The input schema of StockQuote:\n{"type":"object","properties":{"ticker":{"type":"string"}}');
    expect(session.hasDiscovered("StockQuote")).toBe(false);
    await call(session, "ExecuteExtraTool", { tool_name: "StockQuote", params: { ticker: "A" } });
    expect(session.hasDiscovered("StockQuote")).toBe(true);
  });

  test("the session's permission rules judge the target, not the router", async () => {
    const { open, call } = coreHarness({ builtins: [echo, quote] });
    const session = open({ delivery: "proxy", permissions: { mode: "default", allow: [], deny: ["StockQuote"] } });
    expect(resultText(await call(session, "ExecuteExtraTool", { tool_name: "StockQuote", params: { ticker: "A" } }))).toBe(
      'Permission denied for StockQuote: denied by the rule "StockQuote".',
    );
  });
});

describe("sessions own their state", () => {
  test("own tools are built once and kept by the session; searched names live on the session", async () => {
    const { open, call } = coreHarness({ builtins: [echo, quote] });
    const session = open({ delivery: "proxy" });
    const own = session.ownTools;
    expect(own?.toolSearch.name).toBe("ToolSearch");
    await call(session, "ToolSearch", { query: "stock price quote" });
    expect([...session.searched]).toEqual(["StockQuote"]);
    expect(session.ownTools).toBe(own);
  });

  test("flag attributes are derived once per settings and again after the session is re-opened", () => {
    const { core, open } = coreHarness({ builtins: [echo] });
    const session = open({ model: "claude-sonnet-4-5" });
    const first = core.flagAttributes(session);
    expect(core.flagAttributes(session)).toBe(first);
    core.openSession({ sessionId: session.id, model: "gpt-5" });
    const second = core.flagAttributes(session);
    expect(second).not.toBe(first);
    expect(second.model).toBe("gpt-5");
  });

  test("a bad setting is a SettingsError naming the field, and opens nothing", () => {
    const { core, open } = coreHarness({ builtins: [echo] });
    expect(() => open({ workspaceRoots: ["/definitely/not/here"] })).toThrow(SettingsError);
    expect(() => open({ workspaceRoots: ["/definitely/not/here"] })).toThrow('field "workspaceRoots.0": /definitely/not/here does not exist');
    expect(core.sessions.counts()).toEqual({ active: 0, detached: 0 });
  });
});

describe("one MCP view of a session's tools", () => {
  test("proxy: core tools and the meta-tools, with hints only where they hold for every input", () => {
    const { core, open } = coreHarness({ builtins: [echo, quote] });
    const view = core.mcpTools(open({ delivery: "proxy" }));
    expect(view.map((tool) => [tool.name, tool.annotations])).toEqual([
      ["Echo", undefined],
      ["ToolSearch", { readOnlyHint: true, destructiveHint: false, openWorldHint: false }],
      ["ExecuteExtraTool", undefined],
    ]);
  });
});
