/**
 * One contract for both sides of the validation seam: zod (built-ins) and Ajv (MCP schemas) accept
 * the same good input and refuse the same bad input with messages that name the field.
 */
import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { JsonSchemaCompiler } from "../../src/validate/ajv.ts";
import type { Validator } from "../../src/validate/validator.ts";
import { formatProblems } from "../../src/validate/validator.ts";
import { zodToWireSchema, zodValidator } from "../../src/validate/zod.ts";

const zodSchema = z.strictObject({
  path: z.string(),
  depth: z.number().int().min(0).optional(),
  mode: z.enum(["fast", "full"]).optional(),
  options: z.strictObject({ follow: z.boolean() }).optional(),
});

const implementations: ReadonlyArray<[string, () => Validator]> = [
  ["zod", () => zodValidator("Walk", zodSchema)],
  ["ajv", () => new JsonSchemaCompiler().validator("Walk", zodToWireSchema(zodSchema))],
];

for (const [kind, make] of implementations) {
  describe(`${kind} validator`, () => {
    test("accepts good input", () => {
      const input = { path: "/a", depth: 2, mode: "fast", options: { follow: true } };
      expect(make()(input)).toEqual({ ok: true, value: input });
    });

    const bad: ReadonlyArray<[string, unknown, string]> = [
      ["missing field", { depth: 1 }, "- path: "],
      ["wrong type", { path: 3 }, "- path: "],
      ["below minimum", { path: "a", depth: -1 }, "- depth: "],
      ["not in enum", { path: "a", mode: "slow" }, "- mode: "],
      ["nested field", { path: "a", options: { follow: "yes" } }, "- options.follow: "],
      ["not an object", ["path"], "- (input): must be a JSON object"],
      ["null", null, "- (input): must be a JSON object"],
    ];
    for (const [what, input, line] of bad) {
      test(`refuses ${what}, naming the field`, () => {
        const outcome = make()(input);
        expect(outcome.ok).toBe(false);
        const message = outcome.ok ? "" : outcome.message;
        const lines = message.split("\n");
        expect(lines[0]).toBe("Invalid input for Walk:");
        expect(lines.some((candidate) => candidate.startsWith(line))).toBe(true);
        expect(lines.at(-1)).toBe("Rewrite the input so it satisfies the tool's input schema, then call it again.");
      });
    }

    test("names an unexpected property", () => {
      const outcome = make()({ path: "a", colour: "red" });
      expect(outcome.ok ? "" : outcome.message).toContain("colour");
    });
  });
}

describe("JsonSchemaCompiler", () => {
  const schema = { type: "object", properties: { q: { type: "string" } }, required: ["q"] };

  test("compiles each distinct schema once, on first use, and shares it between tools", () => {
    const compiler = new JsonSchemaCompiler();
    const first = compiler.validator("A", schema);
    const second = compiler.validator("B", structuredClone(schema));
    expect(compiler.cacheSize).toBe(0);
    first({ q: "x" });
    second({ q: "y" });
    first({ q: 1 });
    expect(compiler.cacheSize).toBe(1);
    expect(compiler.compile(schema)).toBe(compiler.compile(structuredClone(schema)));
    compiler.validator("C", { type: "object" })({});
    expect(compiler.cacheSize).toBe(2);
  });

  test("messages name the tool that was called", () => {
    const compiler = new JsonSchemaCompiler();
    const outcome = compiler.validator("mcp__srv__find", schema)({});
    expect(outcome).toEqual({ ok: false, message: formatProblems("mcp__srv__find", [{ field: "q", problem: "is required" }]) });
  });

  test("a draft 2020-12 schema is validated by the 2020 dialect", () => {
    const compiler = new JsonSchemaCompiler();
    const validate = compiler.validator("T", {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false } },
    });
    expect(validate({ pair: ["a", 1] }).ok).toBe(true);
    expect(validate({ pair: ["a", 1, 2] }).ok).toBe(false);
  });

  test("formats are checked", () => {
    const validate = new JsonSchemaCompiler().validator("T", { type: "object", properties: { url: { type: "string", format: "uri" } } });
    expect(validate({ url: "https://example.com" }).ok).toBe(true);
    const outcome = validate({ url: "not a uri" });
    expect(outcome.ok ? "" : outcome.message).toContain("- url: must match format \"uri\"");
  });

  test("a schema the server got wrong lets object input through for the server to judge", () => {
    const validate = new JsonSchemaCompiler().validator("T", { type: "object", properties: { a: { type: "no-such-type" } } });
    expect(validate({ a: 1 })).toEqual({ ok: true, value: { a: 1 } });
    expect(validate("text").ok).toBe(false);
  });
});

describe("hostile JSON Schemas from MCP servers", () => {
  const catastrophic = `${"a".repeat(40)}!`;

  test("a self-referencing $ref is a validation failure that names the cause, not a thrown RangeError", () => {
    const validate = new JsonSchemaCompiler().validator("mcp__x__loop", { type: "object", $ref: "#" });
    expect(validate({ a: 1 })).toEqual({
      ok: false,
      message:
        "mcp__x__loop cannot be called: its input schema refers to itself without end (a recursive $ref), so no input can be checked against it. " +
        "This is a fault of the tool's server, not of the input; use another tool.",
    });
  });

  test("pattern and patternProperties run on the linear-time engine: a catastrophic pattern answers at once", () => {
    const compiler = new JsonSchemaCompiler();
    const text = compiler.validator("t", { type: "object", properties: { text: { type: "string", pattern: "^(a+)+$" } } });
    const keys = compiler.validator("k", { type: "object", patternProperties: { "^(a+)+$": { type: "number" } }, additionalProperties: false });
    // A backtracking engine takes about 2^40 steps on each of these.
    expect(text({ text: catastrophic })).toEqual({
      ok: false,
      message: 'Invalid input for t:\n- text: must match pattern "^(a+)+$"\nRewrite the input so it satisfies the tool\'s input schema, then call it again.',
    });
    expect(text({ text: "aaaa" })).toEqual({ ok: true, value: { text: "aaaa" } });
    expect(keys({ [catastrophic]: 1 }).ok).toBe(false);
    expect(keys({ aaa: 1 })).toEqual({ ok: true, value: { aaa: 1 } });
  });

  test("a pattern the linear engine cannot run (a backreference) is left to the server; the rest of the schema still applies", () => {
    const validate = new JsonSchemaCompiler().validator("t", {
      type: "object",
      properties: { text: { type: "string", pattern: "^(a)\\1$" }, count: { type: "number" } },
    });
    expect(validate({ text: "anything" })).toEqual({ ok: true, value: { text: "anything" } });
    expect(validate({ text: "x", count: "many" }).ok).toBe(false);
  });
});
