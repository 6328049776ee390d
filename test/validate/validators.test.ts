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
