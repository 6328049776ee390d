/**
 * One daemon per socket. A lock file beside the socket holds the owner's pid, created atomically
 * (a hard link of a file already holding the pid) so two daemons starting at once cannot both
 * win. A lock whose owner is dead (kill -9) is stale and taken over under a takeover mutex, so a
 * starter never deletes a lock another one has just created; a live owner is never robbed.
 */
import { closeSync, linkSync, openSync, readFileSync, statSync, unlinkSync, writeFileSync, writeSync } from "node:fs";

export class AlreadyRunningError extends Error {
  constructor(
    message: string,
    /** The owner has said it is stopping (SIGTERM, draining): a new daemon may wait for it. */
    readonly ownerStopping = false,
  ) {
    super(message);
  }
}

export interface SocketLock {
  readonly path: string;
  release(): void;
  /** Tells daemons that start now that this one is on its way out (they wait instead of refusing). */
  markStopping(): void;
  /**
   * Is the lock still ours? A deleted lock is created again ("recreated"); one that now names
   * another process was taken over (its pid is returned): the caller must give up the socket.
   */
  check(): "held" | "recreated" | number;
}

/**
 * A lock whose owner is alive but which has had no socket beside it for this long belongs to a
 * process that reused a dead daemon's pid (after a reboot, say): a real daemon listens within
 * milliseconds of taking the lock and keeps its socket until it lets the lock go.
 */
export const ORPHANED_LOCK_AGE_MS = 10_000;

/** A takeover mutex this old was left by a starter that died mid-way (a takeover takes microseconds). */
const TAKEOVER_STALE_MS = 10_000;

export function acquireSocketLock(
  socketPath: string,
  isAlive: (pid: number) => boolean = pidAlive,
  now: () => number = Date.now,
): SocketLock {
  const path = `${socketPath}.lock`;
  const liveOwner = (owner: number | undefined): owner is number =>
    owner !== undefined && owner !== process.pid && isAlive(owner) && !orphaned(path, socketPath, now());
  const running = (owner: number) =>
    new AlreadyRunningError(`a toolpool daemon is already running on ${socketPath} (pid ${owner})`, readOwner(`${path}.stopping`) === owner);
  for (let attempt = 0; attempt < 3; attempt++) {
    let created: boolean;
    try {
      created = createLock(path);
    } catch (error) {
      // A directory we cannot write to: still say so when a daemon holds the lock there.
      const owner = readOwner(path);
      throw liveOwner(owner) ? running(owner) : error;
    }
    if (created) return heldLock(path);
    const owner = readOwner(path);
    if (liveOwner(owner)) throw running(owner);
    // Stale: its owner is gone. Remove exactly that lock (the one naming `owner`) and try again.
    if (!removeStale(path, owner, now)) break;
  }
  throw new AlreadyRunningError(`a toolpool daemon is already starting on ${socketPath}`);
}

function heldLock(path: string): SocketLock {
  const stopping = `${path}.stopping`;
  // The lock is ours: a marker left by a daemon killed during its drain must not make the next
  // starter wait for us as if we were stopping.
  tryUnlink(stopping);
  return {
    path,
    release: () => {
      removeIfOurs(stopping);
      removeIfOurs(path);
    },
    markStopping: () => {
      try {
        writeFileSync(stopping, `${process.pid}\n`, { mode: 0o600 });
      } catch {
        // Only a courtesy to the next daemon: it refuses instead of waiting.
      }
    },
    check: () => {
      const owner = readOwner(path);
      if (owner === process.pid) return "held";
      if (owner !== undefined) return owner;
      try {
        if (createLock(path)) return "recreated";
      } catch {
        return "held"; // cannot write here now; the next check tries again
      }
      return readOwner(path) ?? "held";
    },
  };
}

/**
 * Creates the lock with our pid already in it, or returns false when one exists. The pid is
 * written to a private file first and hard-linked into place, so no one ever reads a lock that
 * exists but is still empty (and mistakes it for a stale one). Where hard links are not
 * supported, an O_EXCL create followed by the write is the fallback.
 */
function createLock(path: string): boolean {
  // No other live process has our pid, so the draft's name is ours alone (a dead one's is overwritten).
  const draft = `${path}.${process.pid}.draft`;
  writeFileSync(draft, `${process.pid}\n`, { mode: 0o600 });
  try {
    linkSync(draft, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP") throw error;
    return createLockExclusive(path);
  } finally {
    tryUnlink(draft);
  }
}

function createLockExclusive(path: string): boolean {
  try {
    const fd = openSync(path, "wx", 0o600);
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/**
 * Removes the lock judged stale, holding a takeover mutex (`<lock>.takeover`, created the same
 * atomic way) while it re-reads the owner and deletes the file. A fresh lock is therefore never
 * deleted: fresh locks are only created where none exists, and while the stale one exists only the
 * mutex holder removes it. Returns false when another starter holds the mutex (it is taking over;
 * we lose), true when the caller should try to create the lock again.
 */
function removeStale(path: string, staleOwner: number | undefined, now: () => number): boolean {
  const mutex = `${path}.takeover`;
  if (!createLock(mutex)) {
    if (!olderThan(mutex, now(), TAKEOVER_STALE_MS)) return false;
    tryUnlink(mutex);
    if (!createLock(mutex)) return false;
  }
  try {
    if (readOwner(path) === staleOwner) tryUnlink(path);
    return true;
  } finally {
    removeIfOurs(mutex);
  }
}

function olderThan(path: string, now: number, ageMs: number): boolean {
  try {
    return now - statSync(path).mtimeMs > ageMs;
  } catch {
    return true; // gone already
  }
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

/**
 * Takes the lock, waiting (bounded) while its owner is a daemon that has said it is stopping: a
 * `serve` started during an old daemon's drain comes up once the old one has gone, instead of
 * refusing (or, as before, racing it for the socket). Any other refusal is thrown at once.
 */
export async function waitForSocketLock(
  socketPath: string,
  waitMs: number,
  onWait: (owner: string) => void = () => {},
  sleep: (ms: number) => Promise<unknown> = Bun.sleep,
): Promise<SocketLock> {
  const deadline = Date.now() + waitMs;
  let waited = false;
  for (;;) {
    try {
      return acquireSocketLock(socketPath);
    } catch (error) {
      if (!(error instanceof AlreadyRunningError) || !error.ownerStopping) throw error;
      if (Date.now() >= deadline) {
        throw new AlreadyRunningError(`${error.message}, and it is still stopping after ${waitMs} ms; try again once it has exited`);
      }
      if (!waited) onWait(error.message);
      waited = true;
      await sleep(50);
    }
  }
}
