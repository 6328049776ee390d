/**
 * The one validation seam. Built-in tools validate with zod, MCP tools with Ajv; both answer in the
 * same shape, and the failure message is written for the model: which field, what is wrong, and
 * that it should rewrite its input.
 */
export type ValidationOutcome =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; message: string };

export type Validator = (input: unknown) => ValidationOutcome;

export interface FieldProblem {
  /** Dotted path to the field, or "" for the input as a whole. */
  field: string;
  problem: string;
}

export function formatProblems(toolName: string, problems: readonly FieldProblem[]): string {
  const lines = problems.map(({ field, problem }) =>
    field === "" ? `- (input): ${problem}` : `- ${field}: ${problem}`,
  );
  return [
    `Invalid input for ${toolName}:`,
    ...lines,
    "Rewrite the input so it satisfies the tool's input schema, then call it again.",
  ].join("\n");
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
