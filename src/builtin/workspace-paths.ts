/**
 * Confines file tools to the session's workspace roots. A `file_path` (absolute, or relative to the
 * session's cwd) is normalized, then the deepest part of it that exists is resolved to its real path,
 * so neither `..` nor a symlink (to a file, to a directory, or dangling) can lead outside a root.
 * The tools then do their I/O on the resolved path, never on the text the model sent.
 *
 * Not defended: a process that swaps a directory for a symlink between this check and the I/O.
 * A model cannot race itself, and anything that can already runs with Bash's rights.
 */
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve, sep } from "node:path";
import type { PermissionDecision, ToolContext } from "../tool/tool.ts";

/** Linux gives up after 40 links in one lookup; so do we. */
const MAX_SYMLINK_HOPS = 40;

export class WorkspacePathError extends Error {
  override readonly name = "WorkspacePathError";
}

export type WorkspaceContext = Pick<ToolContext, "cwd" | "workspaceRoots">;

/**
 * The real absolute path `filePath` refers to, following every symlink that exists along it.
 * Parts that do not exist yet are appended as written. Never checks the roots: see `resolveInWorkspace`.
 */
export function resolveRealPath(filePath: string, cwd: string): string {
  let pending = isAbsolute(filePath) ? resolve(filePath) : resolve(cwd, filePath);
  for (let hop = 0; hop <= MAX_SYMLINK_HOPS; hop++) {
    const missing: string[] = [];
    let probe = pending;
    for (;;) {
      const real = tryRealpath(probe);
      if (real !== undefined) return missing.length === 0 ? real : join(real, ...missing);
      const link = danglingLinkTarget(probe);
      if (link !== undefined) {
        // A dangling symlink: writing through it would create its target, wherever that is.
        pending = join(resolve(dirname(probe), link), ...missing);
        break;
      }
      const parent = dirname(probe);
      if (parent === probe) return pending;
      missing.unshift(basename(probe));
      probe = parent;
    }
  }
  throw new WorkspacePathError(`${filePath} has too many levels of symbolic links.`);
}

/** Resolves `filePath` and refuses it unless it lies inside one of the workspace roots. */
export function resolveInWorkspace(filePath: string, context: WorkspaceContext): string {
  if (filePath.trim() === "") throw new WorkspacePathError("file_path is empty: give the path of a file.");
  if (filePath.includes("\0")) throw new WorkspacePathError("file_path contains a NUL character.");
  const roots = realRoots(context.workspaceRoots);
  if (roots.length === 0) {
    throw new WorkspacePathError("This session has no workspace roots, so file tools cannot touch any path.");
  }
  const real = resolveRealPath(filePath, context.cwd);
  if (roots.some((root) => isInside(real, root))) return real;
  const lexical = isAbsolute(filePath) ? resolve(filePath) : resolve(context.cwd, filePath);
  const how = roots.some((root) => isInside(lexical, root)) ? " through a symbolic link" : "";
  throw new WorkspacePathError(
    `${filePath} resolves${how} to ${real}, which is outside the workspace roots (${roots.join(", ")}). ` +
      "File tools only touch paths inside those directories.",
  );
}

/** Whether `path` is `root` itself or lies beneath it. */
export function isInside(path: string, root: string): boolean {
  if (path === root) return true;
  const prefix = root.endsWith(sep) ? root : root + sep;
  return path.startsWith(prefix);
}

function realRoots(roots: readonly string[]): string[] {
  // Roots are promised to be real paths; resolving again costs little and survives a caller that forgot.
  return roots.map((root) => tryRealpath(root) ?? resolve(root));
}

function tryRealpath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function danglingLinkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The permission side of confinement, shared by every file tool: the tool's own `checkPermissions`
 * refuses a path outside the roots in every mode, bypass included, because the pipeline always runs
 * a tool's own check before the session's rules.
 */
export async function confineToWorkspace(filePath: string, context: WorkspaceContext): Promise<PermissionDecision> {
  try {
    resolveInWorkspace(filePath, context);
    return { behavior: "passthrough" };
  } catch (error) {
    if (error instanceof WorkspacePathError) return { behavior: "deny", message: error.message };
    throw error;
  }
}

/** What permission rules match: the real absolute path, so a symlink or `..` cannot dodge a deny rule. */
export function realPathSubject(filePath: string, cwd: string): string {
  return resolveRealPath(filePath, cwd);
}
