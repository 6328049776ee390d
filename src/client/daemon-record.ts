/**
 * Where the user's running daemon listens, written down in a place found from the user alone.
 *
 * A host often starts `toolpool mcp` with a trimmed environment (HOME, PATH, USER and little else):
 * without XDG_RUNTIME_DIR the default socket path differs from the one the service or a terminal's
 * `serve` chose, and the bridge would start a second, empty daemon. So each daemon records its
 * socket (and the config it read) in `~/.local/state/toolpool/daemon.json` — derived from HOME, or
 * the uid's home in the password database, never from XDG variables — and clients fall back to it.
 *
 * The record steers clients to a socket, so it is trusted only when nobody else could have written
 * it: a regular file owned by us, writable by no one else, in a directory that is ours and closed
 * to others; and the socket it names must be a socket owned by us in a directory owned by us.
 */
import { lstatSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { userInfo } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { ensurePrivateDirectory } from "../runtime/state-dir.ts";

export interface DaemonRecord {
  socket: string;
  pid: number;
  /** The config file the daemon read (absolute), or null when it ran on defaults. */
  config: string | null;
  startedAt: string;
}

/** A record is a few hundred bytes; anything larger is not ours. */
const MAX_RECORD_BYTES = 8_192;

/** `~/.local/state/toolpool/daemon.json`, whatever XDG_STATE_HOME says (a trimmed env has none). */
export function daemonRecordPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.HOME || userInfo().homedir, ".local", "state", "toolpool", "daemon.json");
}

/** Written atomically, 0600 in a 0700 directory. */
export function writeDaemonRecord(record: DaemonRecord, env: NodeJS.ProcessEnv = process.env): void {
  const path = daemonRecordPath(env);
  ensurePrivateDirectory(dirname(path));
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}

/**
 * Records this daemon unless the record names another daemon that still runs and listens (a second,
 * one-off `serve --socket X` must not steer the user's hosts away from the daemon they use). Returns
 * the daemon that keeps the record when it is another.
 */
export function claimDaemonRecord(record: DaemonRecord, env: NodeJS.ProcessEnv = process.env): DaemonRecord | undefined {
  const current = readDaemonRecord(env);
  if (current && current.socket !== record.socket && current.pid !== record.pid && isRunning(current.pid) && socketIsOurs(current.socket)) return current;
  writeDaemonRecord(record, env);
  return undefined;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    // ESRCH, or EPERM: a process of someone else's holds the pid now, so not our daemon.
    return false;
  }
}

/** The record, when there is one we can trust; undefined otherwise (missing, foreign, malformed). */
export function readDaemonRecord(env: NodeJS.ProcessEnv = process.env, uid: number | undefined = process.getuid?.()): DaemonRecord | undefined {
  const path = daemonRecordPath(env);
  if (!ownedAndPrivate(dirname(path), uid, "directory") || !ownedAndPrivate(path, uid, "file")) return undefined;
  let parsed: unknown;
  try {
    const text = readFileSync(path, "utf8");
    if (text.length > MAX_RECORD_BYTES) return undefined;
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const { socket, pid, config, startedAt } = parsed as Record<string, unknown>;
  if (typeof socket !== "string" || !isAbsolute(socket) || typeof pid !== "number") return undefined;
  if (config !== null && (typeof config !== "string" || !isAbsolute(config))) return undefined;
  return { socket, pid, config: config as string | null, startedAt: typeof startedAt === "string" ? startedAt : "" };
}

/**
 * The socket a record names is one we may connect to: a socket owned by us, in a directory owned
 * by us that no one else can write to. (Node has no SO_PEERCRED; a socket file of ours in a
 * directory only we can write was bound by a process of ours, so the peer is the same uid.)
 */
export function socketIsOurs(socket: string, uid: number | undefined = process.getuid?.()): boolean {
  try {
    const stats = lstatSync(socket);
    if (!stats.isSocket() || (uid !== undefined && stats.uid !== uid)) return false;
    const directory = lstatSync(dirname(socket));
    return directory.isDirectory() && (uid === undefined || directory.uid === uid) && (directory.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

function ownedAndPrivate(path: string, uid: number | undefined, kind: "file" | "directory"): boolean {
  try {
    const stats = lstatSync(path);
    if (kind === "file" ? !stats.isFile() : !stats.isDirectory()) return false;
    if (uid !== undefined && stats.uid !== uid) return false;
    return (stats.mode & 0o022) === 0;
  } catch {
    return false;
  }
}
