import { describe, expect, test } from "bun:test";
import { baseWireTool, emitWireTool, wireInputSchema, wireToolName, type WireTool } from "../../src/assembly/wire-format.ts";
import { mcp } from "./fixtures.ts";

const tool = mcp("github", "create_issue", { description: "Create an issue." });
const schema = { type: "object" as const, properties: { title: { type: "string", description: "Title of the thing." } }, required: ["title"] };

describe("wire format", () => {
  test("Anthropic: name, description, input_schema — $schema dropped", () => {
    expect(baseWireTool(tool, "anthropic")).toEqual({ name: "mcp__github__create_issue", description: "Create an issue.", input_schema: schema });
  });

  test("OpenAI: a function tool", () => {
    expect(baseWireTool(tool, "openai")).toEqual({
      type: "function",
      function: { name: "mcp__github__create_issue", description: "Create an issue.", parameters: schema },
    });
  });

  test("a schema without a type is an object schema", () => {
    expect(wireInputSchema({ properties: {} })).toEqual({ properties: {}, type: "object" });
  });

  test("defer_loading only when asked for, Anthropic only", () => {
    const base = baseWireTool(tool, "anthropic");
    expect(emitWireTool(base)).toEqual(base);
    expect(emitWireTool(base, { deferLoading: true })).toEqual({ ...base, defer_loading: true });
    const openai = baseWireTool(tool, "openai");
    expect(emitWireTool(openai, { deferLoading: true })).toEqual(openai);
  });

  describe("DISABLE_EXPERIMENTAL_BETAS strips every non-standard field at the choke point", () => {
    test.each([
      ["defer_loading asked for", { name: "a", description: "d", input_schema: { type: "object" } }, { deferLoading: true }],
      [
        "beta fields smuggled in (a stale cache, a careless caller)",
        { name: "a", description: "d", input_schema: { type: "object" }, defer_loading: true, cache_control: { type: "ephemeral" }, strict: true },
        { deferLoading: true },
      ],
    ])("%s", (_case, wire, options) => {
      expect(emitWireTool(wire as WireTool, { ...options, betasDisabled: true })).toEqual({
        name: "a",
        description: "d",
        input_schema: { type: "object" },
      });
    });

    test("OpenAI extras are stripped too", () => {
      const wire = { type: "function", function: { name: "a", description: "d", parameters: {}, strict: true }, extra: 1 } as unknown as WireTool;
      expect(emitWireTool(wire, { betasDisabled: true })).toEqual({ type: "function", function: { name: "a", description: "d", parameters: {} } });
    });
  });

  test("wireToolName reads either format", () => {
    expect(wireToolName(baseWireTool(tool, "anthropic"))).toBe(tool.name);
    expect(wireToolName(baseWireTool(tool, "openai"))).toBe(tool.name);
  });
});
