/**
 * The usage database itself: batched writes in one transaction, pruning to the row caps, clearing,
 * and the aggregate reads the prior starts from. Loaded with `require` on first use (see
 * usage-service.ts), so a daemon that has recorded nothing yet never opens SQLite.
 */
import { Database } from "bun:sqlite";
import { rmSync } from "node:fs";
import { MAX_PRIOR_FOLLOWS, MAX_PRIOR_TERMS, MAX_PRIOR_TOOLS, ROW_CAPS, USAGE_SCHEMA, USAGE_SCHEMA_VERSION, WORKSPACE_TABLES, type StoredEvent, type UsageTable } from "./usage-schema.ts";
import { preparePrivateDatabase } from "../runtime/state-dir.ts";

/** What the prior of one workspace starts from: its most used tools and what follows what. */
export interface WorkspaceAggregates {
  uses: { tool: string; calls: number }[];
  follows: { from: string; to: string; count: number }[];
  terms: { term: string; tool: string; count: number }[];
}


export class UsageStore {
  readonly db: Database;

  /** Opens (creating when missing) the database at `path`, private to the user; `":memory:"` for tests. */
  constructor(
    readonly path: string,
    private readonly caps: Readonly<Record<UsageTable, number>> = ROW_CAPS,
  ) {
    const onDisk = path !== ":memory:";
    // The history says what the user works on: 0600 before SQLite opens it, whatever made the file.
    if (onDisk) preparePrivateDatabase(path);
    this.db = new Database(path, { create: true, strict: true });
    try {
      // synchronous OFF: no fsync on the daemon's thread (a checkpoint with one stalled calls for
      // ~20 ms); a process crash loses nothing, a power cut may lose the last writes of a history
      // that is only statistics. secure_delete: a cleared or pruned row is overwritten, not left
      // readable in a free page.
      this.db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF; PRAGMA busy_timeout = 2000; PRAGMA secure_delete = ON; PRAGMA cache_size = -1024;");
      this.db.exec(USAGE_SCHEMA);
      const version = this.db.query<{ value: string }, []>("SELECT value FROM meta WHERE key = 'schema'").get();
      if (version && version.value !== USAGE_SCHEMA_VERSION) {
        throw new Error(`${path} has usage schema version ${version.value}; this daemon reads version ${USAGE_SCHEMA_VERSION}`);
      }
      this.db.query("INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', ?)").run(USAGE_SCHEMA_VERSION);
    } catch (error) {
      this.db.close();
      throw error;
    }
  }

  close(): void {
    this.db.close();
  }

  /** Writes a batch in one transaction, then prunes every table it touched back to its cap. */
  write(events: readonly StoredEvent[]): void {
    const touched = new Set<UsageTable>();
    const sums = new AggregateSums();
    this.db.transaction(() => {
      for (const event of events) this.#write(event, touched, sums);
      // One upsert per distinct key of the batch, not one per call.
      for (const { table, key, count, at } of sums.entries()) {
        touched.add(table);
        this.db.query(UPSERT[table]).run(...key, count, at);
      }
    })();
    for (const table of touched) this.#prune(table);
  }

  #write(event: StoredEvent, touched: Set<UsageTable>, sums: AggregateSums): void {
    switch (event.type) {
      case "search":
        touched.add("searches");
        this.db
          .query("INSERT OR IGNORE INTO searches (key, at, workspace, session, kind, query, results, zero, select_misses, did_you_mean) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
          .run(event.key, event.at, event.workspace, event.session, event.kind, event.query, JSON.stringify(event.results), event.results.length === 0 ? 1 : 0, event.selectMisses, event.didYouMean ? 1 : 0);
        return;
      case "conversion":
        this.db.query("UPDATE searches SET converted = 1, called_tool = ? WHERE key = ?").run(event.tool, event.key);
        return;
      case "call":
        touched.add("calls");
        this.db
          .query("INSERT INTO calls (at, workspace, session, tool, server, duration_ms, error, timeout, truncated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
          .run(event.at, event.workspace, event.session, event.tool, event.server, event.durationMs, event.isError ? 1 : 0, event.timedOut ? 1 : 0, event.truncated ? 1 : 0);
        return;
      case "use":
        sums.add("tool_use", [event.workspace, event.tool], event.at);
        if (event.previous !== null) sums.add("follows", [event.workspace, event.previous, event.tool], event.at);
        for (const other of event.together) sums.add("together", [event.workspace, ...(other < event.tool ? [other, event.tool] : [event.tool, other])], event.at);
        return;
      case "searchCall":
        for (const term of event.terms) sums.add("search_terms", [event.workspace, term, event.tool], event.at);
        return;
      case "prefetch":
        touched.add("prefetches");
        this.db
          .query("INSERT OR IGNORE INTO prefetches (key, at, workspace, session, tool) VALUES (?, ?, ?, ?, ?)")
          .run(event.key, event.at, event.workspace, event.session, event.tool);
        return;
      case "prefetchHit":
        this.db.query("UPDATE prefetches SET called = 1 WHERE key = ?").run(event.key);
        return;
      case "server":
        touched.add("server_events");
        this.db
          .query("INSERT INTO server_events (at, server, kind, latency_ms, parked_ms) VALUES (?, ?, ?, ?, ?)")
          .run(event.at, event.server, event.kind, event.latencyMs, event.parkedMs);
        return;
      case "firstRequest":
        touched.add("first_requests");
        this.db
          .query("INSERT INTO first_requests (at, workspace, session, delivery, announcements, sent_tokens, standard_tokens, counter) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
          .run(event.at, event.workspace, event.session, event.delivery, event.announcements, event.sentTokens, event.standardTokens, event.counter);
        return;
    }
  }

  /** Event tables keep their newest rows (by rowid); aggregates their most recently used. */
  #prune(table: UsageTable): void {
    const cap = this.caps[table];
    if (table === "tool_use" || table === "follows" || table === "together" || table === "search_terms") {
      const count = this.db.query<{ count: number }, []>(`SELECT COUNT(*) AS count FROM ${table}`).get()?.count ?? 0;
      if (count <= cap) return;
      this.db.query(`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} ORDER BY last_at LIMIT ?)`).run(count - cap);
      return;
    }
    this.db.query(`DELETE FROM ${table} WHERE id <= (SELECT MAX(id) FROM ${table}) - ?`).run(cap);
  }

  /**
   * Empties the history of one workspace, or all of it (server events included); returns rows
   * removed. For all of it, `removeUsageFiles` after closing is faster (no rows to overwrite).
   */
  clear(workspace: string | null): number {
    let removed = 0;
    this.db.transaction(() => {
      for (const table of WORKSPACE_TABLES) {
        removed += workspace === null ? this.db.run(`DELETE FROM ${table}`).changes : this.db.query(`DELETE FROM ${table} WHERE workspace = ?`).run(workspace).changes;
      }
      if (workspace === null) removed += this.db.run("DELETE FROM server_events").changes;
    })();
    // The overwritten pages reach the file now, and the log that held the old ones is emptied.
    this.db.exec("PRAGMA wal_checkpoint(TRUNCATE);");
    return removed;
  }

  /** Rows kept, all tables together. */
  countRows(): number {
    let total = 0;
    for (const table of [...WORKSPACE_TABLES, "server_events"]) total += this.db.query<{ count: number }, []>(`SELECT COUNT(*) AS count FROM ${table}`).get()?.count ?? 0;
    return total;
  }

  aggregates(workspace: string): WorkspaceAggregates {
    const uses = this.db
      .query<{ tool: string; calls: number }, [string, number]>("SELECT tool, calls FROM tool_use WHERE workspace = ? ORDER BY last_at DESC LIMIT ?")
      .all(workspace, MAX_PRIOR_TOOLS);
    const follows = this.db
      .query<{ from: string; to: string; count: number }, [string, number]>(
        "SELECT from_tool AS \"from\", to_tool AS \"to\", count FROM follows WHERE workspace = ? ORDER BY last_at DESC LIMIT ?",
      )
      .all(workspace, MAX_PRIOR_FOLLOWS);
    const terms = this.db
      .query<{ term: string; tool: string; count: number }, [string, number]>(
        "SELECT term, tool, count FROM search_terms WHERE workspace = ? ORDER BY last_at DESC LIMIT ?",
      )
      .all(workspace, MAX_PRIOR_TERMS);
    return { uses, follows, terms };
  }
}

type AggregateTable = "tool_use" | "follows" | "together" | "search_terms";

const UPSERT: Record<AggregateTable, string> = {
  tool_use: "INSERT INTO tool_use (workspace, tool, calls, last_at) VALUES (?, ?, ?, ?) ON CONFLICT (workspace, tool) DO UPDATE SET calls = calls + excluded.calls, last_at = excluded.last_at",
  follows: "INSERT INTO follows (workspace, from_tool, to_tool, count, last_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (workspace, from_tool, to_tool) DO UPDATE SET count = count + excluded.count, last_at = excluded.last_at",
  together: "INSERT INTO together (workspace, a, b, count, last_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (workspace, a, b) DO UPDATE SET count = count + excluded.count, last_at = excluded.last_at",
  search_terms: "INSERT INTO search_terms (workspace, term, tool, count, last_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (workspace, term, tool) DO UPDATE SET count = count + excluded.count, last_at = excluded.last_at",
};

/** A batch's increments of the aggregate tables, summed per key. */
class AggregateSums {
  readonly #sums = new Map<string, { table: AggregateTable; key: string[]; count: number; at: number }>();

  add(table: AggregateTable, key: string[], at: number): void {
    const id = `${table}\u0000${key.join("\u0000")}`;
    const known = this.#sums.get(id);
    if (known) {
      known.count++;
      known.at = Math.max(known.at, at);
    } else this.#sums.set(id, { table, key, count: 1, at });
  }

  entries(): IterableIterator<{ table: AggregateTable; key: string[]; count: number; at: number }> {
    return this.#sums.values();
  }
}

/** Deletes a closed history file and its WAL files: forgetting everything without rewriting it. */
export function removeUsageFiles(path: string): void {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
}
