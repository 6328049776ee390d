/**
 * The directory walk behind Glob and Grep. It never follows symlinks (a link could lead out of the
 * workspace or into a cycle), prunes directories no one means to search (.git, node_modules), and
 * stops after a bounded number of entries so one call on `/`-sized trees cannot run for minutes.
 * Each directory is opened as a descriptor and verified to lie below the walk's root before it is
 * listed (workspace-file.ts), so a directory swapped for a symlink mid-walk lists nothing outside.
 */
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { timeSlicer } from "./time-slice.ts";
import { openInWorkspace, PROC_FD_DIRECTORY } from "./workspace-file.ts";
import { narrowedTo, type RootsArg, type WorkspaceRootSet } from "./workspace-roots.ts";

/** Directories skipped unless the caller asks for them by name. */
export const DEFAULT_SKIPPED_DIRECTORIES: readonly string[] = [".git", ".hg", ".svn", "node_modules"];
/** Entries (files and directories) looked at before the walk gives up and says so. */
export const DEFAULT_MAX_WALK_ENTRIES = 200_000;

export interface WalkOptions {
  skipDirectories?: ReadonlySet<string>;
  /** Directory levels entered below the root; files directly in the root are at depth 1. */
  maxDepth?: number;
  maxEntries?: number;
  signal?: AbortSignal;
  /** The session's roots: directories are opened beneath their pinned descriptors. */
  roots?: RootsArg;
}

export interface WalkedFile {
  /** Absolute path. */
  path: string;
  /** Path relative to the walk's root, with `/` separators. */
  relative: string;
}

export class FileWalk {
  /** True when the walk stopped at `maxEntries` before seeing the whole tree. */
  truncated = false;
  readonly #root: string;
  readonly #options: WalkOptions;

  constructor(root: string, options: WalkOptions = {}) {
    this.#root = root;
    this.#options = options;
  }

  /** Files in a stable order: each directory's entries by name, depth first. */
  async *files(): AsyncGenerator<WalkedFile> {
    const skip = this.#options.skipDirectories ?? new Set(DEFAULT_SKIPPED_DIRECTORIES);
    const maxDepth = this.#options.maxDepth ?? Number.POSITIVE_INFINITY;
    const maxEntries = this.#options.maxEntries ?? DEFAULT_MAX_WALK_ENTRIES;
    let seen = 0;
    // The consumer's work per file (matching a name, searching a file) runs inside this loop too.
    const pause = timeSlicer({ signal: this.#options.signal });
    const stack: Array<{ relative: string; depth: number }> = [{ relative: "", depth: 0 }];
    while (stack.length > 0) {
      const directory = stack.pop();
      if (!directory) break;
      if (this.#options.signal?.aborted) throw new Error("the search was cancelled");
      const entries = await listDirectory(join(this.#root, directory.relative), narrowedTo(this.#options.roots ?? [this.#root], this.#root), pause);
      const subdirectories: Array<{ relative: string; depth: number }> = [];
      for (const entry of entries) {
        await pause();
        if (++seen > maxEntries) {
          this.truncated = true;
          return;
        }
        const relative = directory.relative === "" ? entry.name : `${directory.relative}/${entry.name}`;
        if (entry.directory) {
          if (!skip.has(entry.name) && directory.depth + 1 < maxDepth) {
            subdirectories.push({ relative, depth: directory.depth + 1 });
          }
        } else if (entry.file) {
          yield { path: join(this.#root, relative), relative };
        }
      }
      // Reversed so that popping visits subdirectories in name order.
      stack.push(...subdirectories.reverse());
    }
  }
}

interface ListedEntry {
  name: string;
  directory: boolean;
  file: boolean;
}

async function listDirectory(path: string, roots: WorkspaceRootSet, pause: () => Promise<void>): Promise<ListedEntry[]> {
  const opened = await openInWorkspace(path, roots, true).catch(() => undefined);
  if (!opened?.ok) return [];
  await using directory = opened.entry;
  try {
    // Listed through the verified descriptor (Linux), not by a path that could change meanwhile.
    const listed = process.platform === "linux" ? `${PROC_FD_DIRECTORY}/${directory.handle.fd}` : directory.path;
    const entries = await readdir(listed, { withFileTypes: true });
    const rows: ListedEntry[] = [];
    for (const entry of entries) {
      if (rows.length % PAUSE_EVERY === 0) await pause();
      rows.push({ name: entry.name, directory: entry.isDirectory(), file: entry.isFile() });
    }
    return await sortSliced(rows, (a, b) => a.name <= b.name, pause);
  } catch {
    // Unreadable or vanished mid-walk: skip it rather than fail the whole search.
    return [];
  }
}

/** Rows handled between two looks at the clock in the loops below. */
const PAUSE_EVERY = 1024;

/**
 * A stable bottom-up merge sort that pauses as it goes (`inOrder(a, b)`: may `a` come first):
 * `Array.prototype.sort` with a comparator held the event loop 300 ms for 50,000 entries.
 */
export async function sortSliced<T>(rows: T[], inOrder: (a: T, b: T) => boolean, pause: () => Promise<void>): Promise<T[]> {
  let source = rows;
  let target: T[] = new Array<T>(rows.length);
  for (let width = 1; width < source.length; width *= 2) {
    for (let start = 0; start < source.length; start += 2 * width) {
      const middle = Math.min(start + width, source.length);
      const end = Math.min(start + 2 * width, source.length);
      let left = start;
      let right = middle;
      for (let out = start; out < end; out++) {
        if (out % PAUSE_EVERY === 0) await pause();
        const a = source[left];
        const b = source[right];
        if (left < middle && (right >= end || inOrder(a as T, b as T))) {
          target[out] = a as T;
          left++;
        } else {
          target[out] = b as T;
          right++;
        }
      }
    }
    [source, target] = [target, source];
  }
  return source;
}

/** Paths ordered most recently modified first (ties by path), the order Glob and Grep list files in. */
export async function newestFirst(paths: readonly string[]): Promise<string[]> {
  const stamped = await Promise.all(
    paths.map(async (path) => ({ path, mtime: await stat(path).then((info) => info.mtimeMs, () => 0) })),
  );
  const sorted = await sortSliced(stamped, (a, b) => a.mtime > b.mtime || (a.mtime === b.mtime && a.path <= b.path), timeSlicer());
  return sorted.map((entry) => entry.path);
}
