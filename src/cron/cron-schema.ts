/**
 * The cron database's shape: tables, the schema version a daemon refuses to read past, and the
 * mapping between rows and the records the rest of cron works with.
 */

export const CRON_DATABASE_FILE = "cron.sqlite";
export const SCHEMA_VERSION = "1";

export interface CronJobRecord {
  id: string;
  cron: string;
  prompt: string;
  recurring: boolean;
  createdBy: string;
  createdAt: number;
  /** When it runs next; null once a one-off job has fired. */
  nextRunAt: number | null;
  lastFiredAt: number | null;
}

export interface OutboxRecord {
  seq: number;
  firingId: string;
  sessionId: string;
  jobId: string;
  cron: string;
  prompt: string;
  recurring: boolean;
  /** The first scheduled time this firing stands for. */
  scheduledFor: number;
  /** The last one: later than `scheduledFor` when runs were missed or coalesced. */
  lastScheduledFor: number;
  occurrences: number;
  firedAt: number;
  /** Delivery attempts so far, this claim included. */
  attempts: number;
}

export interface JobRow {
  id: string;
  cron: string;
  prompt: string;
  recurring: number;
  created_by: string;
  created_at: number;
  next_run_at: number | null;
  last_fired_at: number | null;
}

export interface OutboxRow {
  seq: number;
  firing_id: string;
  session_id: string;
  job_id: string;
  cron: string;
  prompt: string;
  recurring: number;
  scheduled_for: number;
  last_scheduled_for: number;
  occurrences: number;
  fired_at: number;
  attempts: number;
}

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS jobs (
  id TEXT PRIMARY KEY,
  cron TEXT NOT NULL,
  prompt TEXT NOT NULL,
  recurring INTEGER NOT NULL,
  created_by TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  next_run_at INTEGER,
  last_fired_at INTEGER
);
CREATE INDEX IF NOT EXISTS jobs_by_next_run ON jobs(next_run_at);
CREATE TABLE IF NOT EXISTS subscriptions (
  job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  session_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (job_id, session_id)
);
CREATE INDEX IF NOT EXISTS subscriptions_by_session ON subscriptions(session_id);
-- No foreign key to jobs: a firing already queued outlives the deletion of its job.
CREATE TABLE IF NOT EXISTS outbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  firing_id TEXT NOT NULL UNIQUE,
  session_id TEXT NOT NULL,
  job_id TEXT NOT NULL,
  cron TEXT NOT NULL,
  prompt TEXT NOT NULL,
  recurring INTEGER NOT NULL,
  scheduled_for INTEGER NOT NULL,
  last_scheduled_for INTEGER NOT NULL,
  occurrences INTEGER NOT NULL,
  fired_at INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  lease_until INTEGER
);
CREATE INDEX IF NOT EXISTS outbox_by_session ON outbox(session_id, seq);
`;

export function toJob(row: JobRow): CronJobRecord {
  return {
    id: row.id,
    cron: row.cron,
    prompt: row.prompt,
    recurring: row.recurring === 1,
    createdBy: row.created_by,
    createdAt: row.created_at,
    nextRunAt: row.next_run_at,
    lastFiredAt: row.last_fired_at,
  };
}

export function toOutbox(row: OutboxRow): OutboxRecord {
  return {
    seq: row.seq,
    firingId: row.firing_id,
    sessionId: row.session_id,
    jobId: row.job_id,
    cron: row.cron,
    prompt: row.prompt,
    recurring: row.recurring === 1,
    scheduledFor: row.scheduled_for,
    lastScheduledFor: row.last_scheduled_for,
    occurrences: row.occurrences,
    firedAt: row.fired_at,
    attempts: row.attempts,
  };
}
