/**
 * The catalog cache: each server's last tool list in embedded SQLite, so every cached tool is in
 * the pool — searchable, selectable — the moment the daemon starts, before any server connects,
 * and lazy servers need not start to be known. It also remembers the first version of every tool
 * ever seen, so a tool whose description or schema later changes is flagged (a server update can
 * quietly change what a tool does). Every write is one transaction. A cache that cannot be read is
 * moved aside and rebuilt: losing it costs a slower start, never the daemon.
 */
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, renameSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../runtime/logger.ts";
import type { CacheScope } from "./cache-scope.ts";
import { ABSENT_TOOL_TTL_MS, MAX_ABSENT_TOOLS_PER_SERVER } from "./limits.ts";

/** 2: each server's listing records its `cacheScope` and, for a private one, its authorization context. */
const SCHEMA_VERSION = 2;

export interface CachedCatalog {
  tools: McpTool[];
  /** Raw names of tools whose description or input schema differs from the first version seen. */
  changed: Set<string>;
  listedAt: number;
}

/** How a listing may be served from the cache (cache-scope.ts). */
export interface ListingScope {
  scope?: CacheScope | undefined;
  /** The authorization context it was fetched under (authorizationContext()); kept for a private listing. */
  context: string;
}

/** `$XDG_STATE_HOME/toolpool/catalog.sqlite`, `~/.local/state` when XDG_STATE_HOME is unset. */
export function defaultCachePath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_STATE_HOME || join(env.HOME || homedir(), ".local", "state");
  return join(base, "toolpool", "catalog.sqlite");
}

export class CatalogCache {
  #db: Database;

  private constructor(
    db: Database,
    private readonly path: string | null,
    private readonly logger: Logger,
  ) {
    this.#db = db;
  }

  /** Opens (or creates) the cache; `null` keeps it in memory only. Never throws. */
  static open(path: string | null, logger: Logger, now: () => number = Date.now): CatalogCache {
    if (path === null) return new CatalogCache(prepare(new Database(":memory:")), null, logger);
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      return new CatalogCache(openAt(path), path, logger);
    } catch (error) {
      const aside = `${path}.corrupt-${now()}`;
      logger.warn("catalog cache unreadable; moving it aside and starting a new one", { path, movedTo: aside, error: (error as Error).message });
      try {
        for (const suffix of ["", "-wal", "-shm"]) if (existsSync(path + suffix)) renameSync(path + suffix, aside + suffix);
        return new CatalogCache(openAt(path), path, logger);
      } catch (second) {
        logger.error("catalog cache cannot be created; keeping it in memory for this run", { path, error: (second as Error).message });
        return new CatalogCache(prepare(new Database(":memory:")), null, logger);
      }
    }
  }

  /** The server's cached listing; a private one only under the authorization context it was fetched under. */
  load(server: string, context?: string): CachedCatalog | undefined {
    try {
      const row = this.#db.query<{ listed_at: number; scope: string | null; context: string | null }, [string]>("SELECT listed_at, scope, context FROM servers WHERE server = ?").get(server);
      if (!row) return undefined;
      if (row.scope === "private" && row.context !== context) {
        this.logger.info("cached MCP tool list not served: the server marked it private and its credentials changed since", { server });
        return undefined;
      }
      const rows = this.#db
        .query<{ tool: string; definition: string; first_hash: string; current_hash: string }, [string]>(
          "SELECT tool, definition, first_hash, current_hash FROM tools WHERE server = ? AND present = 1 ORDER BY position",
        )
        .all(server);
      const changed = new Set(rows.filter((entry) => entry.first_hash !== entry.current_hash).map((entry) => entry.tool));
      return { tools: rows.map((entry) => JSON.parse(entry.definition) as McpTool), changed, listedAt: row.listed_at };
    } catch (error) {
      this.logger.warn("catalog cache read failed; treating the server as uncached", { server, error: (error as Error).message });
      return undefined;
    }
  }

  /** Rows kept for `server` (present and absent): what the cache costs for it. */
  rowCount(server: string): number {
    return this.#db.query<{ count: number }, [string]>("SELECT COUNT(*) AS count FROM tools WHERE server = ?").get(server)?.count ?? 0;
  }

  /**
   * Replaces the server's list in one transaction; returns the raw names flagged `changed`. Tools
   * that left are kept (absent) for comparison, at most MAX_ABSENT_TOOLS_PER_SERVER of them.
   */
  save(server: string, tools: readonly McpTool[], now: number, scope?: ListingScope): Set<string> {
    const hashes = tools.map((tool) => definitionHash(tool));
    try {
      const firstHashes = new Map(
        this.#db
          .query<{ tool: string; first_hash: string }, [string]>("SELECT tool, first_hash FROM tools WHERE server = ?")
          .all(server)
          .map((entry) => [entry.tool, entry.first_hash]),
      );
      const upsert = this.#db.query(
        `INSERT INTO tools (server, tool, position, definition, first_hash, current_hash, present, first_seen, last_seen)
         VALUES (?1, ?2, ?3, ?4, ?5, ?5, 1, ?6, ?6)
         ON CONFLICT (server, tool) DO UPDATE SET position = ?3, definition = ?4, current_hash = ?5, present = 1, last_seen = ?6`,
      );
      const prune = this.#db.query(
        `DELETE FROM tools WHERE server = ?1 AND present = 0 AND (last_seen < ?2 OR tool NOT IN
           (SELECT tool FROM tools WHERE server = ?1 AND present = 0 ORDER BY last_seen DESC, tool LIMIT ?3))`,
      );
      this.#db.transaction(() => {
        // Tools that left keep their first-seen hash (present = 0), so a tool that comes back is compared with its first version.
        this.#db.query("UPDATE tools SET present = 0 WHERE server = ?").run(server);
        tools.forEach((tool, position) => upsert.run(server, tool.name, position, JSON.stringify(tool), hashes[position]!, now));
        const context = scope?.scope === "private" ? scope.context : null;
        this.#db
          .query("INSERT INTO servers (server, listed_at, scope, context) VALUES (?, ?, ?, ?) ON CONFLICT (server) DO UPDATE SET listed_at = excluded.listed_at, scope = excluded.scope, context = excluded.context")
          .run(server, now, scope?.scope ?? null, context);
        // Bounded: a server that renames its tools on every listing must not grow the file forever.
        prune.run(server, now - ABSENT_TOOL_TTL_MS, MAX_ABSENT_TOOLS_PER_SERVER);
      })();
      return new Set(tools.filter((tool, index) => (firstHashes.get(tool.name) ?? hashes[index]) !== hashes[index]).map((tool) => tool.name));
    } catch (error) {
      this.logger.warn("catalog cache write failed; the live list is still used", { server, error: (error as Error).message });
      return new Set();
    }
  }

  /** A new login (maybe another account): the server's private listing is not served again. */
  forgetPrivate(server: string): void {
    try {
      this.#db.query("DELETE FROM servers WHERE server = ? AND scope = 'private'").run(server);
    } catch (error) {
      this.logger.warn("catalog cache write failed", { server, error: (error as Error).message });
    }
  }

  close(): void {
    try {
      this.#db.close();
    } catch {
      // Closing twice, or a database already gone: nothing to keep.
    }
  }

  get location(): string | null {
    return this.path;
  }
}

function openAt(path: string): Database {
  const db = new Database(path, { create: true });
  try {
    return prepare(db);
  } catch (error) {
    db.close();
    throw error;
  }
}

function prepare(db: Database): Database {
  db.exec("PRAGMA busy_timeout = 2000");
  // Reading the header fails here, at open, for a file that is not a database.
  const version = db.query<{ user_version: number }, []>("PRAGMA user_version").get()?.user_version ?? 0;
  const check = db.query<{ quick_check: string }, []>("PRAGMA quick_check").get();
  if (check && check.quick_check !== "ok") throw new Error(`integrity check failed: ${check.quick_check}`);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  if (version > SCHEMA_VERSION) throw new Error(`cache schema ${version} is newer than this daemon's (${SCHEMA_VERSION})`);
  db.transaction(() => {
    db.exec("CREATE TABLE IF NOT EXISTS servers (server TEXT PRIMARY KEY, listed_at INTEGER NOT NULL, scope TEXT, context TEXT)");
    // A version-1 file: its listings gave no scope (served as before).
    const columns = db.query<{ name: string }, []>("PRAGMA table_info(servers)").all().map((column) => column.name);
    if (!columns.includes("scope")) db.exec("ALTER TABLE servers ADD COLUMN scope TEXT");
    if (!columns.includes("context")) db.exec("ALTER TABLE servers ADD COLUMN context TEXT");
    db.exec(`CREATE TABLE IF NOT EXISTS tools (
      server TEXT NOT NULL, tool TEXT NOT NULL, position INTEGER NOT NULL, definition TEXT NOT NULL,
      first_hash TEXT NOT NULL, current_hash TEXT NOT NULL, present INTEGER NOT NULL,
      first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL, PRIMARY KEY (server, tool))`);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
  })();
  return db;
}

/** What "changed" compares: the description and input schema, with object keys in a fixed order. */
export function definitionHash(tool: McpTool): string {
  const hasher = new Bun.CryptoHasher("sha256");
  hasher.update(stableStringify({ description: tool.description ?? "", inputSchema: tool.inputSchema }));
  return hasher.digest("hex");
}

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${stableStringify(entry)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
