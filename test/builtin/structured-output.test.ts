/** StructuredOutput: the session's schema as the input schema, validated by Ajv (compiled once), answered as structuredContent. */
import { describe, expect, test } from "bun:test";
import { createStructuredOutputTool, OutputSchemaError } from "../../src/builtin/structured-output.ts";
import { isDeferredTool } from "../../src/deferral/is-deferred.ts";
import { JsonSchemaCompiler } from "../../src/validate/ajv.ts";
import { makeWorkspace } from "./fixture.ts";

const answerSchema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  properties: {
    title: { type: "string", minLength: 1 },
    score: { type: "integer", minimum: 0, maximum: 10 },
    tags: { type: "array", items: { type: "string" } },
  },
  required: ["title", "score"],
  additionalProperties: false,
};

describe("StructuredOutput", () => {
  test("a valid answer comes back as structuredContent", async () => {
    using workspace = makeWorkspace();
    const tool = createStructuredOutputTool(answerSchema, new JsonSchemaCompiler());
    const answer = { title: "Report", score: 7, tags: ["a"] };
    expect(await workspace.call("StructuredOutput", answer, { tools: [tool] })).toEqual({
      content: [{ type: "text", text: "Structured output accepted." }],
      isError: false,
      structuredContent: answer,
    });
  });

  test("an invalid answer is refused with every violation listed", async () => {
    using workspace = makeWorkspace();
    const tool = createStructuredOutputTool(answerSchema, new JsonSchemaCompiler());
    expect(await workspace.run("StructuredOutput", { score: 11, tags: [1], extra: true }, { tools: [tool] })).toEqual({
      text: [
        "Invalid input for StructuredOutput:",
        "- title: is required",
        "- extra: is not an accepted property",
        "- score: must be <= 10",
        "- tags.0: must be string",
        "Rewrite the input so it satisfies the tool's input schema, then call it again.",
      ].join("\n"),
      isError: true,
    });
  });

  test("the wire schema is the session's schema without $schema; the tool is core, read-only and safe to run alongside others", () => {
    const tool = createStructuredOutputTool(answerSchema, new JsonSchemaCompiler());
    const { $schema: _draft, ...wire } = answerSchema;
    expect({
      name: tool.name,
      schema: tool.inputJSONSchema,
      deferred: isDeferredTool(tool),
      readOnly: tool.isReadOnly({}),
      concurrent: tool.isConcurrencySafe({}),
      isMcp: tool.isMcp,
    }).toEqual({ name: "StructuredOutput", schema: wire, deferred: false, readOnly: true, concurrent: true, isMcp: false });
  });

  test("each distinct schema is compiled once, however many sessions use it", async () => {
    using workspace = makeWorkspace();
    const compiler = new JsonSchemaCompiler();
    for (let session = 0; session < 5; session++) {
      const tool = createStructuredOutputTool(structuredClone(answerSchema), compiler);
      await workspace.call("StructuredOutput", { title: "t", score: session }, { tools: [tool] });
    }
    expect(compiler.cacheSize).toBe(1);
    createStructuredOutputTool({ type: "object", properties: { other: { type: "string" } } }, compiler);
    expect(compiler.cacheSize).toBe(2);
  });

  test("a schema that is not an object is wrapped under result, definitions kept at the root", async () => {
    using workspace = makeWorkspace();
    const schema = { type: "array", items: { $ref: "#/definitions/item" }, definitions: { item: { type: "string" } } };
    const tool = createStructuredOutputTool(schema, new JsonSchemaCompiler());
    expect(tool.inputJSONSchema).toEqual({
      type: "object",
      properties: { result: { type: "array", items: { $ref: "#/definitions/item" } } },
      required: ["result"],
      additionalProperties: false,
      definitions: { item: { type: "string" } },
    });
    expect((await workspace.call("StructuredOutput", { result: ["a", "b"] }, { tools: [tool] })).structuredContent).toEqual({ result: ["a", "b"] });
    expect(await workspace.run("StructuredOutput", { result: [1] }, { tools: [tool] })).toEqual({
      text: "Invalid input for StructuredOutput:\n- result.0: must be string\nRewrite the input so it satisfies the tool's input schema, then call it again.",
      isError: true,
    });
  });

  test("a schema that does not compile is refused when the tool is made", () => {
    expect(() => createStructuredOutputTool({ type: "object", properties: { a: { type: "no-such-type" } } }, new JsonSchemaCompiler())).toThrow(
      OutputSchemaError,
    );
  });

  test("works in a read-only session", async () => {
    using workspace = makeWorkspace();
    const tool = createStructuredOutputTool(answerSchema, new JsonSchemaCompiler());
    const result = await workspace.call("StructuredOutput", { title: "t", score: 1 }, { tools: [tool], permissions: { mode: "readOnly", allow: [], deny: [] } });
    expect(result.isError).toBe(false);
  });
});
