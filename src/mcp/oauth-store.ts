/**
 * Where OAuth state lives, under the state dir (`$XDG_STATE_HOME/toolpool/oauth/`), each file mode
 * 0600 in a 0700 directory, written by rename so a reader never sees half a file. Three kinds:
 *
 * - `server.<name>.<hash of its URL>.json`: what discovery found for one configured server (its
 *   authorization server's issuer and metadata, the resource its tokens are for);
 * - `client.<hash of the issuer>.json`: a client we registered dynamically with one authorization
 *   server, shared by every server behind it;
 * - `tokens.<hash of issuer and resource>.json`: the tokens one authorization server issued for one
 *   resource, with the client they were issued to.
 *
 * Tokens are found through the server's *current* issuer: a server whose metadata moves to another
 * authorization server finds none there, and never sends the old one's refresh token anywhere.
 */
import { createHash } from "node:crypto";
import { chmodSync, closeSync, fstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { migrateLegacyRecord } from "./oauth-legacy.ts";
import type { ClientRecord, ServerRecord, TokenRecord } from "./oauth-records.ts";

export { expiresAt, type ClientKind, type ClientRecord, type OAuthDiscovery, type ServerRecord, type TokenRecord } from "./oauth-records.ts";

/** A record is small; anything bigger is not ours and is not parsed. */
const MAX_RECORD_BYTES = 256 * 1024;

type AnyRecord = ServerRecord | ClientRecord | TokenRecord;

export function defaultOAuthDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_STATE_HOME || join(env.HOME || homedir(), ".local", "state");
  return join(base, "toolpool", "oauth");
}

const digest = (...parts: string[]) => createHash("sha256").update(parts.join("\n")).digest("hex").slice(0, 16);

export class OAuthStore {
  /** What this process last read or wrote, by path (only the daemon writes these files). */
  readonly #cache = new Map<string, AnyRecord | null>();

  constructor(readonly dir: string) {}

  serverPath(server: string, url: string): string {
    return join(this.dir, `server.${server}.${digest(url)}.json`);
  }

  clientPath(issuer: string): string {
    return join(this.dir, `client.${digest(issuer)}.json`);
  }

  tokensPath(issuer: string, resource: string): string {
    return join(this.dir, `tokens.${digest(issuer, resource)}.json`);
  }

  /** The server's record (an empty one when there is none); a token file of the old layout is moved over once. */
  server(server: string, url: string): ServerRecord {
    const path = this.serverPath(server, url);
    const found = this.#read(path, (record): record is ServerRecord => record.kind === "server" && record.serverUrl === url);
    if (found) return found;
    const migrated = migrateLegacyRecord(join(this.dir, `${server}.${digest(url)}.json`), url, (path) => this.#readFile(path));
    if (!migrated) return { kind: "server", serverUrl: url };
    this.saveServer(server, migrated.server);
    if (migrated.client) this.saveClient(migrated.client);
    if (migrated.tokens) this.saveTokens(migrated.tokens);
    rmSync(migrated.path, { force: true });
    return migrated.server;
  }

  saveServer(server: string, record: ServerRecord): void {
    this.#write(this.serverPath(server, record.serverUrl), record);
  }

  client(issuer: string): ClientRecord | undefined {
    return this.#read(this.clientPath(issuer), (record): record is ClientRecord => record.kind === "client" && record.issuer === issuer);
  }

  saveClient(record: ClientRecord): void {
    this.#write(this.clientPath(record.issuer), record);
  }

  tokens(issuer: string, resource: string): TokenRecord | undefined {
    // Never hand out tokens stored for another issuer or resource (a hash collision, a hand-edited file).
    return this.#read(this.tokensPath(issuer, resource), (record): record is TokenRecord => record.kind === "tokens" && record.issuer === issuer && record.resource === resource);
  }

  /** The tokens of a server's current issuer and resource, if a login found them. */
  tokensOf(server: string, url: string): TokenRecord | undefined {
    const discovery = this.server(server, url).discovery;
    return discovery && this.tokens(discovery.issuer, discovery.resource);
  }

  saveTokens(record: TokenRecord): void {
    this.#write(this.tokensPath(record.issuer, record.resource), record);
  }

  removeTokens(issuer: string, resource: string): boolean {
    return this.#remove(this.tokensPath(issuer, resource));
  }

  #read<T extends AnyRecord>(path: string, accept: (record: AnyRecord) => record is T): T | undefined {
    let record = this.#cache.get(path);
    if (record === undefined) {
      record = this.#readFile(path);
      this.#cache.set(path, record);
    }
    return record && accept(record) ? record : undefined;
  }

  #readFile(path: string): AnyRecord | null {
    let fd: number;
    try {
      fd = openSync(path, "r");
    } catch {
      return null;
    }
    try {
      const size = fstatSync(fd).size;
      if (size > MAX_RECORD_BYTES) return null;
      const buffer = Buffer.alloc(size);
      readSync(fd, buffer, 0, size, 0);
      const parsed = JSON.parse(buffer.toString("utf8")) as AnyRecord;
      return typeof parsed === "object" && parsed !== null ? parsed : null;
    } catch {
      return null;
    } finally {
      closeSync(fd);
    }
  }

  #write(path: string, record: AnyRecord): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
    const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
    // Created 0600 (flag wx: never through a file or link someone else put there), then renamed.
    writeFileSync(temporary, `${JSON.stringify(record)}\n`, { mode: 0o600, flag: "wx" });
    renameSync(temporary, path);
    this.#cache.set(path, record);
  }

  #remove(path: string): boolean {
    this.#cache.set(path, null);
    try {
      rmSync(path);
      return true;
    } catch {
      return false;
    }
  }
}
