/**
 * Where the socket lives and whether that place is safe: `--socket`, else $TOOLPOOL_SOCKET, else
 * $XDG_RUNTIME_DIR/toolpool/toolpool.sock, else /tmp/toolpool-<uid>/toolpool.sock. The directory
 * must be ours, not a symlink and closed to others (0700): anyone who can reach the socket can
 * run tools as us.
 */
import { lstatSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { defaultSocketPath } from "../protocol/default-socket.ts";

/** sun_path is 108 bytes on Linux and 104 on macOS, including the terminating NUL. */
export const MAX_SOCKET_PATH_BYTES = process.platform === "darwin" ? 103 : 107;

export class SocketPathError extends Error {}

export function resolveSocketPath(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(flag || defaultSocketPath(env, process.getuid?.()));
}

export function checkSocketPathLength(path: string): void {
  const bytes = Buffer.byteLength(path);
  if (bytes > MAX_SOCKET_PATH_BYTES) {
    throw new SocketPathError(
      `socket path is ${bytes} bytes, over the ${MAX_SOCKET_PATH_BYTES}-byte limit of Unix sockets: ${path} (choose a shorter --socket)`,
    );
  }
}

/** Creates the socket's directory 0700 if missing; refuses one that is unsafe, saying why. */
export function prepareSocketDirectory(socketPath: string): void {
  checkSocketPathLength(socketPath);
  const directory = dirname(socketPath);
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const stats = lstatSync(directory);
  if (stats.isSymbolicLink()) throw new SocketPathError(`socket directory ${directory} is a symlink; refusing to use it`);
  if (!stats.isDirectory()) throw new SocketPathError(`socket directory ${directory} is not a directory`);
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid) {
    throw new SocketPathError(`socket directory ${directory} is owned by uid ${stats.uid}, not by you (uid ${uid}); refusing to use it`);
  }
  if ((stats.mode & 0o077) !== 0) {
    const shared = (stats.mode & 0o1000) !== 0 || (stats.mode & 0o002) !== 0;
    // A shared directory such as /tmp must not be chmod-ed: the socket belongs in a private one.
    const fix = shared
      ? `put the socket in a private directory instead, e.g. --socket ${join(directory, `toolpool-${uid ?? "user"}`, "toolpool.sock")} (created 0700)`
      : `chmod 700 ${directory}`;
    throw new SocketPathError(
      `socket directory ${directory} has mode ${(stats.mode & 0o7777).toString(8)}; it must be 0700 so no one else can reach the socket (${fix})`,
    );
  }
}

/**
 * Refuses a socket path where something other than a socket (or nothing) is: the daemon replaces a
 * socket left by a dead daemon, but never deletes a file, a symlink or a directory someone named by
 * mistake (`--socket notes.txt`).
 */
export function checkSocketPathFree(socketPath: string): void {
  let stats;
  try {
    stats = lstatSync(socketPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  if (stats.isSocket()) return;
  const what = stats.isSymbolicLink() ? "a symlink" : stats.isDirectory() ? "a directory" : stats.isFile() ? "a regular file" : "not a socket";
  throw new SocketPathError(`socket path ${socketPath} is ${what}; refusing to replace it (choose another --socket, or remove it yourself)`);
}
