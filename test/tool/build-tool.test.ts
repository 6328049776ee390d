/** buildTool and buildMcpTool: whatever a tool does not declare falls back to the safe answer. */
import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { buildMcpTool, buildTool, DEFAULT_MAX_RESULT_SIZE_CHARS } from "../../src/tool/build-tool.ts";
import { textResult } from "../../src/tool/result.ts";
import type { ToolContext } from "../../src/tool/tool.ts";
import { JsonSchemaCompiler } from "../../src/validate/ajv.ts";

const context: ToolContext = {
  signal: new AbortController().signal,
  sessionId: "s",
  workspaceRoots: ["/"],
  cwd: "/",
  sessionState: new Map(),
};

const minimal = buildTool({
  name: "Minimal",
  description: "Does one thing.",
  inputSchema: z.strictObject({ value: z.string() }),
  call: async ({ value }) => textResult(value),
});

describe("buildTool", () => {
  test("fills every capability the author left out with the fail-closed answer", async () => {
    const input = { value: "x" };
    expect({
      aliases: minimal.aliases,
      isMcp: minimal.isMcp,
      shouldDefer: minimal.shouldDefer,
      alwaysLoad: minimal.alwaysLoad,
      maxResultSizeChars: minimal.maxResultSizeChars,
      timeoutMs: minimal.timeoutMs,
      searchHint: minimal.searchHint,
      enabled: minimal.isEnabled(),
      concurrencySafe: minimal.isConcurrencySafe(input),
      readOnly: minimal.isReadOnly(input),
      hints: minimal.hints,
      validateInput: await minimal.validateInput(input, context),
      permissions: await minimal.checkPermissions(input, context),
      subject: minimal.permissionSubject(input, "/"),
    }).toEqual({
      aliases: [],
      isMcp: false,
      shouldDefer: false,
      alwaysLoad: false,
      maxResultSizeChars: DEFAULT_MAX_RESULT_SIZE_CHARS,
      timeoutMs: undefined,
      searchHint: undefined,
      enabled: true,
      concurrencySafe: false,
      readOnly: false,
      hints: {},
      validateInput: undefined,
      permissions: { behavior: "passthrough" },
      subject: undefined,
    });
  });

  test("declared capabilities are kept; the search hint is whitespace-collapsed", () => {
    const tool = buildTool({
      name: "Declared",
      description: "d",
      searchHint: "  find \n things\tfast ",
      inputSchema: z.strictObject({}),
      isReadOnly: () => true,
      isConcurrencySafe: () => true,
      timeoutMs: 5,
      call: async () => textResult(""),
    });
    expect({ hint: tool.searchHint, readOnly: tool.isReadOnly({}), concurrent: tool.isConcurrencySafe({}), timeout: tool.timeoutMs }).toEqual({
      hint: "find things fast",
      readOnly: true,
      concurrent: true,
      timeout: 5,
    });
  });

  test("the tool is frozen plain data with a draft-07 wire schema and no $schema key", () => {
    expect(Object.isFrozen(minimal)).toBe(true);
    expect(minimal.inputJSONSchema).toEqual({
      type: "object",
      properties: { value: { type: "string" } },
      required: ["value"],
      additionalProperties: false,
    });
  });

  test("zod integers lose the noise bounds zod adds", () => {
    const tool = buildTool({ name: "Ints", description: "d", inputSchema: z.strictObject({ n: z.number().int() }), call: async () => textResult("") });
    expect(tool.inputJSONSchema.properties).toEqual({ n: { type: "integer" } });
  });

  test("invalid names are refused at build time", () => {
    for (const name of ["", "has space", "x".repeat(65), "dot.name"]) {
      expect(() => buildTool({ name, description: "d", inputSchema: z.strictObject({}), call: async () => textResult("") })).toThrow(
        "is invalid: use 1–64 characters from [a-zA-Z0-9_-]",
      );
    }
  });
});

describe("buildMcpTool", () => {
  test("same fail-closed defaults, with MCP identity and the server's schema as is", () => {
    const schema = { type: "object", properties: { q: { type: "string" } } };
    const tool = buildMcpTool(
      { name: "mcp__srv__search", description: "d", inputJSONSchema: schema, mcpInfo: { server: "srv", tool: "search" }, call: async () => textResult("") },
      new JsonSchemaCompiler(),
    );
    expect({
      isMcp: tool.isMcp,
      mcpInfo: tool.mcpInfo,
      schema: tool.inputJSONSchema,
      readOnly: tool.isReadOnly({}),
      concurrent: tool.isConcurrencySafe({}),
      hints: tool.hints,
    }).toEqual({ isMcp: true, mcpInfo: { server: "srv", tool: "search" }, schema, readOnly: false, concurrent: false, hints: {} });
  });
});
