/**
 * Writing a file for Write, Edit and NotebookEdit so that a symlink swapped in between the check and
 * the write cannot redirect it outside the workspace, and a reader never sees half a file.
 *
 * On Linux the parent directory is opened as a descriptor and verified through /proc/self/fd/N to lie
 * inside a root (missing parents are created one at a time through their verified parent the same
 * way). The new content goes to a fresh temp file created through `/proc/self/fd/<dir>/<temp>` with
 * O_CREAT|O_EXCL|O_NOFOLLOW, and is renamed over the target through the same directory descriptor:
 * every name is looked up in the directory that was verified, whatever happens to its path meanwhile,
 * and rename(2) replaces a name without following it.
 *
 * Elsewhere the same steps run on paths, with the parent's real path checked before the temp file is
 * created: this narrows the race but does not close it.
 *
 * Replacing by rename gives the file a new inode: its mode is carried over, hard links to the old
 * file keep the old content, and ownership becomes the daemon user's.
 */
import { randomUUID } from "node:crypto";
import { constants, type Stats } from "node:fs";
import { lstat, mkdir, open, realpath, rename, unlink, type FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { descriptorPath, PROC_FD_DIRECTORY, specialKind } from "./workspace-file.ts";
import { isInside } from "../runtime/path-inside.ts";
import { rootSet, type RootsArg, type WorkspaceRootSet } from "./workspace-roots.ts";

export type WriteOutcome = { ok: true; created: boolean; bytes: number } | { ok: false; reason: string };

/** Writes `content` to `path` (resolved inside the roots), creating missing parent directories. */
export async function writeInWorkspace(path: string, content: string | Uint8Array, given: RootsArg): Promise<WriteOutcome> {
  const roots = rootSet(given);
  const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
  const name = basename(path);
  let directory: VerifiedDirectory;
  try {
    directory = process.platform === "linux" ? await openDirectory(dirname(path), roots) : await pathDirectory(dirname(path), roots);
  } catch (error) {
    if (error instanceof WriteRefused) return { ok: false, reason: `${error.message}.` };
    throw error;
  }
  try {
    const target = directory.child(name);
    const existing = await lstat(target).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    const problem = existing && existingProblem(path, existing);
    if (problem) return { ok: false, reason: problem };
    const temp = directory.child(`.toolpool-${randomUUID().slice(0, 8)}.tmp`);
    const file = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    try {
      await file.chmod(existing ? existing.mode & 0o7777 : 0o666 & ~process.umask());
      await file.writeFile(bytes);
      await file.close();
      await rename(temp, target);
    } catch (error) {
      await file.close().catch(() => {});
      await unlink(temp).catch(() => {});
      throw error;
    }
    return { ok: true, created: existing === undefined, bytes: bytes.length };
  } finally {
    await directory.close();
  }
}

interface VerifiedDirectory {
  /** A path that names `name` inside the verified directory, whatever its path has become. */
  child(name: string): string;
  close(): Promise<void>;
}

class WriteRefused extends Error {}

function existingProblem(path: string, existing: Stats): string | undefined {
  if (existing.isDirectory()) return `${path} is a directory; give the path of a file inside it.`;
  if (existing.isSymbolicLink()) return `${path} became a symbolic link after it was checked; it was left alone.`;
  if (!existing.isFile()) return `${path} exists and is not a regular file (${specialKind(existing) ?? "a special file"}); it was left alone.`;
  return undefined;
}

/** Linux: the directory as a verified descriptor, creating it (and missing parents) through verified parents. */
async function openDirectory(path: string, roots: WorkspaceRootSet): Promise<VerifiedDirectory> {
  const handle = await openVerifiedDirectory(path, roots);
  const base = `${PROC_FD_DIRECTORY}/${handle.fd}`;
  return { child: (name) => `${base}/${name}`, close: () => handle.close() };
}

async function openVerifiedDirectory(path: string, roots: WorkspaceRootSet): Promise<FileHandle> {
  const flags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
  let handle: FileHandle;
  try {
    // Beneath the root's pinned descriptor, whatever the root's path has become.
    handle = await open(roots.beneath(path), flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT") throw new WriteRefused(directoryFailure(path, code, error));
    const parentPath = dirname(path);
    if (parentPath === path) throw new WriteRefused(`${path} does not exist`);
    const parent = await openVerifiedDirectory(parentPath, roots);
    try {
      const through = `${PROC_FD_DIRECTORY}/${parent.fd}/${basename(path)}`;
      await mkdir(through).catch((mkdirError: NodeJS.ErrnoException) => {
        if (mkdirError.code !== "EEXIST") throw mkdirError;
      });
      handle = await open(through, flags).catch((openError: NodeJS.ErrnoException) => {
        throw new WriteRefused(directoryFailure(path, openError.code, openError));
      });
    } finally {
      await parent.close();
    }
  }
  const real = await descriptorPath(handle, path, await handle.stat()).catch(async (verifyError: unknown) => {
    await handle.close();
    throw new WriteRefused((verifyError as Error).message);
  });
  if (!roots.paths.some((root) => isInside(real, root))) {
    await handle.close();
    throw new WriteRefused(
      `the directory ${path} turned out to be ${real} when opened, which is outside the workspace roots (a directory or link changed while it was checked); nothing was written`,
    );
  }
  return handle;
}

/** Elsewhere: the directory by path, created as needed and checked by its real path. */
async function pathDirectory(path: string, roots: WorkspaceRootSet): Promise<VerifiedDirectory> {
  await mkdir(path, { recursive: true });
  const real = await realpath(path);
  if (!roots.paths.some((root) => isInside(real, root))) {
    throw new WriteRefused(`the directory ${path} is ${real}, outside the workspace roots; nothing was written`);
  }
  return { child: (name) => join(real, name), close: async () => {} };
}

function directoryFailure(path: string, code: string | undefined, error: unknown): string {
  if (code === "ELOOP") return `the directory ${path} became a symbolic link after it was checked; nothing was written`;
  if (code === "ENOTDIR") return `${path} is not a directory, so no file can be written inside it`;
  if (code === "EACCES" || code === "EPERM") return `the directory ${path} cannot be opened: permission denied`;
  return `the directory ${path} cannot be opened: ${(error as Error).message}`;
}
