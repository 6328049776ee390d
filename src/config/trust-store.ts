/**
 * Which project files the user has approved: `$XDG_STATE_HOME/toolpool/trust.json`, mode 0600,
 * mapping a project file's real path to the SHA-256 of the content that was approved. A project
 * file can start commands, so an approval is pinned to those exact bytes: a changed file is a new
 * question (`toolpool trust PATH` again), and a file approved elsewhere is not approved here.
 * An approval also pins the files the project's servers execute inside the root (`./server.sh`,
 * `node server.js`; see executed-files.ts): any of them changed, removed or newly created, and
 * the approval lapses with a message naming the file.
 */
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { stateDir } from "../runtime/state-dir.ts";
import { changedPin, executedFiles, PinError } from "./executed-files.ts";
import type { McpServerConfig } from "./schema.ts";

/** Bounds what a hand-edited or hostile trust file can make us parse. */
const MAX_TRUST_FILE_BYTES = 1024 * 1024;

export interface TrustEntry {
  sha256: string;
  trustedAt: string;
  /** The digests of the files the servers execute, as approved (absent: approved before files were pinned). */
  files?: Record<string, string>;
}

/** What an approval says of a project as it is now. */
export type TrustVerdict = { trusted: true; trustedAt: string; pins: Record<string, string> } | { trusted: false; reason: string };

/** What a verdict is asked about: a project file as read now. */
export interface TrustedProject {
  root: string;
  file: string;
  sha256: string;
  servers: Readonly<Record<string, McpServerConfig>>;
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

  /**
   * Whether the project as it is now is what was approved: the project file's bytes, and every
   * file its servers execute. `pins` (when trusted) is what a server start checks again.
   */
  verdict(project: TrustedProject): TrustVerdict {
    const entries = this.entries();
    const entry = Object.hasOwn(entries, project.file) ? entries[project.file] : undefined;
    const again = `run \`toolpool trust ${project.file}\` once you have checked it`;
    if (!entry) return { trusted: false, reason: `project file ${project.file} is not trusted; ${again}` };
    if (entry.sha256 !== project.sha256) return { trusted: false, reason: `project file ${project.file} changed since it was approved; ${again}` };
    let executed: string[];
    try {
      executed = executedFiles(project.root, project.servers);
    } catch (error) {
      if (error instanceof PinError) return { trusted: false, reason: `${error.message}; ${project.file} cannot be approved` };
      throw error;
    }
    const approved = entry.files ?? {};
    const unpinned = executed.find((path) => !Object.hasOwn(approved, path));
    if (unpinned) {
      const why = entry.files ? "now runs from a file the approval did not cover" : "was approved before toolpool pinned the files its servers run";
      return { trusted: false, reason: `project file ${project.file} ${why} (${unpinned}); ${again}` };
    }
    const pins: Record<string, string> = { [project.file]: project.sha256 };
    for (const path of executed) pins[path] = approved[path] as string;
    const changed = changedPin(pins);
    if (changed) return { trusted: false, reason: `${changed}, and ${project.file}'s servers run it; ${again}` };
    return { trusted: true, trustedAt: entry.trustedAt, pins };
  }

  /** `files`: the pins (executed-files.ts); without them (an approval as older versions wrote it), a project that runs files from its root is not trusted. */
  trust(file: string, sha256: string, files?: Record<string, string>, now = new Date()): void {
    this.#write({ ...this.entries(), [file]: { sha256, trustedAt: now.toISOString(), ...(files && { files: { ...files } }) } });
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
