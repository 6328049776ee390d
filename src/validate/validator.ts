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

/** Problems named in one answer, and characters of a field path or problem: a 300,000-item array is one message, not 16 MB. */
export const MAX_PROBLEMS = 20;
const MAX_PROBLEM_CHARS = 300;

export function formatProblems(toolName: string, problems: readonly FieldProblem[]): string {
  const lines = problems.slice(0, MAX_PROBLEMS).map(({ field, problem }) =>
    clip(field === "" ? `- (input): ${problem}` : `- ${field}: ${problem}`),
  );
  const more = problems.length - lines.length;
  return [
    `Invalid input for ${toolName}:`,
    ...lines,
    ...(more > 0 ? [`- … and ${more.toLocaleString("en-US")} more problem${more === 1 ? "" : "s"}`] : []),
    "Rewrite the input so it satisfies the tool's input schema, then call it again.",
  ].join("\n");
}

function clip(line: string): string {
  return line.length <= MAX_PROBLEM_CHARS ? line : `${line.slice(0, MAX_PROBLEM_CHARS - 1)}…`;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
