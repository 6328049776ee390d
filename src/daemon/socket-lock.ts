/**
 * One daemon per socket. A lock file beside the socket holds the owner's pid, created with O_EXCL
 * so two daemons starting at once cannot both win. A lock whose owner is dead (kill -9) is stale
 * and taken over; a live owner is never robbed.
 */
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";

export class AlreadyRunningError extends Error {}

export interface SocketLock {
  readonly path: string;
  release(): void;
}

/**
 * A lock whose owner is alive but which has had no socket beside it for this long belongs to a
 * process that reused a dead daemon's pid (after a reboot, say): a real daemon listens within
 * milliseconds of taking the lock and keeps its socket until it lets the lock go.
 */
export const ORPHANED_LOCK_AGE_MS = 10_000;

export function acquireSocketLock(
  socketPath: string,
  isAlive: (pid: number) => boolean = pidAlive,
  now: () => number = Date.now,
): SocketLock {
  const path = `${socketPath}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return { path, release: () => removeIfOurs(path) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const owner = readOwner(path);
    if (owner !== undefined && owner !== process.pid && isAlive(owner) && !orphaned(path, socketPath, now())) {
      throw new AlreadyRunningError(`a toolpool daemon is already running on ${socketPath} (pid ${owner})`);
    }
    // Stale: its owner is gone. Remove it and try once more; losing that race means a live owner.
    tryUnlink(path);
  }
  throw new AlreadyRunningError(`a toolpool daemon is already starting on ${socketPath}`);
}

function orphaned(lockPath: string, socketPath: string, now: number): boolean {
  if (exists(socketPath)) return false;
  try {
    return now - statSync(lockPath).mtimeMs > ORPHANED_LOCK_AGE_MS;
  } catch {
    return false;
  }
}

function readOwner(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, "utf8").trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function removeIfOurs(path: string): void {
  if (readOwner(path) === process.pid) tryUnlink(path);
}

export function tryUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone is what we wanted.
  }
}

export function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}
