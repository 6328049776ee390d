import { describe, expect, test } from "bun:test";
import { createExecuteExtraTool, type ExecuteExtraToolDeps } from "../../src/builtin/execute-extra-tool.ts";
import { executeTool, type ExecuteOptions } from "../../src/pipeline/execute.ts";
import { isDeferredTool } from "../../src/deferral/is-deferred.ts";
import { buildTool } from "../../src/tool/build-tool.ts";
import { textResult } from "../../src/tool/result.ts";
import { z } from "zod";
import { resultText, type ToolResult } from "../../src/tool/result.ts";
import type { Tool, ToolContext } from "../../src/tool/tool.ts";
import { DEFAULT_PERMISSIONS, type PermissionSettings } from "../../src/permissions/rules.ts";
import { samplePool } from "../assembly/fixtures.ts";

const pool = samplePool();
const context: ToolContext = {
  signal: new AbortController().signal,
  sessionId: "s",
  workspaceRoots: ["/tmp"],
  cwd: "/tmp",
  sessionState: new Map(),
};

/** ExecuteExtraTool in the one pipeline, as a session runs it: the discovered set is the session's. */
function router(discovered: string[], permissions: PermissionSettings = DEFAULT_PERMISSIONS, extra: Partial<ExecuteExtraToolDeps> & Partial<ExecuteOptions> = {}) {
  const known = new Set(discovered);
  const tool = createExecuteExtraTool({ lookup: extra.lookup ?? pool.get, ...extra });
  const options: ExecuteOptions = {
    lookup: (name) => (name === tool.name ? tool : (extra.lookup ?? pool.get)(name)),
    permissions,
    isDeferred: isDeferredTool,
    discovery: { has: (name) => known.has(name), add: (name) => known.add(name) },
    ...(extra.schedule && { schedule: extra.schedule }),
  };
  return { tool, known, run: (input: unknown): Promise<ToolResult> => executeTool(tool.name, input, context, options) };
}

describe("ExecuteExtraTool refusals", () => {
  test.each([
    [
      "a core tool: call it directly",
      { tool_name: "Read", params: { target: "a" } },
      "Read is a core tool already in your tool list: call it directly with your normal tool interface, not through ExecuteExtraTool.",
    ],
    [
      "a core tool by alias: call it directly",
      { tool_name: "FileRead", params: { target: "a" } },
      "Read is a core tool already in your tool list: call it directly with your normal tool interface, not through ExecuteExtraTool.",
    ],
    [
      "an alwaysLoad MCP tool is core",
      { tool_name: "mcp__slack__list_channels" },
      "mcp__slack__list_channels is a core tool already in your tool list: call it directly with your normal tool interface, not through ExecuteExtraTool.",
    ],
    [
      "a tool that does not exist",
      { tool_name: "mcp__nope__x" },
      'No tool named "mcp__nope__x" exists. Find the right name with ToolSearch {"query": "<what the tool does>"}.',
    ],
  ])("%s", async (_case, input, message) => {
    const result = await router(["mcp__jira__create-ticket"]).run(input);
    expect(result).toEqual({ content: [{ type: "text", text: message }], isError: true });
  });

  test("the meta-tools: call them directly", async () => {
    const toolSearch = { ...pool.get("Read")!, name: "ToolSearch" } as Tool;
    const { run } = router([], DEFAULT_PERMISSIONS, { lookup: (name) => (name === "ToolSearch" ? toolSearch : pool.get(name)) });
    expect(resultText(await run({ tool_name: "ToolSearch", params: { query: "x" } }))).toBe(
      "ToolSearch is in your tool list: call it directly, not through ExecuteExtraTool.",
    );
  });

  test("its own input is validated first", async () => {
    const result = await router([]).run({ params: {} });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain("Invalid input for ExecuteExtraTool");
  });
});

describe("ExecuteExtraTool runs discovered tools through the pipeline", () => {
  test("a discovered MCP tool runs", async () => {
    const result = await router(["mcp__github__create_issue"]).run({ tool_name: "mcp__github__create_issue", params: { title: "Crash" } });
    expect(result).toEqual({ content: [{ type: "text", text: 'github/create_issue got {"title":"Crash"}' }], isError: false });
  });

  test("a discovered deferred built-in runs", async () => {
    const result = await router(["WebFetch"]).run({ tool_name: "WebFetch", params: { target: "https://example.com" } });
    expect(resultText(result)).toBe("WebFetch ran on https://example.com");
  });

  test("the target's schema is enforced, with the target's name in the message", async () => {
    const result = await router(["mcp__github__create_issue"]).run({ tool_name: "mcp__github__create_issue", params: { titel: "x" } });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain("Invalid input for mcp__github__create_issue");
  });

  test("params default to {}", async () => {
    const result = await router(["mcp__github__create_issue"]).run({ tool_name: "mcp__github__create_issue" });
    expect(resultText(result)).toContain("Invalid input for mcp__github__create_issue");
  });

  test("params must be an object", async () => {
    const result = await router(["mcp__github__create_issue"]).run({ tool_name: "mcp__github__create_issue", params: '{"title":"x"}' });
    expect(resultText(result)).toContain("Invalid input for ExecuteExtraTool");
  });

  test.each([
    ["a deny rule on the target", { mode: "default", allow: [], deny: ["mcp__github"] }, true, "Permission denied for mcp__github__create_issue"],
    ["a read-only session and a write", { mode: "readOnly", allow: [], deny: [] }, true, "Permission denied for mcp__github__create_issue"],
    ["an allow list naming the target's server", { mode: "default", allow: ["mcp__github"], deny: [] }, false, "github/create_issue got"],
    ["a deny rule on ExecuteExtraTool itself", { mode: "default", allow: [], deny: ["ExecuteExtraTool"] }, true, "Permission denied for ExecuteExtraTool"],
  ] as const)("permissions: %s", async (_case, permissions, isError, text) => {
    const result = await router(["mcp__github__create_issue"], { ...permissions, allow: [...permissions.allow], deny: [...permissions.deny] }).run({
      tool_name: "mcp__github__create_issue",
      params: { title: "x" },
    });
    expect(result.isError).toBe(isError);
    expect(resultText(result)).toContain(text);
  });

});

describe("blind calls: a deferred tool this conversation never discovered", () => {
  test("runs when its params validate, and counts as discovered from then on", async () => {
    const { run, known } = router([]);
    const result = await run({ tool_name: "mcp__github__create_issue", params: { title: "Crash" } });
    expect(result).toEqual({ content: [{ type: "text", text: 'github/create_issue got {"title":"Crash"}' }], isError: false });
    expect(known.has("mcp__github__create_issue")).toBe(true);
  });

  test("is refused with the validation message and the tool's input schema when they do not", async () => {
    const { run, known } = router([]);
    const result = await run({ tool_name: "mcp__github__create_issue", params: { titel: "x" } });
    expect(result.isError).toBe(true);
    const text = resultText(result);
    expect(text).toContain("Invalid input for mcp__github__create_issue");
    expect(text).toContain("The input schema of mcp__github__create_issue:");
    expect(text).toContain('"title":{"type":"string","description":"Title of the thing."}');
    expect(known.has("mcp__github__create_issue")).toBe(false);
  });

  test("a discovered tool's validation error carries no schema (the model has seen it)", async () => {
    const result = await router(["mcp__github__create_issue"]).run({ tool_name: "mcp__github__create_issue", params: {} });
    expect(resultText(result)).not.toContain("The input schema of");
  });

  test("permissions apply exactly as for a discovered tool, and a refused blind call discovers nothing", async () => {
    const { run, known } = router([], { mode: "default", allow: [], deny: ["mcp__github__create_issue"] });
    const result = await run({ tool_name: "mcp__github__create_issue", params: { title: "x" } });
    expect(resultText(result)).toBe('Permission denied for mcp__github__create_issue: denied by the rule "mcp__github__create_issue".');
    expect(known.size).toBe(0);
  });
});

describe("the pipeline checks, schedules, times and caps the target, never the router", () => {
  const { tool } = router([]);
  test("the router claims nothing: no hints, not read-only, not concurrency-safe", () => {
    expect({ hints: tool.hints, readOnly: tool.isReadOnly({ tool_name: "mcp__github__get_issue" }), safe: tool.isConcurrencySafe({}) }).toEqual({
      hints: {},
      readOnly: false,
      safe: false,
    });
  });

  test("scheduling is decided on the target's validated input", async () => {
    const seen: boolean[] = [];
    const { run } = router(["mcp__github__get_issue", "mcp__github__create_issue"], DEFAULT_PERMISSIONS, {
      schedule: (exclusive, task) => {
        seen.push(exclusive);
        return task();
      },
    });
    await run({ tool_name: "mcp__github__get_issue", params: { title: "1" } });
    await run({ tool_name: "mcp__github__create_issue", params: { title: "1" } });
    expect(seen).toEqual([false, true]);
  });

  test("the target's own deadline and result cap apply", async () => {
    const slow = buildTool({
      name: "SlowDeferred",
      description: "d",
      shouldDefer: true,
      timeoutMs: 20,
      inputSchema: z.strictObject({}),
      call: () => new Promise(() => {}),
    });
    const big = buildTool({ name: "BigDeferred", description: "d", shouldDefer: true, maxResultSizeChars: 50, inputSchema: z.strictObject({}), call: async () => textResult("x".repeat(500)) });
    const lookup = (name: string) => (name === slow.name ? slow : name === big.name ? big : pool.get(name));
    const { run } = router([slow.name, big.name], DEFAULT_PERMISSIONS, { lookup });
    expect(resultText(await run({ tool_name: slow.name }))).toBe("SlowDeferred timed out after 20 ms and was stopped.");
    expect(resultText(await run({ tool_name: big.name })).length).toBeLessThan(200);
  });

  test("the target's input is validated exactly once", async () => {
    const counted = pool.get("mcp__github__create_issue")!;
    let validations = 0;
    const counting = { ...counted, validator: (input: unknown) => (validations++, counted.validator(input)) } as Tool;
    const { run } = router([counting.name], DEFAULT_PERMISSIONS, { lookup: (name) => (name === counting.name ? counting : pool.get(name)) });
    expect((await run({ tool_name: counting.name, params: { title: "x" } })).isError).toBe(false);
    expect(validations).toBe(1);
  });

  test("wire schema", () => {
    expect(tool.inputJSONSchema).toEqual({
      type: "object",
      properties: {
        tool_name: { type: "string", minLength: 1, description: "The exact name of a deferred tool ToolSearch returned." },
        params: {
          description: "The tool's input, a JSON object following the input schema ToolSearch showed (default {}).",
          type: "object",
          properties: {},
          additionalProperties: {},
        },
      },
      required: ["tool_name"],
      additionalProperties: false,
    });
  });
});
