/**
 * Which project files the user has approved: `$XDG_STATE_HOME/toolpool/trust.json`, mode 0600,
 * mapping a project file's real path to the SHA-256 of the content that was approved. A project
 * file can start commands, so an approval is pinned to those exact bytes: a changed file is a new
 * question (`toolpool trust PATH` again), and a file approved elsewhere is not approved here.
 */
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { stateDir } from "../runtime/state-dir.ts";

/** Bounds what a hand-edited or hostile trust file can make us parse. */
const MAX_TRUST_FILE_BYTES = 1024 * 1024;

export interface TrustEntry {
  sha256: string;
  trustedAt: string;
}

export function defaultTrustPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(stateDir(env), "trust.json");
}

export function contentHash(text: string | Uint8Array): string {
  return createHash("sha256").update(text).digest("hex");
}

export class TrustStore {
  constructor(readonly path: string) {}

  /** Read afresh each time: `toolpool trust` (another process) writes it while the daemon runs. */
  entries(): Record<string, TrustEntry> {
    let text: string;
    try {
      // Approvals someone else could have written are no approvals: fail closed. Readable by
      // others is only narrowed (the list says which projects the user works on).
      const status = statSync(this.path);
      if ((status.mode & 0o022) !== 0 || (process.getuid && status.uid !== process.getuid())) return {};
      if ((status.mode & 0o077) !== 0) chmodSync(this.path, 0o600);
      text = readFileSync(this.path, "utf8");
    } catch {
      return {};
    }
    if (text.length > MAX_TRUST_FILE_BYTES) return {};
    try {
      const parsed = JSON.parse(text) as { files?: Record<string, TrustEntry> };
      return parsed && typeof parsed.files === "object" && parsed.files !== null ? parsed.files : {};
    } catch {
      return {};
    }
  }

  isTrusted(file: string, sha256: string): boolean {
    const entries = this.entries();
    const entry = Object.hasOwn(entries, file) ? entries[file] : undefined;
    return entry?.sha256 === sha256;
  }

  trust(file: string, sha256: string, now = new Date()): void {
    this.#write({ ...this.entries(), [file]: { sha256, trustedAt: now.toISOString() } });
  }

  /** True when there was an approval to take back. */
  revoke(file: string): boolean {
    const entries = this.entries();
    if (!Object.hasOwn(entries, file)) return false;
    delete entries[file];
    this.#write(entries);
    return true;
  }

  #write(files: Record<string, TrustEntry>): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const temporary = `${this.path}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(temporary, `${JSON.stringify({ version: 1, files }, null, 2)}\n`, { mode: 0o600, flag: "wx" });
    renameSync(temporary, this.path);
  }
}
