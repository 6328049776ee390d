/**
 * Bash's CallAccess: the command's parse (what it runs, the paths its words and redirects name),
 * plus the real path of every static path it names, so a symlink inside the workspace cannot hide
 * `.env` from `Read(**\/.env)`. Paths with holes stay as templates for the rules to match.
 */
import type { CallAccess } from "../tool/tool.ts";
import { hasHole, type Template } from "../permissions/star-match.ts";
import type { ShellParser } from "./shell-parser.ts";
import { resolveRealPath } from "./workspace-paths.ts";

/** Real paths resolved per command; past this the command is opaque rather than half-checked. */
const MAX_RESOLVED_PATHS = 512;

export async function shellAccess(parser: ShellParser, command: string, cwd: string): Promise<CallAccess> {
  const shell = await parser.read(command, cwd);
  const literal = (paths: readonly Template[]) => paths.flatMap((path) => (hasHole(path) ? [] : [String(path[0])]));
  const reads = literal(shell.reads);
  const writes = literal(shell.writes);
  if (reads.length + writes.length > MAX_RESOLVED_PATHS) {
    return { reads: [], writes: [], shell: { ...shell, opaque: shell.opaque ?? `more than ${MAX_RESOLVED_PATHS} paths` } };
  }
  return { reads: realPaths(reads, cwd), writes: realPaths(writes, cwd), shell };
}

function realPaths(paths: readonly string[], cwd: string): string[] {
  const real = new Set<string>();
  for (const path of paths) {
    try {
      real.add(resolveRealPath(path, cwd));
    } catch {
      // A loop of links: the lexical path still stands in the shell facts.
    }
  }
  return [...real];
}
