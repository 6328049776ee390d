/**
 * Workspace roots pinned by descriptor. A session's roots used to be looked up by name on every
 * file-tool call, so a root directory replaced by a symlink after the session opened (a `git
 * checkout` in another session, `mv root x; ln -s /elsewhere root`) moved Read, Grep, Glob and
 * Write to wherever the link pointed. Now each root is opened once, when a session opens in it,
 * and held as a directory descriptor:
 *
 * - A root is usable only while that very directory is still where the session was given it: on
 *   Linux the kernel's own name for the descriptor (`/proc/self/fd/N`) must equal the root's path;
 *   elsewhere the path's device and inode must equal the descriptor's. A root moved, replaced or
 *   deleted is "displaced": file tools refuse paths in it, saying so — they never follow the name
 *   to whatever is there now, and never act on the moved directory either (the session's path
 *   rules speak of the old path, so acting there would dodge them).
 * - File tools open paths beneath the descriptor (`/proc/self/fd/N/relative/path`, see
 *   builtin/workspace-roots.ts): the lookup starts at the pinned directory whatever its path has
 *   become, and the opened file's own kernel path is checked afterwards (workspace-file.ts).
 *
 * Why not openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS) through bun:ffi: a foreign call runs on
 * the thread that serves every client (a slow disk would stall them all), where Bun's own
 * asynchronous open runs on its I/O threads; NO_SYMLINKS would also refuse the links inside a
 * root that people rely on (and BENEATH every absolute one). The post-open check of the opened
 * descriptor gives the same guarantee — nothing outside the pinned directory is ever read or
 * written — and says clearly why when a link leads out.
 *
 * One descriptor per directory, shared by the sessions in it and closed when the last lets go;
 * at most MAX_PINNED_ROOTS distinct directories at once (a session asking for more is refused).
 */
import { closeSync, constants, fstatSync, openSync, readlinkSync, statSync } from "node:fs";

export const MAX_PINNED_ROOTS = 1024;
const PROC_FD = "/proc/self/fd";

export interface PinnedRoot {
  /** The root's real path when it was pinned. */
  readonly path: string;
  /** The directory descriptor (-1 once closed). */
  readonly fd: number;
  /** Undefined while the pinned directory is still at `path`; else what happened to it, for messages. */
  displaced(): string | undefined;
  /** `path` (inside this root) as a path that is looked up beneath the descriptor. */
  beneath(path: string): string;
}

export class RootPinError extends Error {
  override readonly name = "RootPinError";
}

interface Entry {
  pin: Pin;
  refs: number;
}

export class RootPins {
  readonly #entries = new Map<string, Entry>();

  constructor(private readonly platform: NodeJS.Platform = process.platform) {}

  get size(): number {
    return this.#entries.size;
  }

  /** Pins each root (real paths), sharing a descriptor with earlier pins of the same directory. */
  pinAll(paths: readonly string[]): PinnedRoot[] {
    const pinned: PinnedRoot[] = [];
    try {
      for (const path of paths) pinned.push(this.pin(path));
    } catch (error) {
      this.releaseAll(pinned);
      throw error;
    }
    return pinned;
  }

  pin(path: string): PinnedRoot {
    const existing = this.#entries.get(path);
    if (existing && existing.pin.displaced() === undefined) {
      existing.refs++;
      return existing.pin;
    }
    if (!existing && this.#entries.size >= MAX_PINNED_ROOTS) {
      throw new RootPinError(`the daemon holds ${MAX_PINNED_ROOTS} workspace roots open for its sessions, its limit; close sessions, or open this one in a root already in use`);
    }
    const pin = Pin.open(path, this.platform);
    // A displaced pin of this path stays with the sessions that hold it; new sessions get this one.
    if (existing) existing.pin.orphan(existing.refs);
    this.#entries.set(path, { pin, refs: 1 });
    return pin;
  }

  release(pinned: PinnedRoot): void {
    const pin = pinned as Pin;
    const entry = this.#entries.get(pin.path);
    if (entry?.pin !== pin) {
      pin.releaseOrphan();
      return;
    }
    if (--entry.refs > 0) return;
    this.#entries.delete(pin.path);
    pin.close();
  }

  releaseAll(pins: readonly PinnedRoot[]): void {
    for (const pin of pins) this.release(pin);
  }

  /** Closes every descriptor (daemon stop). */
  closeAll(): void {
    for (const entry of this.#entries.values()) entry.pin.close();
    this.#entries.clear();
  }
}

class Pin implements PinnedRoot {
  #fd: number;
  /** Holders left once this pin was replaced in the table (counted down by release). */
  #orphanRefs = 0;

  private constructor(
    readonly path: string,
    fd: number,
    private readonly dev: number,
    private readonly ino: number,
    private readonly platform: NodeJS.Platform,
  ) {
    this.#fd = fd;
  }

  static open(path: string, platform: NodeJS.Platform): Pin {
    let fd: number;
    try {
      fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
    } catch (error) {
      throw new RootPinError(`the workspace root ${path} cannot be opened: ${(error as Error).message}`);
    }
    const stats = fstatSync(fd);
    const pin = new Pin(path, fd, stats.dev, stats.ino, platform);
    // Checked on the descriptor: the name could have changed between the caller's realpath and the open.
    const displaced = pin.displaced();
    if (displaced !== undefined) {
      pin.close();
      throw new RootPinError(`the workspace root ${path} changed while it was opened (${displaced}); open the session again`);
    }
    return pin;
  }

  get fd(): number {
    return this.#fd;
  }

  displaced(): string | undefined {
    if (this.#fd < 0) return "it is no longer held open";
    if (this.platform === "linux") {
      let now: string;
      try {
        now = readlinkSync(`${PROC_FD}/${this.#fd}`);
      } catch {
        return `${PROC_FD} is not readable, so where it is cannot be checked`;
      }
      if (now === this.path) return undefined;
      return now.endsWith(" (deleted)") ? "the directory was deleted" : `the directory the session opened is now at ${now}`;
    }
    // No /proc: the name must still lead to the same directory.
    try {
      const stats = statSync(this.path);
      if (stats.dev === this.dev && stats.ino === this.ino) return undefined;
    } catch {
      return "it no longer exists";
    }
    return `${this.path} is now another directory or a link`;
  }

  beneath(path: string): string {
    if (this.platform !== "linux" || this.#fd < 0) return path;
    // `/.`: the magic link is crossed as a directory, so an O_NOFOLLOW open of the root still works.
    if (path === this.path) return `${PROC_FD}/${this.#fd}/.`;
    const prefix = this.path.endsWith("/") ? this.path : `${this.path}/`;
    return path.startsWith(prefix) ? `${PROC_FD}/${this.#fd}/${path.slice(prefix.length)}` : path;
  }

  orphan(holders: number): void {
    this.#orphanRefs = holders;
  }

  releaseOrphan(): void {
    // An orphaned pin is shared by the sessions that held it when it was replaced; close it once
    // all of them have let go. Never counted: closed with the daemon.
    if (this.#orphanRefs > 0 && --this.#orphanRefs === 0) this.close();
  }

  close(): void {
    if (this.#fd < 0) return;
    try {
      closeSync(this.#fd);
    } catch {
      // Already closed: nothing to do.
    }
    this.#fd = -1;
  }
}
