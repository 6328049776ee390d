/**
 * Watching the features file. `fs.watch` on the file's directory (not the file: editors that save by
 * writing a temp file and renaming it replace the inode, and a watch on the old inode goes silent),
 * plus a stat poll as a safety net for file systems without inotify and for a directory that does not
 * exist yet. Events are debounced so a save in several writes is read once, after the last.
 */
import { type FSWatcher, statSync, watch } from "node:fs";
import { basename, dirname } from "node:path";

export interface Closeable {
  close(): void;
}

/** Calls `onChange` (maybe spuriously) soon after the file at `path` is created, changed or removed. */
export type WatchFile = (path: string, onChange: () => void) => Closeable;

export interface FileWatchOptions {
  /** The stat poll; with the debounce it bounds how late a change is seen when events fail. */
  pollIntervalMs?: number;
  debounceMs?: number;
}

export function createFileWatcher(options: FileWatchOptions = {}): WatchFile {
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const debounceMs = options.debounceMs ?? 50;
  return (path, onChange) => {
    let closed = false;
    let debounce: ReturnType<typeof setTimeout> | undefined;
    let signature = statSignature(path);
    const schedule = () => {
      if (closed) return;
      clearTimeout(debounce);
      debounce = setTimeout(() => {
        debounce = undefined;
        signature = statSignature(path);
        if (!closed) onChange();
      }, debounceMs);
    };
    const watcher = watchDirectory(path, schedule);
    const poll = setInterval(() => {
      if (statSignature(path) !== signature) schedule();
    }, pollIntervalMs);
    return {
      close() {
        closed = true;
        clearTimeout(debounce);
        clearInterval(poll);
        watcher?.close();
      },
    };
  };
}

function watchDirectory(path: string, onEvent: () => void): FSWatcher | undefined {
  const name = basename(path);
  try {
    const watcher = watch(dirname(path), { persistent: true }, (_event, filename) => {
      if (filename === null || filename.toString() === name) onEvent();
    });
    // A watch that breaks (directory removed) leaves the poll in charge.
    watcher.on("error", () => watcher.close());
    return watcher;
  } catch {
    return undefined;
  }
}

function statSignature(path: string): string {
  try {
    const stat = statSync(path);
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return "missing";
  }
}
