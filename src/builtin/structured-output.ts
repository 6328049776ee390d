/**
 * StructuredOutput: the core tool a session gets when it asks for its answer in a JSON Schema
 * (`outputSchema`). The tool's input schema IS that schema, so a provider that constrains tool
 * input constrains the answer, and the pipeline's Ajv validator refuses an answer that does not
 * fit with a message listing each violation. An accepted answer comes back as `structuredContent`.
 *
 * Built per session by `createStructuredOutputTool(schema, compiler)`; the compiler caches each
 * distinct schema's compilation, so a thousand sessions with the same schema compile it once.
 */
import { z } from "zod";
import { buildTool, NO_PATHS } from "../tool/build-tool.ts";
import { textResult } from "../tool/result.ts";
import type { JsonSchema, Tool } from "../tool/tool.ts";
import { SchemaTooCostlyError, type JsonSchemaCompiler } from "../validate/ajv.ts";
import description from "./structured-output.txt" with { type: "text" };

export const STRUCTURED_OUTPUT_TOOL_NAME = "StructuredOutput";

/** Where a non-object answer goes: tool inputs must be objects, so `{result: <answer>}`. */
export const WRAPPED_RESULT_KEY = "result";

export class OutputSchemaError extends Error {
  override readonly name = "OutputSchemaError";
}

/**
 * The tool for one output schema. Throws `OutputSchemaError` when the schema does not compile: a
 * session must hear at once that its schema is broken, not have every answer let through.
 */
export function createStructuredOutputTool(schema: JsonSchema, compiler: JsonSchemaCompiler): Tool {
  const inputSchema = asObjectSchema(schema);
  const compiled = compiler.compile(inputSchema);
  if (compiled instanceof SchemaTooCostlyError) throw new OutputSchemaError(`outputSchema is refused: ${compiled.message}`);
  if (compiled instanceof Error) {
    throw new OutputSchemaError(`outputSchema is not a valid JSON Schema: ${compiled.message}`);
  }
  const base = buildTool({
    name: STRUCTURED_OUTPUT_TOOL_NAME,
    description,
    searchHint: "final answer structured result json schema",
    // Replaced below by the session's schema; zod only stands in for the builder's shape.
    inputSchema: z.looseObject({}),
    access: () => NO_PATHS,
    alwaysLoad: true,
    isReadOnly: true,
    isConcurrencySafe: () => true,
    async call(input) {
      return textResult("Structured output accepted.", input);
    },
  });
  // Every capability comes from buildTool's fail-closed defaults; only the schema and its
  // validator are the session's own. The wire schema never carries `$schema` (Tool contract).
  const { $schema: _draft, ...wire } = inputSchema;
  return Object.freeze({
    ...base,
    inputJSONSchema: wire,
    validator: compiler.validator(STRUCTURED_OUTPUT_TOOL_NAME, inputSchema),
  });
}

/**
 * Object schemas pass unchanged; anything else (an array, a string) is wrapped under `result`.
 * Definitions stay at the root, where the answer's `#/$defs/...` references point.
 */
function asObjectSchema(schema: JsonSchema): JsonSchema {
  if (schema.type === "object") return schema;
  const { $schema, $defs, definitions, ...answer } = schema;
  return {
    ...($schema !== undefined && { $schema }),
    type: "object",
    properties: { [WRAPPED_RESULT_KEY]: answer },
    required: [WRAPPED_RESULT_KEY],
    additionalProperties: false,
    ...($defs !== undefined && { $defs }),
    ...(definitions !== undefined && { definitions }),
  };
}
