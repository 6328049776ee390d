/**
 * What a project's servers execute from inside the project: the files an approval (`toolpool
 * trust`) pins besides the project file itself. Pinning only the JSON left the script it names
 * free to change: a session with Write (and Bash denied) rewrote `./server.sh`, and the next start
 * ran it. Now each such file's digest is recorded at approval, and a changed, removed or newly
 * created one makes the approval lapse until the user approves again.
 *
 * Which words count, for each stdio server (its cwd: the root, or its `cwd` inside the root):
 * - the command, when it is a path (`./server.sh`, `bin/run`; a bare `node` is looked up on PATH);
 * - each argument (or the value of `--opt=VALUE`) that names a regular file inside the root
 *   (`node server.js`, `python app.py`, `bash -c` is not a file), and each that looks like a path
 *   or a script (`./x`, `lib/x`, `x.py`) even when it does not exist yet — it is pinned as missing,
 *   so creating it later also lapses the approval.
 * Not seen: modules named without a path (`python -m pkg`), a directory run as a package
 * (`node .`), files a script reads or imports at run time, and words with `${VAR}` in them.
 * Those stay the user's to review; the docs say so.
 */
import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { isInside } from "../runtime/path-inside.ts";
import type { McpServerConfig } from "./schema.ts";

/** At most this many files are pinned per project: past it, the approval is refused, not partial. */
export const MAX_PINNED_FILES = 64;
/** Files up to this size are hashed whole; larger ones are pinned by size, mtime and inode. */
const MAX_HASHED_BYTES = 32 * 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;
/** The digest of a path that held no regular file when it was pinned. */
export const MISSING_FILE = "missing";
const SCRIPT_LIKE = /(^\.{1,2}\/)|\/|\.[A-Za-z][A-Za-z0-9]{0,4}$/;

export class PinError extends Error {
  override readonly name = "PinError";
}

/** Absolute paths (as resolved inside `root`, a real path) each server executes; sorted, unique. */
export function executedFiles(root: string, servers: Readonly<Record<string, McpServerConfig>>): string[] {
  const found = new Set<string>();
  for (const server of Object.values(servers)) {
    if ("url" in server) continue;
    const cwd = resolve(root, server.cwd ?? ".");
    if (!isInside(cwd, root)) continue;
    const words: { word: string; command: boolean }[] = [{ word: server.command, command: true }];
    for (const arg of server.args) {
      if (arg.startsWith("-")) {
        const equals = arg.indexOf("=");
        if (equals > 0) words.push({ word: arg.slice(equals + 1), command: false });
        continue;
      }
      words.push({ word: arg, command: false });
    }
    for (const { word, command } of words) {
      if (word === "" || word.includes("${") || word.includes("\0")) continue;
      // A bare command name is found on PATH, not in the project.
      if (command && !word.includes("/")) continue;
      const path = isAbsolute(word) ? resolve(word) : resolve(cwd, word);
      if (!isInside(path, root) || path === root) continue;
      const real = realpathOrUndefined(path);
      if (real !== undefined) {
        if (isInside(real, root) && isRegularFile(real)) found.add(real);
      } else if (command || SCRIPT_LIKE.test(word)) {
        found.add(path);
      }
    }
  }
  if (found.size > MAX_PINNED_FILES) {
    throw new PinError(`the project's servers name ${found.size} files inside the project; at most ${MAX_PINNED_FILES} can be pinned by an approval`);
  }
  return [...found].sort();
}

/** The digest of each file (`missing` when none is there). */
export function digestFiles(paths: readonly string[]): Record<string, string> {
  const digests: Record<string, string> = Object.create(null);
  for (const path of paths) digests[path] = fileDigest(path);
  return digests;
}

/** The first pinned file whose digest differs now, with how; undefined when all still match. */
export function changedPin(pins: Readonly<Record<string, string>>): string | undefined {
  for (const [path, approved] of Object.entries(pins)) {
    const now = fileDigest(path);
    if (now === approved) continue;
    if (now === MISSING_FILE) return `${path} was removed since it was approved`;
    if (approved === MISSING_FILE) return `${path} was created since the approval (it did not exist then)`;
    return `${path} changed since it was approved`;
  }
  return undefined;
}

/** SHA-256 of a regular file's bytes, read without blocking and without following a final symlink. */
export function fileDigest(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch {
    return MISSING_FILE;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return MISSING_FILE;
    if (stat.size > MAX_HASHED_BYTES) return `stat:${stat.size}:${stat.mtimeMs}:${stat.ino}`;
    const hash = createHash("sha256");
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let total = 0;
    for (let count = readSync(fd, buffer, 0, CHUNK_BYTES, null); count > 0 && total <= MAX_HASHED_BYTES; count = readSync(fd, buffer, 0, CHUNK_BYTES, null)) {
      hash.update(buffer.subarray(0, count));
      total += count;
    }
    return hash.digest("hex");
  } finally {
    closeSync(fd);
  }
}

function realpathOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
