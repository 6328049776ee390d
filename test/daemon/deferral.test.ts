import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { buildTool } from "../../src/tool/build-tool.ts";
import { textResult } from "../../src/tool/result.ts";
import { dispatchHarness, type MemoryPeer } from "../helpers/dispatch-harness.ts";
import { echoTool } from "../helpers/test-tools.ts";

const weatherTool = buildTool({
  name: "WeatherForecast",
  description: "Get the weather forecast for a city: temperature, rain and wind for the next days.",
  inputSchema: z.strictObject({ city: z.string().describe("City name") }),
  shouldDefer: true,
  isReadOnly: () => true,
  call: async ({ city }) => textResult(`Sunny in ${city}`),
});
const stockTool = buildTool({
  name: "StockQuote",
  description: "Look up the latest stock price quote for a ticker symbol.",
  inputSchema: z.strictObject({ ticker: z.string() }),
  shouldDefer: true,
  call: async ({ ticker }) => textResult(`${ticker}: 100`),
});
const builtins = [echoTool, weatherTool, stockTool];

function names(tools: unknown[]): string[] {
  return tools.map((tool) => (tool as { name: string }).name);
}

async function result(client: MemoryPeer, method: string, params: Record<string, unknown>) {
  const response = await client.request(method, params);
  if (response.error) throw new Error(JSON.stringify(response.error));
  return response.result as Record<string, unknown>;
}

describe("deferral over the socket", () => {
  test("proxy: a fixed array; search, refuse an undiscovered tool, then run it once discovered", async () => {
    await using harness = dispatchHarness({ builtins });
    using client = harness.peer();
    const { sessionId } = await result(client, "toolpool/session", { model: "gpt-5", provider: "openai", format: "anthropic", delivery: "proxy" });
    const messages: unknown[] = [{ role: "user", content: "What's the weather in Paris?" }];
    const first = await result(client, "toolpool/assemble", { sessionId, messages });
    expect(names(first.tools as unknown[])).toEqual(["Echo", "ToolSearch", "ExecuteExtraTool"]);
    expect(first).toMatchObject({ delivery: { delivery: "proxy" }, mode: { mode: "tst" }, counts: { core: 1, deferred: 2, discovered: 0 } });
    expect((first.announcement as { text: string }).text).toContain("WeatherForecast");

    const search = await result(client, "toolpool/call", { sessionId, name: "ToolSearch", input: { query: "weather forecast city" }, toolUseId: "t1" });
    const searchText = (search.content as { text: string }[]).map((block) => block.text).join("");
    expect(searchText).toContain("WeatherForecast");
    expect(searchText).toContain('"city"');
    expect(searchText).toContain("[toolpool discovered: WeatherForecast");

    // A blind call (never discovered) with the wrong params is refused with the tool's schema.
    const notDiscovered = await result(client, "toolpool/call", {
      sessionId,
      name: "ExecuteExtraTool",
      input: { tool_name: "StockQuote", params: { symbol: "ACME" } },
      messages,
    });
    expect(notDiscovered.isError).toBe(true);
    expect(JSON.stringify(notDiscovered.content)).toContain("The input schema of StockQuote");
    expect(JSON.stringify(notDiscovered.content)).toContain("ticker");

    messages.push(
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "ToolSearch", input: { query: "weather forecast city" } }] },
      { role: "user", content: [search.toolResult] },
    );
    const second = await result(client, "toolpool/assemble", { sessionId, messages });
    expect(JSON.stringify(second.tools)).toBe(JSON.stringify(first.tools));
    expect(second.discovered).toContain("WeatherForecast");
    const ran = await result(client, "toolpool/call", {
      sessionId,
      name: "ExecuteExtraTool",
      input: { tool_name: "WeatherForecast", params: { city: "Paris" } },
    });
    expect(ran).toMatchObject({ isError: false, content: [{ type: "text", text: "Sunny in Paris" }] });
  });

  test("native: ToolSearch answers with tool_reference and the next array carries the tool with defer_loading", async () => {
    await using harness = dispatchHarness({ builtins });
    using client = harness.peer();
    const { sessionId } = await result(client, "toolpool/session", { model: "claude-sonnet-4-5", delivery: "auto" });
    const messages: unknown[] = [{ role: "user", content: "stock price of ACME?" }];
    const first = await result(client, "toolpool/assemble", { sessionId, messages });
    expect(first).toMatchObject({ delivery: { delivery: "native" }, betas: ["advanced-tool-use-2025-11-20"] });
    expect(names(first.tools as unknown[])).toEqual(["Echo", "ToolSearch"]);
    const search = await result(client, "toolpool/call", { sessionId, name: "ToolSearch", input: { query: "select:StockQuote" }, toolUseId: "t1" });
    expect(search.content).toContainEqual({ type: "tool_reference", tool_name: "StockQuote" });
    messages.push(
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "ToolSearch", input: { query: "select:StockQuote" } }] },
      { role: "user", content: [search.toolResult] },
    );
    const second = await result(client, "toolpool/assemble", { sessionId, messages });
    expect(second.tools).toContainEqual(expect.objectContaining({ name: "StockQuote", defer_loading: true }));
    expect((second.tools as unknown[]).slice(0, 2)).toEqual((first.tools as unknown[]).slice(0, 2));
  });

  test("a restarted daemon returns the byte-identical array and discovered set for the same transcript", async () => {
    const transcript: unknown[] = [{ role: "user", content: "weather?" }];
    const run = async () => {
      await using harness = dispatchHarness({ builtins });
      using client = harness.peer();
      const { sessionId } = await result(client, "toolpool/session", { sessionId: "conv-1", model: "claude-opus-4-1" });
      const search = await result(client, "toolpool/call", { sessionId, name: "ToolSearch", input: { query: "select:WeatherForecast" }, toolUseId: "t1" });
      const messages = [
        ...transcript,
        { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "ToolSearch", input: { query: "select:WeatherForecast" } }] },
        { role: "user", content: [search.toolResult] },
      ];
      const assembled = await result(client, "toolpool/assemble", { sessionId, messages });
      return { tools: JSON.stringify(assembled.tools), discovered: assembled.discovered };
    };
    const before = await run();
    const after = await run();
    expect(after).toEqual(before);
    expect(before.discovered).toEqual(["WeatherForecast"]);
  });

  test("a plain MCP client gets the proxy view and can search then execute", async () => {
    await using harness = dispatchHarness({ builtins });
    using client = harness.peer();
    const list = (await result(client, "tools/list", {})).tools as { name: string }[];
    expect(list.map((tool) => tool.name)).toEqual(["Echo", "ToolSearch", "ExecuteExtraTool"]);
    await result(client, "tools/call", { name: "ToolSearch", arguments: { query: "weather" } });
    const ran = await result(client, "tools/call", { name: "ExecuteExtraTool", arguments: { tool_name: "WeatherForecast", params: { city: "Oslo" } } });
    expect(ran).toEqual({ content: [{ type: "text", text: "Sunny in Oslo" }], isError: false });
  });
});

describe("compaction over the socket", () => {
  test("the compaction block carries every discovered tool across a summary", async () => {
    await using harness = dispatchHarness({ builtins });
    using client = harness.peer();
    const { sessionId } = await result(client, "toolpool/session", { delivery: "proxy", model: "gpt-5" });
    const search = await result(client, "toolpool/call", { sessionId, name: "ToolSearch", input: { query: "select:StockQuote,WeatherForecast" }, toolUseId: "t1" });
    const older = [
      { role: "user", content: "prices and weather" },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "ToolSearch", input: { query: "select:StockQuote,WeatherForecast" } }] },
      { role: "user", content: [search.toolResult] },
    ];
    const compact = await result(client, "toolpool/compact", { sessionId, messages: older });
    expect(compact.discovered).toEqual(["StockQuote", "WeatherForecast"]);
    const summarized = [{ role: "user", content: `Summary of the conversation so far.\n${compact.block}` }, { role: "user", content: "continue" }];
    const after = await result(client, "toolpool/assemble", { sessionId, messages: summarized });
    expect(after.discovered).toEqual(["StockQuote", "WeatherForecast"]);
  });
});

describe("proxy stability over the socket", () => {
  test("tools/list changes nothing: the discovered set of the last assembled transcript survives it", async () => {
    await using harness = dispatchHarness({ builtins });
    using client = harness.peer();
    const { sessionId } = await result(client, "toolpool/session", { model: "gpt-5", provider: "openai", format: "anthropic", delivery: "proxy" });
    // A transcript from before a daemon restart: this daemon never ran the search itself.
    const messages: unknown[] = [
      { role: "user", content: "stock price of ACME?" },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "ToolSearch", input: { query: "select:StockQuote" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "StockQuote: Look up a quote.\n[toolpool discovered: StockQuote]" }] },
    ];
    expect((await result(client, "toolpool/assemble", { sessionId, messages })).discovered).toEqual(["StockQuote"]);
    await result(client, "tools/list", {});
    const ran = await result(client, "toolpool/call", { sessionId, name: "ExecuteExtraTool", input: { tool_name: "StockQuote", params: { ticker: "ACME" } } });
    expect(ran).toMatchObject({ isError: false, content: [{ type: "text", text: "ACME: 100" }] });
  });

  test("50 turns of searches and executions leave the tools array byte-identical", async () => {
    await using harness = dispatchHarness({ builtins });
    using client = harness.peer();
    const { sessionId } = await result(client, "toolpool/session", { model: "gpt-5", provider: "openai", delivery: "proxy" });
    const messages: unknown[] = [{ role: "user", content: "start" }];
    const first = JSON.stringify((await result(client, "toolpool/assemble", { sessionId, messages })).tools);
    for (let turn = 0; turn < 50; turn++) {
      const search = { id: `s${turn}`, name: "ToolSearch", input: { query: turn % 2 ? "weather forecast" : "stock quote ticker" } };
      const found = await result(client, "toolpool/call", { sessionId, name: search.name, input: search.input, toolUseId: search.id });
      const target = turn % 2 ? { tool_name: "WeatherForecast", params: { city: `C${turn}` } } : { tool_name: "StockQuote", params: { ticker: `T${turn}` } };
      messages.push(
        { role: "assistant", tool_calls: [{ id: search.id, type: "function", function: { name: search.name, arguments: JSON.stringify(search.input) } }] },
        found.toolResult,
      );
      const ran = await result(client, "toolpool/call", { sessionId, name: "ExecuteExtraTool", input: target, toolUseId: `x${turn}` });
      expect(ran.isError).toBe(false);
      messages.push(
        { role: "assistant", tool_calls: [{ id: `x${turn}`, type: "function", function: { name: "ExecuteExtraTool", arguments: JSON.stringify(target) } }] },
        ran.toolResult,
        { role: "user", content: `turn ${turn}` },
      );
      const assembled = await result(client, "toolpool/assemble", { sessionId, messages });
      expect(JSON.stringify(assembled.tools)).toBe(first);
    }
  });
});

describe("discover: over the socket", () => {
  test("discover: shows a schema without discovering: a wrong blind call still gets the schema back", async () => {
    await using harness = dispatchHarness({ builtins });
    using client = harness.peer();
    const shown = await result(client, "tools/call", { name: "ToolSearch", arguments: { query: "discover:stock quote" } });
    expect(JSON.stringify(shown.content)).toContain("StockQuote");
    const refused = await result(client, "tools/call", { name: "ExecuteExtraTool", arguments: { tool_name: "StockQuote", params: { sym: "X" } } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain("The input schema of StockQuote");
  });

  test("blind calls over the socket: a never-searched deferred tool runs with valid params, directly or through ExecuteExtraTool", async () => {
    await using harness = dispatchHarness({ builtins });
    using client = harness.peer();
    const routed = await result(client, "tools/call", { name: "ExecuteExtraTool", arguments: { tool_name: "StockQuote", params: { ticker: "X" } } });
    expect(routed).toEqual({ content: [{ type: "text", text: "X: 100" }], isError: false });
    const direct = await result(client, "tools/call", { name: "WeatherForecast", arguments: { town: "Paris" } });
    expect(direct.isError).toBe(true);
    expect(JSON.stringify(direct.content)).toContain("The input schema of WeatherForecast");
  });
});
