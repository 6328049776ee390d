/**
 * Rewriting someone's config file safely: a timestamped backup of the old file first, then the new
 * text written beside it and renamed over it, keeping the old file's mode (a config with tokens in
 * it stays private). A crash at any point leaves either the old file or the new one, never half.
 */
import { copyFileSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export interface WriteOutcome {
  path: string;
  /** Where the previous file was copied, when there was one. */
  backup?: string;
}

export function writeJsonFile(path: string, value: unknown, now: Date = new Date()): WriteOutcome {
  return writeTextFile(path, `${JSON.stringify(value, null, 2)}\n`, now);
}

/** The same for a file that is not JSON (Codex's TOML): the text as given. */
export function writeTextFile(path: string, text: string, now: Date = new Date()): WriteOutcome {
  let mode = 0o600;
  let backup: string | undefined;
  try {
    mode = statSync(path).mode & 0o777;
    backup = `${path}.bak-${now.toISOString().replace(/[:.]/g, "-")}`;
    copyFileSync(path, backup);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    backup = undefined;
  }
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.toolpool-${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text, { mode });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  return { path, ...(backup && { backup }) };
}
