/**
 * Where the daemon keeps its state — `$XDG_STATE_HOME/toolpool`, else `~/.local/state/toolpool` —
 * and how a file there is made private. The state (usage history, cron prompts, trust decisions,
 * tokens, logs) says what the user works on: the directory is 0700 and each file 0600, also when
 * they already existed with wider modes.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_STATE_HOME || join(env.HOME || homedir(), ".local", "state");
  return join(base, "toolpool");
}

/** Creates `directory` (and its parents) and makes it 0700. */
export function ensurePrivateDirectory(directory: string): void {
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  chmodSync(directory, 0o700);
}

/**
 * Makes `path` a 0600 file in a 0700 directory before SQLite opens it (SQLite gives its -wal and
 * -shm files the database's mode), and narrows those files too when they are already there.
 */
export function preparePrivateDatabase(path: string): void {
  ensurePrivateDirectory(dirname(path));
  closeSync(openSync(path, "a", 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
}
