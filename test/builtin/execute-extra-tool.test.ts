import { describe, expect, test } from "bun:test";
import { createExecuteExtraTool, pipelineExecutor, type ExecuteExtraToolDeps } from "../../src/builtin/execute-extra-tool.ts";
import { executeTool, type ExecuteOptions } from "../../src/tool/execute.ts";
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

function router(discovered: string[], permissions: PermissionSettings = DEFAULT_PERMISSIONS, extra: Partial<ExecuteExtraToolDeps> = {}) {
  const inner: ExecuteOptions = { lookup: pool.get, permissions };
  const tool = createExecuteExtraTool({ lookup: pool.get, discovered: () => new Set(discovered), execute: pipelineExecutor(inner), ...extra });
  const outer: ExecuteOptions = { lookup: (name) => (name === tool.name ? tool : pool.get(name)), permissions };
  return { tool, run: (input: unknown): Promise<ToolResult> => executeTool(tool.name, input, context, outer) };
}

describe("ExecuteExtraTool refusals", () => {
  test.each([
    [
      "a deferred tool never discovered: the exact select: to use",
      { tool_name: "mcp__github__create_issue", params: { title: "x" } },
      'mcp__github__create_issue has not been loaded in this conversation, so its input schema is unknown to you. Call ToolSearch with {"query": "select:mcp__github__create_issue"} first, then call ExecuteExtraTool again with params that follow the schema it shows.',
    ],
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

  test("the discovered set is read at call time", async () => {
    const discovered = new Set<string>();
    const tool = createExecuteExtraTool({ lookup: pool.get, discovered: () => discovered, execute: pipelineExecutor({ lookup: pool.get, permissions: DEFAULT_PERMISSIONS }) });
    const run = () => executeTool(tool.name, { tool_name: "mcp__github__get_issue", params: { title: "1" } }, context, { lookup: () => tool, permissions: DEFAULT_PERMISSIONS });
    expect((await run()).isError).toBe(true);
    discovered.add("mcp__github__get_issue");
    expect((await run()).isError).toBe(false);
  });
});

describe("ExecuteExtraTool's capabilities follow the tool it runs", () => {
  const { tool } = router(["mcp__github__get_issue", "mcp__github__create_issue"]);
  test.each([
    ["a read-only discovered tool is concurrency-safe", { tool_name: "mcp__github__get_issue", params: {} }, true],
    ["a writing tool is not", { tool_name: "mcp__github__create_issue", params: {} }, false],
    ["an undiscovered tool is not", { tool_name: "mcp__jira__create-ticket", params: {} }, false],
    ["an unknown tool is not", { tool_name: "nope" }, false],
  ])("%s", (_case, input, safe) => {
    expect(tool.isConcurrencySafe(input)).toBe(safe);
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
