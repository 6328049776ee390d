/**
 * Glob: files whose paths match a pattern, newest first. Matching is Bun.Glob's; the walk is ours
 * (file-walk.ts) so that it stays inside the workspace, skips .git and node_modules unless the
 * pattern names them, and is bounded.
 */
import { isAbsolute, join } from "node:path";
import { z } from "zod";
import { buildTool, NO_PATHS } from "../tool/build-tool.ts";
import { errorResult, textResult } from "../tool/result.ts";
import { DEFAULT_SKIPPED_DIRECTORIES, FileWalk, newestFirst } from "./file-walk.ts";
import { globDepth, namedSegments, splitGlobPattern } from "./glob-pattern.ts";
import { pathLimitProblem } from "./path-limits.ts";
import { statOrUndefined } from "./text-file.ts";
import { confineToWorkspace, realPathSubject, realRoots, resolveInWorkspace } from "./workspace-paths.ts";
import description from "./glob.txt" with { type: "text" };

/** Paths returned per call; more would cost context without helping the model choose. */
export const MAX_GLOB_RESULTS = 100;
/** Matches collected (and stat-ed for sorting) before the search stops and says so. */
export const MAX_GLOB_MATCHES = 20_000;

const inputSchema = () =>
  z.strictObject({
    pattern: z.string().min(1).describe('The glob pattern to match, such as "**/*.ts" or "src/**/*.{js,jsx}".'),
    path: z
      .string()
      .optional()
      .describe("Directory to search in (absolute, or relative to the working directory). Omit it to search the working directory."),
  });

export const globTool = buildTool({
  name: "Glob",
  description,
  searchHint: "find files by name pattern wildcard list",
  inputSchema,
  isReadOnly: true,
  openWorld: false,
  isConcurrencySafe: () => true,
  async validateInput({ pattern }) {
    return pathLimitProblem(pattern, "pattern");
  },
  checkPermissions: async (input, context) => confineToWorkspace(searchBase(input, context.cwd), context, "path"),
  permissionSubject: (input, cwd) => realPathSubject(searchBase(input, cwd), cwd),
  // Glob shows names, not contents; still, a file the rules forbid reading is not listed (pathAllowed).
  access: () => NO_PATHS,
  async call(input, context) {
    const { rest } = splitGlobPattern(input.pattern);
    const base = resolveInWorkspace(searchBase(input, context.cwd), context, "path");
    const info = await statOrUndefined(base);
    if (!info) return errorResult(`Directory does not exist: ${base}`);
    if (!info.isDirectory()) return errorResult(`${base} is not a directory; give a directory as path.`);

    const matcher = new Bun.Glob(rest);
    const named = namedSegments(input.pattern);
    const walk = new FileWalk(base, {
      skipDirectories: new Set(DEFAULT_SKIPPED_DIRECTORIES.filter((name) => !named.has(name))),
      maxDepth: globDepth(rest),
      signal: context.signal,
      roots: realRoots(context),
    });
    const matches: string[] = [];
    for await (const file of walk.files()) {
      if (!matcher.match(file.relative)) continue;
      if (context.pathAllowed && !context.pathAllowed(file.path, "read")) continue;
      matches.push(file.path);
      if (matches.length >= MAX_GLOB_MATCHES) break;
    }
    if (matches.length === 0) return textResult(`No files match ${input.pattern} in ${base}.`);

    const sorted = await newestFirst(matches);
    const shown = sorted.slice(0, MAX_GLOB_RESULTS);
    const notes: string[] = [];
    const stopped = matches.length >= MAX_GLOB_MATCHES || walk.truncated;
    if (shown.length < sorted.length || stopped) {
      const of = stopped ? `at least ${sorted.length}` : `${sorted.length}`;
      notes.push(`[Showing the ${shown.length} most recently modified of ${of} matching files. Use a narrower pattern or path to see the others.]`);
    }
    return textResult([...shown, ...notes].join("\n"));
  },
});

/** The directory the walk starts from: the pattern's plain prefix, taken from `path` or the cwd. */
function searchBase(input: { pattern: string; path?: string | undefined }, cwd: string): string {
  const { base } = splitGlobPattern(input.pattern);
  if (isAbsolute(base)) return base;
  const start = input.path ?? cwd;
  return base === "" ? start : join(start, base);
}
