/**
 * The durable side of cron (embedded SQLite, `cron.sqlite` in the state dir): jobs, the sessions
 * subscribed to each job (its creator included), and an outbox of firings per session that stays
 * until a delivery is acknowledged. Every change that must be all-or-nothing — recording a firing
 * for all subscribers while moving the job to its next run, claiming a batch for delivery — is one
 * transaction, so a crash at any point leaves either the old state or the new one.
 */
import { Database } from "bun:sqlite";
import { SCHEMA, SCHEMA_VERSION, toJob, toOutbox, type CronJobRecord, type JobRow, type OutboxRecord, type OutboxRow } from "./cron-schema.ts";
import { preparePrivateDatabase } from "../runtime/state-dir.ts";

/** One firing of one job: what `recordFiring` writes for every subscriber. */
export interface FiringRecord {
  job: CronJobRecord;
  scheduledFor: number;
  lastScheduledFor: number;
  occurrences: number;
  firedAt: number;
  /** The job's next run after this firing; null ends a one-off job. */
  nextRunAt: number | null;
  newFiringId: () => string;
}

export class CronStore {
  readonly #db: Database;

  /** Opens (creating when missing) the database at `path`; `":memory:"` for a throwaway one. */
  constructor(readonly path: string) {
    // Cron prompts are the user's words: private like the usage history.
    if (path !== ":memory:") preparePrivateDatabase(path);
    this.#db = new Database(path, { create: true, strict: true });
    try {
      this.#db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;");
      this.#db.exec(SCHEMA);
    } catch (error) {
      // Not left open behind a file the caller may move aside.
      this.#db.close();
      throw error;
    }
    const version = this.#db.query<{ value: string }, []>("SELECT value FROM meta WHERE key = 'schema'").get();
    if (version && version.value !== SCHEMA_VERSION) {
      this.#db.close();
      throw new Error(`${path} has cron schema version ${version.value}; this daemon reads version ${SCHEMA_VERSION}`);
    }
    this.#db.run("INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', ?)", [SCHEMA_VERSION]);
  }

  close(): void {
    this.#db.close();
  }

  /** Adds a job and subscribes its creator, in one transaction. */
  insertJob(job: CronJobRecord): void {
    this.#db.transaction(() => {
      this.#db.run(
        "INSERT INTO jobs (id, cron, prompt, recurring, created_by, created_at, next_run_at, last_fired_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [job.id, job.cron, job.prompt, job.recurring ? 1 : 0, job.createdBy, job.createdAt, job.nextRunAt, job.lastFiredAt],
      );
      this.#db.run("INSERT INTO subscriptions (job_id, session_id, created_at) VALUES (?, ?, ?)", [job.id, job.createdBy, job.createdAt]);
    })();
  }

  getJob(id: string): CronJobRecord | undefined {
    const row = this.#db.query<JobRow, [string]>("SELECT * FROM jobs WHERE id = ?").get(id);
    return row ? toJob(row) : undefined;
  }

  /** The jobs a session created or subscribed to, soonest first. */
  jobsForSession(sessionId: string): CronJobRecord[] {
    return this.#db
      .query<JobRow, [string]>(
        "SELECT jobs.* FROM jobs JOIN subscriptions ON subscriptions.job_id = jobs.id WHERE subscriptions.session_id = ? ORDER BY jobs.next_run_at, jobs.created_at",
      )
      .all(sessionId)
      .map(toJob);
  }

  countJobs(createdBy?: string): number {
    const row =
      createdBy === undefined
        ? this.#db.query<{ count: number }, []>("SELECT COUNT(*) AS count FROM jobs").get()
        : this.#db.query<{ count: number }, [string]>("SELECT COUNT(*) AS count FROM jobs WHERE created_by = ?").get(createdBy);
    return row?.count ?? 0;
  }

  deleteJob(id: string): boolean {
    return this.#db.run("DELETE FROM jobs WHERE id = ?", [id]).changes > 0;
  }

  /** Parks a job (null: it will not run) or moves it, outside the firing path. */
  setNextRun(id: string, nextRunAt: number | null): void {
    this.#db.run("UPDATE jobs SET next_run_at = ? WHERE id = ?", [nextRunAt, id]);
  }

  subscribe(jobId: string, sessionId: string, now: number): boolean {
    return this.#db.run("INSERT OR IGNORE INTO subscriptions (job_id, session_id, created_at) VALUES (?, ?, ?)", [jobId, sessionId, now]).changes > 0;
  }

  unsubscribe(jobId: string, sessionId: string): boolean {
    return this.#db.run("DELETE FROM subscriptions WHERE job_id = ? AND session_id = ?", [jobId, sessionId]).changes > 0;
  }

  subscribers(jobId: string): string[] {
    return this.#db
      .query<{ session_id: string }, [string]>("SELECT session_id FROM subscriptions WHERE job_id = ? ORDER BY created_at, session_id")
      .all(jobId)
      .map((row) => row.session_id);
  }

  dueJobs(now: number): CronJobRecord[] {
    return this.#db
      .query<JobRow, [number]>("SELECT * FROM jobs WHERE next_run_at IS NOT NULL AND next_run_at <= ? ORDER BY next_run_at, id")
      .all(now)
      .map(toJob);
  }

  /** The next moment something is due: a job's run or a delivery lease running out. */
  earliestWake(): number | undefined {
    const row = this.#db
      .query<{ wake: number | null }, []>(
        "SELECT MIN(wake) AS wake FROM (SELECT MIN(next_run_at) AS wake FROM jobs UNION ALL SELECT MIN(lease_until) FROM outbox)",
      )
      .get();
    return row?.wake ?? undefined;
  }

  /**
   * Queues one firing for every subscriber and moves the job on (or ends a one-off job), atomically.
   * The update is conditional on the job still being due at the time read, so the same scheduled
   * run can never be recorded twice. A firing not yet attempted for a session absorbs the next one
   * of the same job (occurrences go up), which bounds the outbox of a session that never returns.
   * Returns the sessions that got a firing.
   */
  recordFiring(firing: FiringRecord): string[] {
    const { job } = firing;
    return this.#db.transaction((): string[] => {
      const moved = this.#db.run("UPDATE jobs SET next_run_at = ?, last_fired_at = ? WHERE id = ? AND next_run_at = ?", [
        firing.nextRunAt,
        firing.firedAt,
        job.id,
        job.nextRunAt,
      ]);
      if (moved.changes === 0) return [];
      const sessions = this.subscribers(job.id);
      for (const sessionId of sessions) {
        const merged = this.#db.run(
          "UPDATE outbox SET occurrences = occurrences + ?, last_scheduled_for = ?, fired_at = ? WHERE session_id = ? AND job_id = ? AND attempts = 0 AND lease_until IS NULL",
          [firing.occurrences, firing.lastScheduledFor, firing.firedAt, sessionId, job.id],
        );
        if (merged.changes > 0) continue;
        this.#db.run(
          "INSERT INTO outbox (firing_id, session_id, job_id, cron, prompt, recurring, scheduled_for, last_scheduled_for, occurrences, fired_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
          [firing.newFiringId(), sessionId, job.id, job.cron, job.prompt, job.recurring ? 1 : 0, firing.scheduledFor, firing.lastScheduledFor, firing.occurrences, firing.firedAt],
        );
      }
      if (firing.nextRunAt === null) this.#db.run("DELETE FROM jobs WHERE id = ?", [job.id]);
      return sessions;
    })();
  }

  /**
   * Takes up to `limit` of a session's queued firings for delivery, oldest first: each is leased
   * until `leaseUntil` (not handed out again meanwhile) and its attempt count goes up before it is
   * sent, so a redelivery after a crash is recognisable as one.
   */
  claim(sessionId: string, now: number, leaseUntil: number, limit: number): OutboxRecord[] {
    return this.#db.transaction((): OutboxRecord[] => {
      const rows = this.#db
        .query<OutboxRow, [string, number, number]>(
          "SELECT * FROM outbox WHERE session_id = ? AND (lease_until IS NULL OR lease_until <= ?) ORDER BY seq LIMIT ?",
        )
        .all(sessionId, now, limit);
      const lease = this.#db.prepare("UPDATE outbox SET lease_until = ?, attempts = attempts + 1 WHERE seq = ?");
      for (const row of rows) lease.run(leaseUntil, row.seq);
      return rows.map((row) => toOutbox({ ...row, attempts: row.attempts + 1 }));
    })();
  }

  /** Removes delivered firings; returns how many were still there. */
  ack(sessionId: string, firingIds: readonly string[]): number {
    const remove = this.#db.prepare("DELETE FROM outbox WHERE session_id = ? AND firing_id = ?");
    return this.#db.transaction(() => firingIds.reduce((count, id) => count + remove.run(sessionId, id).changes, 0))();
  }

  /** Gives claimed firings back to the queue (the send failed); their attempt count stays. */
  release(sessionId: string, firingIds: readonly string[]): void {
    const free = this.#db.prepare("UPDATE outbox SET lease_until = NULL WHERE session_id = ? AND firing_id = ?");
    this.#db.transaction(() => {
      for (const id of firingIds) free.run(sessionId, id);
    })();
  }

  /** Ends every lease that ran out by `now` (all of them with `Infinity`); returns the sessions affected. */
  releaseExpired(now: number): string[] {
    return this.#db.transaction((): string[] => {
      const sessions = this.#db
        .query<{ session_id: string }, [number]>("SELECT DISTINCT session_id FROM outbox WHERE lease_until IS NOT NULL AND lease_until <= ?")
        .all(now)
        .map((row) => row.session_id);
      this.#db.run("UPDATE outbox SET lease_until = NULL WHERE lease_until IS NOT NULL AND lease_until <= ?", [now]);
      return sessions;
    })();
  }

  /** Firings queued for a session and not acknowledged (leased ones included). */
  pendingCount(sessionId: string): number {
    return this.#db.query<{ count: number }, [string]>("SELECT COUNT(*) AS count FROM outbox WHERE session_id = ?").get(sessionId)?.count ?? 0;
  }
}
