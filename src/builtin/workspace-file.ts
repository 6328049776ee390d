/**
 * Opening a file or directory for a file tool so that what is checked is what is read.
 *
 * - Opened without blocking (O_NONBLOCK) and without following a last-component symlink
 *   (O_NOFOLLOW): a FIFO swapped in after a check by name would otherwise park one of Bun's two I/O
 *   threads in open(2) forever, and with both parked every file tool and Bash call hangs.
 * - The type and the size are taken from the open descriptor (fstat), and reads go to that same
 *   descriptor, at most the tool's limit: a 3 GB file swapped in after the check cannot be loaded.
 * - Where the descriptor really points is read back from /proc/self/fd/N (Linux) and must lie inside
 *   a workspace root. Node and Bun have no openat(2); this check after the open holds however the
 *   path's components are renamed or replaced by symlinks meanwhile, because the kernel reports the
 *   file that was actually opened.
 *
 * Elsewhere (macOS, the BSDs) there is no /proc: the path is resolved again after the open and its
 * device and inode compared with the descriptor's. That narrows the race but cannot close it.
 */
import { constants, readlinkSync, type Stats } from "node:fs";
import { open, realpath, stat, type FileHandle } from "node:fs/promises";
import { isInside } from "../runtime/path-inside.ts";
import { rootSet, type RootsArg } from "./workspace-roots.ts";

export const PROC_FD_DIRECTORY = "/proc/self/fd";
/** Bytes asked of the kernel per read when streaming or reading whole. */
export const READ_CHUNK_BYTES = 256 * 1024;

export interface OpenedEntry extends AsyncDisposable {
  handle: FileHandle;
  /** The verified real path of what was opened. */
  path: string;
  stats: Stats;
}

export type OpenOutcome =
  | { ok: true; entry: OpenedEntry }
  | { ok: false; reason: string; missing: boolean };

/**
 * Opens `path` (already resolved inside the roots by workspace-paths.ts) read-only, verifies the
 * descriptor lies inside `roots`, and returns it with its fstat. A symlink, FIFO, socket or device
 * is refused here rather than by whatever the tool does next; the type check for "file" versus
 * "directory" is left to the caller, who words it for its tool.
 */
export async function openInWorkspace(
  path: string,
  roots: RootsArg,
  directory = false,
  /** The session's path rules, asked again about what was really opened (a link swapped in after the check). */
  readable?: (realPath: string) => boolean,
): Promise<OpenOutcome> {
  const flags = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW | constants.O_NOCTTY | (directory ? constants.O_DIRECTORY : 0);
  const set = rootSet(roots);
  let handle: FileHandle;
  try {
    // Beneath the root's pinned descriptor: the lookup starts at the directory the session opened.
    handle = await open(set.beneath(path), flags);
  } catch (error) {
    return { ok: false, ...openFailure(path, error, directory) };
  }
  try {
    const stats = await handle.stat();
    const kind = specialKind(stats);
    if (kind) throw new RefusedEntry(`${path} is ${kind}, not a regular file; file tools do not open it`);
    const real = await descriptorPath(handle, path, stats);
    if (!set.paths.some((root) => isInside(real, root))) {
      throw new RefusedEntry(
        `${path} turned out to be ${real} when opened, which is outside the workspace roots (a directory or link changed while it was checked); it was not read`,
      );
    }
    if (readable && !readable(real)) {
      throw new RefusedEntry(`${path} turned out to be ${real} when opened, which the session's permission rules do not let it read; it was not read`);
    }
    return {
      ok: true,
      // Closing a read-only descriptor cannot fail in a way the caller could act on, so the answer
      // does not wait one more trip to the I/O threads for it.
      entry: { handle, path: real, stats, [Symbol.asyncDispose]: async () => void handle.close().catch(() => {}) },
    };
  } catch (error) {
    await handle.close();
    if (error instanceof RefusedEntry) return { ok: false, reason: error.message, missing: false };
    throw error;
  }
}

/**
 * Reads from the start, at most `maxBytes`; `more` says the file held more than that. The first
 * buffer is sized by `expectedBytes` (the fstat size), so a walk over many small files does not
 * allocate a full chunk for each.
 */
export async function readAtMost(handle: FileHandle, maxBytes: number, expectedBytes = READ_CHUNK_BYTES): Promise<{ bytes: Uint8Array; more: boolean }> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  // One byte past what is expected, so growth (or a file over the limit) shows in the same read.
  let size = Math.min(maxBytes, expectedBytes) + 1;
  while (total <= maxBytes) {
    const want = Math.min(size, maxBytes + 1 - total);
    const buffer = Buffer.allocUnsafe(want);
    const { bytesRead } = await handle.read(buffer, 0, want, total);
    if (bytesRead === 0) break;
    chunks.push(buffer.subarray(0, bytesRead));
    total += bytesRead;
    // Exactly the expected size and the byte asked for past it did not come: that is the end, and a
    // further read (one more trip to the I/O threads) would only confirm it.
    if (total === expectedBytes && bytesRead < want) break;
    size = READ_CHUNK_BYTES;
  }
  const bytes = chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks, total);
  return total > maxBytes ? { bytes: bytes.subarray(0, maxBytes), more: true } : { bytes, more: false };
}

/** The descriptor's bytes from the start in chunks, `limit` bytes at most in all. */
export async function* readChunks(handle: FileHandle, limit = Number.POSITIVE_INFINITY): AsyncGenerator<Uint8Array> {
  let position = 0;
  while (position < limit) {
    const size = Math.min(READ_CHUNK_BYTES, limit - position);
    const buffer = Buffer.allocUnsafe(size);
    const { bytesRead } = await handle.read(buffer, 0, size, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

/** What a special file is, for the refusal; undefined for regular files and directories. */
export function specialKind(stats: Stats): string | undefined {
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSymbolicLink()) return "a symbolic link";
  return undefined;
}

/** Where an open descriptor points. */
export async function descriptorPath(handle: FileHandle, openedAs: string, stats: Stats): Promise<string> {
  if (process.platform === "linux") {
    try {
      // Synchronous on purpose: the kernel answers this from the open file (no disk, no FIFO, no
      // network), and Bun's asynchronous readlink costs about 90 µs a call, tripling a Grep's time.
      return readlinkSync(`${PROC_FD_DIRECTORY}/${handle.fd}`);
    } catch {
      throw new RefusedEntry(`${openedAs} could not be verified: ${PROC_FD_DIRECTORY} is not readable (is /proc mounted?)`);
    }
  }
  // No /proc: the best available is a second resolution that must land on the same inode.
  const real = await realpath(openedAs);
  const again = await stat(real);
  if (again.dev !== stats.dev || again.ino !== stats.ino) {
    throw new RefusedEntry(`${openedAs} changed while it was opened; it was not read`);
  }
  return real;
}

export class RefusedEntry extends Error {
  override readonly name = "RefusedEntry";
}

function openFailure(path: string, error: unknown, directory: boolean): { reason: string; missing: boolean } {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case "ENOENT":
      return { reason: `${path} does not exist`, missing: true };
    case "ELOOP":
      return { reason: `${path} became a symbolic link after it was checked; it was not followed`, missing: false };
    case "ENXIO":
      return { reason: `${path} is a socket, not a regular file; file tools do not open it`, missing: false };
    case "ENOTDIR":
      return { reason: directory ? `${path} is not a directory` : `${path} cannot be opened: a part of its path is a file, not a directory`, missing: false };
    case "EACCES":
    case "EPERM":
      return { reason: `${path} cannot be opened: permission denied`, missing: false };
    default:
      return { reason: `${path} cannot be opened: ${(error as Error).message}`, missing: false };
  }
}

/** The session's read rules as asked of a real opened path (none: everything the roots hold). */
export function readableBy(context: { pathAllowed?: (path: string, kind: "read" | "write") => boolean }): ((realPath: string) => boolean) | undefined {
  const allowed = context.pathAllowed;
  return allowed && ((realPath) => allowed(realPath, "read"));
}
