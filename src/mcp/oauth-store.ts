/**
 * Where an HTTP MCP server's OAuth state lives: one JSON file per server under the state dir
 * (`$XDG_STATE_HOME/toolpool/oauth/`), mode 0600 in a 0700 directory, written by rename so a
 * reader never sees half a file. The file is keyed by the server's name *and* a hash of its URL:
 * a server whose URL changes (or a same-named server of another project) never gets tokens that
 * were issued for a different resource.
 */
import { createHash } from "node:crypto";
import { chmodSync, closeSync, fstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";

/** A token file is small; anything bigger is not ours and is not parsed. */
const MAX_RECORD_BYTES = 256 * 1024;

export interface OAuthRecord {
  serverUrl: string;
  /** The loopback redirect the client was registered (and last authorized) with. */
  redirectUrl?: string;
  /** A client we registered ourselves (dynamic registration); a configured client id is not stored. */
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** When `tokens` were obtained (ms since the epoch): with `expires_in`, when they expire. */
  obtainedAt?: number;
  discovery?: OAuthDiscoveryState;
}

export function defaultOAuthDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_STATE_HOME || join(env.HOME || homedir(), ".local", "state");
  return join(base, "toolpool", "oauth");
}

export class OAuthStore {
  /**
   * What this process last read or wrote, by path: every request to an OAuth server reads its
   * token, and only this process (the daemon) writes these files.
   */
  readonly #cache = new Map<string, OAuthRecord>();

  constructor(readonly dir: string) {}

  pathFor(server: string, url: string): string {
    const digest = createHash("sha256").update(url).digest("hex").slice(0, 16);
    return join(this.dir, `${server}.${digest}.json`);
  }

  /** The record, or an empty one for this URL when there is none (or it is unreadable). */
  read(server: string, url: string): OAuthRecord {
    const path = this.pathFor(server, url);
    const cached = this.#cache.get(path);
    if (cached) return cached;
    const record = this.#readFile(path, url);
    this.#cache.set(path, record);
    return record;
  }

  #readFile(path: string, url: string): OAuthRecord {
    let fd: number;
    try {
      fd = openSync(path, "r");
    } catch {
      return { serverUrl: url };
    }
    try {
      const size = fstatSync(fd).size;
      if (size > MAX_RECORD_BYTES) return { serverUrl: url };
      const buffer = Buffer.alloc(size);
      readSync(fd, buffer, 0, size, 0);
      const parsed = JSON.parse(buffer.toString("utf8")) as OAuthRecord;
      // Never hand out tokens stored for another URL (a hash collision, a hand-edited file).
      if (typeof parsed !== "object" || parsed === null || parsed.serverUrl !== url) return { serverUrl: url };
      return parsed;
    } catch {
      return { serverUrl: url };
    } finally {
      closeSync(fd);
    }
  }

  write(server: string, record: OAuthRecord): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
    const path = this.pathFor(server, record.serverUrl);
    const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
    // Created 0600 (flag wx: never through a file or link someone else put there), then renamed.
    writeFileSync(temporary, `${JSON.stringify(record)}\n`, { mode: 0o600, flag: "wx" });
    renameSync(temporary, path);
    this.#cache.set(path, record);
  }

  update(server: string, url: string, change: (record: OAuthRecord) => OAuthRecord): OAuthRecord {
    const next = change(this.read(server, url));
    this.write(server, next);
    return next;
  }

  remove(server: string, url: string): boolean {
    const path = this.pathFor(server, url);
    this.#cache.delete(path);
    try {
      rmSync(path);
      return true;
    } catch {
      return false;
    }
  }
}

/** When the stored access token expires (ms since the epoch), if the server said. */
export function expiresAt(record: OAuthRecord): number | undefined {
  const seconds = record.tokens?.expires_in;
  if (seconds === undefined || record.obtainedAt === undefined) return undefined;
  return record.obtainedAt + seconds * 1000;
}
