/**
 * The roots a file-tool call may touch, as one value: which are usable now, which were displaced
 * (moved, replaced by a link, deleted since the session opened them), and how to open a path
 * beneath its root's pinned descriptor (runtime/root-pins.ts). Every file tool takes its roots
 * from here (resolveInWorkspace, openInWorkspace, writeInWorkspace, the directory walk), so none
 * looks a root up by name again.
 *
 * A context without pins (a caller that runs no sessions: tests, tools used in-process) gets the
 * old behaviour: the roots resolved by name, opened by path.
 */
import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { isInside } from "../runtime/path-inside.ts";
import type { PinnedRoot } from "../runtime/root-pins.ts";
import type { ToolContext } from "../tool/tool.ts";

export interface WorkspaceRootSet {
  /** Real paths of the roots usable now. */
  readonly paths: readonly string[];
  /** Each displaced root, with what happened to it (for the refusal). */
  readonly displaced: readonly { path: string; why: string }[];
  /** A path inside a usable root, as the path to open: looked up beneath the root's descriptor. */
  beneath(path: string): string;
}

/** What callers pass: a root set, or plain real paths (opened by path). */
export type RootsArg = readonly string[] | WorkspaceRootSet;

export function workspaceRootsOf(context: Pick<ToolContext, "workspaceRoots" | "rootPins">): WorkspaceRootSet {
  const pins = context.rootPins;
  if (!pins) return byName(context.workspaceRoots.map((root) => tryRealpath(root) ?? resolve(root)));
  const usable: PinnedRoot[] = [];
  const displaced: { path: string; why: string }[] = [];
  for (const pin of pins) {
    const why = pin.displaced();
    if (why === undefined) usable.push(pin);
    else displaced.push({ path: pin.path, why });
  }
  return {
    paths: usable.map((pin) => pin.path),
    displaced,
    beneath(path) {
      // The deepest root holding the path: nested roots each have their own descriptor.
      let best: PinnedRoot | undefined;
      for (const pin of usable) if (isInside(path, pin.path) && (!best || pin.path.length > best.path.length)) best = pin;
      return best ? best.beneath(path) : path;
    },
  };
}

export function rootSet(roots: RootsArg): WorkspaceRootSet {
  return isRootSet(roots) ? roots : byName(roots);
}

/** The same descriptors, with containment narrowed to `base` (a directory walk's own root). */
export function narrowedTo(roots: RootsArg, base: string): WorkspaceRootSet {
  const set = rootSet(roots);
  return { paths: [base], displaced: set.displaced, beneath: (path) => set.beneath(path) };
}

function byName(paths: readonly string[]): WorkspaceRootSet {
  return { paths, displaced: [], beneath: (path) => path };
}

function isRootSet(roots: RootsArg): roots is WorkspaceRootSet {
  return !Array.isArray(roots);
}

function tryRealpath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
