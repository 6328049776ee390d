/** zod side of the validation seam: built-in tools declare zod schemas; the wire gets JSON Schema. */
import { z } from "zod";
import { formatProblems, isPlainObject, type Validator } from "./validator.ts";
import type { JsonSchema } from "../tool/tool.ts";

/** A function for `schema` is asked at each validation (buildTool's makes the schema on the first). */
export function zodValidator(toolName: string, schema: z.ZodType | (() => z.ZodType)): Validator {
  const current = typeof schema === "function" ? schema : () => schema;
  return (input) => {
    if (!isPlainObject(input)) {
      return { ok: false, message: formatProblems(toolName, [{ field: "", problem: "must be a JSON object" }]) };
    }
    const parsed = current().safeParse(input);
    if (parsed.success) return { ok: true, value: parsed.data as Record<string, unknown> };
    const problems = parsed.error.issues.map((issue) => ({
      field: issue.path.map(String).join("."),
      problem: issue.message,
    }));
    return { ok: false, message: formatProblems(toolName, problems) };
  };
}

/**
 * The JSON Schema a model sees for a zod schema: draft-07, without `$schema`, and without the
 * `maximum: 2^53-1` zod adds to every integer (noise that costs tokens and says nothing).
 */
export function zodToWireSchema(schema: z.ZodType): JsonSchema {
  const generated = z.toJSONSchema(schema, { target: "draft-7" }) as JsonSchema;
  delete generated.$schema;
  return stripSafeIntegerBounds(generated) as JsonSchema;
}

function stripSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripSafeIntegerBounds);
  if (!isPlainObject(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "maximum" && value === Number.MAX_SAFE_INTEGER) continue;
    if (key === "minimum" && value === Number.MIN_SAFE_INTEGER) continue;
    out[key] = stripSafeIntegerBounds(value);
  }
  return out;
}
