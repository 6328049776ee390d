/**
 * Confines file tools to the session's workspace roots. A `file_path` (absolute, or relative to the
 * session's cwd) is normalized, then the deepest part of it that exists is resolved to its real path,
 * so neither `..` nor a symlink (to a file, to a directory, or dangling) can lead outside a root.
 * The tools then do their I/O on the resolved path, never on the text the model sent.
 *
 * This check is by name, so a directory swapped for a symlink after it could still lead out: the I/O
 * layer closes that gap by verifying each opened descriptor (workspace-file.ts, workspace-write.ts).
 */
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { isAbsolute, join, resolve, sep } from "node:path";
import type { PermissionDecision, ToolContext } from "../tool/tool.ts";
import { pathLimitProblem } from "./path-limits.ts";
import { isInside } from "../runtime/path-inside.ts";
import { workspaceRootsOf, type WorkspaceRootSet } from "./workspace-roots.ts";

/** Linux gives up after 40 links in one lookup; so do we. */
const MAX_SYMLINK_HOPS = 40;

export class WorkspacePathError extends Error {
  override readonly name = "WorkspacePathError";
}

export type WorkspaceContext = Pick<ToolContext, "cwd" | "workspaceRoots" | "rootPins">;

/**
 * The real absolute path `filePath` refers to, following every symlink that exists along it.
 * Parts that do not exist yet are appended as written. Never checks the roots: see `resolveInWorkspace`.
 * `field` names the input in the message when a path breaks a length limit (path-limits.ts).
 *
 * Linear in the path: the deepest existing prefix is found by bisection (whether a prefix resolves
 * only ever changes once along a path), not by resolving every shorter prefix in turn, which was
 * quadratic and let one long path stall the daemon.
 */
export function resolveRealPath(filePath: string, cwd: string, field = "file_path"): string {
  const tooLong = pathLimitProblem(filePath, field);
  if (tooLong) throw new WorkspacePathError(tooLong);
  let pending = isAbsolute(filePath) ? resolve(filePath) : resolve(cwd, filePath);
  for (let hop = 0; hop <= MAX_SYMLINK_HOPS; hop++) {
    const limit = pathLimitProblem(pending, `${field} (as the absolute path ${pending.slice(0, 60)}…)`);
    if (limit) throw new WorkspacePathError(limit);
    const parts = pending.split(sep).filter((part) => part !== "");
    const prefix = (count: number) => sep + parts.slice(0, count).join(sep);
    let found = 0;
    let foundReal = tryRealpath(sep) ?? sep;
    let high = parts.length;
    while (found < high) {
      const middle = (found + high + 1) >> 1;
      const real = tryRealpath(prefix(middle));
      if (real === undefined) {
        high = middle - 1;
      } else {
        found = middle;
        foundReal = real;
      }
    }
    if (found === parts.length) return foundReal;
    const missing = parts.slice(found);
    const link = danglingLinkTarget(join(foundReal, missing[0] ?? ""));
    // A dangling symlink: writing through it would create its target, wherever that is.
    if (link === undefined) return join(foundReal, ...missing);
    pending = join(resolve(foundReal, link), ...missing.slice(1));
  }
  throw new WorkspacePathError(`${filePath} has too many levels of symbolic links.`);
}

/** Resolves `filePath` and refuses it unless it lies inside one of the workspace roots. */
export function resolveInWorkspace(filePath: string, context: WorkspaceContext, field = "file_path"): string {
  if (filePath.trim() === "") throw new WorkspacePathError(`${field} is empty: give the path of a file.`);
  if (filePath.includes("\0")) throw new WorkspacePathError(`${field} contains a NUL character.`);
  const set = workspaceRootsOf(context);
  const roots = set.paths;
  const lexical = isAbsolute(filePath) ? resolve(filePath) : resolve(context.cwd, filePath);
  // A root moved or replaced since the session opened it: its name now leads somewhere else, and
  // the session's rules speak of the old place; nothing inside it is touched.
  const displaced = set.displaced.find((root) => isInside(lexical, root.path));
  if (displaced) {
    throw new WorkspacePathError(
      `${filePath} is in the workspace root ${displaced.path}, which was moved or replaced since this session opened it (${displaced.why}). ` +
        "File tools do not follow a root to wherever its name leads now; open a new session there if that is intended.",
    );
  }
  if (roots.length === 0) {
    if (set.displaced.length > 0) {
      throw new WorkspacePathError(`Every workspace root of this session was moved or replaced since it opened (${set.displaced.map((root) => `${root.path}: ${root.why}`).join("; ")}); file tools cannot touch any path.`);
    }
    throw new WorkspacePathError("This session has no workspace roots, so file tools cannot touch any path.");
  }
  const real = resolveRealPath(filePath, context.cwd, field);
  if (roots.some((root) => isInside(real, root))) return real;
  const how = roots.some((root) => isInside(lexical, root)) ? " through a symbolic link" : "";
  throw new WorkspacePathError(
    `${filePath} resolves${how} to ${real}, which is outside the workspace roots (${roots.join(", ")}). ` +
      "File tools only touch paths inside those directories.",
  );
}

/** The roots a call may use, by descriptor where the session pinned them (workspace-roots.ts). */
export function realRoots(context: Pick<ToolContext, "workspaceRoots" | "rootPins">): WorkspaceRootSet {
  return workspaceRootsOf(context);
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
export async function confineToWorkspace(filePath: string, context: WorkspaceContext, field = "file_path"): Promise<PermissionDecision> {
  try {
    resolveInWorkspace(filePath, context, field);
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
