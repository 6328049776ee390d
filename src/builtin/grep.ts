/**
 * Grep: a regular-expression search over the workspace, in TypeScript so no ripgrep binary is
 * needed. The walk skips .git, node_modules, binary files and files over a size cap; matching is
 * linear-time (RE2 semantics, grep-matcher.ts); the output follows ripgrep's shapes.
 */
import { z } from "zod";
import { buildTool } from "../tool/build-tool.ts";
import { errorResult, textResult } from "../tool/result.ts";
import { formatProblems, type FieldProblem } from "../validate/validator.ts";
import { newestFirst } from "./file-walk.ts";
import { extensionsOfType, knownFileTypes } from "./file-types.ts";
import { compilePattern } from "./grep-matcher.ts";
import { searchFiles, type GrepRequest } from "./grep-search.ts";
import { pathLimitProblem } from "./path-limits.ts";
import { statOrUndefined } from "./text-file.ts";
import { confineToWorkspace, realPathSubject, realRoots, resolveInWorkspace } from "./workspace-paths.ts";
import description from "./grep.txt" with { type: "text" };

const contextLines = (what: string) =>
  z.number().int().min(0).optional().describe(`Lines of context to show ${what} each match (content mode only).`);

const inputSchema = () =>
  z.strictObject({
    pattern: z.string().min(1).describe('The regular expression to search for, in JavaScript syntax (for example "log.*Error" or "function\\s+\\w+").'),
    path: z
      .string()
      .optional()
      .describe("File or directory to search (absolute, or relative to the working directory). Defaults to the working directory."),
    glob: z
      .string()
      .optional()
      .describe('Only search files matching this glob, such as "*.js" or "*.{ts,tsx}". A glob without "/" is matched against file names; one with "/" against the path below the searched directory. Start it with "!" to exclude.'),
    output_mode: z
      .enum(["content", "files_with_matches", "count"])
      .optional()
      .describe('"content" shows matching lines, "files_with_matches" lists matching files (the default), "count" gives the number of matching lines per file.'),
    "-B": contextLines("before"),
    "-A": contextLines("after"),
    "-C": contextLines("before and after"),
    "-n": z.boolean().optional().describe("Show line numbers (content mode only; default true)."),
    "-i": z.boolean().optional().describe("Match without regard to case."),
    type: z
      .string()
      .optional()
      .describe('Only search files of this type, named as ripgrep names them: "js", "ts", "py", "rust", "go", "java", "md", and so on.'),
    head_limit: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("Return only the first N lines (content), file paths (files_with_matches) or entries (count)."),
    multiline: z
      .boolean()
      .optional()
      .describe("Let a match span several lines, with \".\" matching newlines too. By default each line is matched on its own."),
  });

type GrepInput = z.infer<ReturnType<typeof inputSchema>>;

export const grepTool = buildTool({
  name: "Grep",
  description,
  searchHint: "search file contents regex find text in code",
  inputSchema,
  isReadOnly: true,
  openWorld: false,
  isConcurrencySafe: () => true,
  async validateInput(input) {
    const problems: FieldProblem[] = [];
    const globTooLong = input.glob === undefined ? undefined : pathLimitProblem(input.glob, "glob");
    if (globTooLong) problems.push({ field: "glob", problem: globTooLong.replace(/^glob /, "") });
    const compiled = compilePattern(input.pattern, { ignoreCase: input["-i"] ?? false, multiline: input.multiline ?? false });
    if (typeof compiled === "string") problems.push({ field: "pattern", problem: compiled });
    if (input.type !== undefined && !extensionsOfType(input.type)) {
      problems.push({ field: "type", problem: `"${input.type}" is not a known file type; use one of ${knownFileTypes().join(", ")}, or a glob` });
    }
    return problems.length > 0 ? formatProblems("Grep", problems) : undefined;
  },
  checkPermissions: async (input, context) => confineToWorkspace(input.path ?? context.cwd, context, "path"),
  permissionSubject: (input, cwd) => realPathSubject(input.path ?? cwd, cwd),
  // The root itself; the files found below it are filtered one by one (pathAllowed).
  access: (input, cwd) => ({ reads: [realPathSubject(input.path ?? cwd, cwd)], writes: [] }),
  async call(input, context) {
    const root = resolveInWorkspace(input.path ?? context.cwd, context, "path");
    const info = await statOrUndefined(root);
    if (!info) return errorResult(`Path does not exist: ${root}`);
    const regex = compilePattern(input.pattern, { ignoreCase: input["-i"] ?? false, multiline: input.multiline ?? false });
    if (typeof regex === "string") return errorResult(`pattern ${regex}`);

    const request: GrepRequest = {
      root,
      singleFile: info.isFile(),
      regex,
      multiline: input.multiline ?? false,
      mode: input.output_mode ?? "files_with_matches",
      before: input["-B"] ?? input["-C"] ?? 0,
      after: input["-A"] ?? input["-C"] ?? 0,
      lineNumbers: input["-n"] ?? true,
      limit: input.head_limit,
      signal: context.signal,
      roots: realRoots(context),
      ...(context.pathAllowed && { readable: (path: string) => context.pathAllowed?.(path, "read") ?? true }),
      ...filters(input),
    };
    const outcome = await searchFiles(request);
    if (outcome.entries.length === 0) return textResult(["No matches found.", ...outcome.notes].join("\n"));
    if (request.mode !== "files_with_matches") return textResult([...outcome.entries, ...outcome.notes].join("\n"));

    // Newest first, as ripgrep-backed tools list them; head_limit applies after the sort.
    const sorted = await newestFirst(outcome.entries);
    const shown = input.head_limit === undefined ? sorted : sorted.slice(0, input.head_limit);
    const total = `${outcome.more ? "at least " : ""}${sorted.length} ${sorted.length === 1 ? "file" : "files"}`;
    const header = shown.length < sorted.length ? `Found ${total}; showing the ${shown.length} most recently modified` : `Found ${total}`;
    return textResult([header, ...shown, ...outcome.notes].join("\n"));
  },
});

function filters(input: GrepInput): Pick<GrepRequest, "type" | "glob"> {
  const type = input.type === undefined ? undefined : extensionsOfType(input.type);
  return { ...(type && { type }), ...(input.glob !== undefined && { glob: input.glob }) };
}
