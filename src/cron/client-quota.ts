/**
 * Cron jobs per client as well as per session and daemon-wide. A session holds at most
 * MAX_JOBS_PER_SESSION, but one client opening twenty sessions took all MAX_JOBS_TOTAL daemon-wide
 * slots in 1.5 s, for everyone, and the jobs are durable (they outlive restarts). So the jobs of
 * every session a client created jobs from are counted together, up to MAX_JOBS_PER_CLIENT.
 *
 * A client is a connection to the daemon (the daemon names it when the session opens). A process
 * that opens several connections counts as several clients: each still needs its own connection
 * and stays under this share, and the daemon-wide limit holds for all of them together. Which
 * sessions belong to which client is kept in memory, bounded (oldest client forgotten first):
 * after a restart, jobs made before it count daemon-wide and per session, not per client.
 */
import type { CronStore } from "./cron-store.ts";

export const MAX_JOBS_PER_CLIENT = 200;
/** Clients remembered at once; the oldest is forgotten first. */
const MAX_TRACKED_CLIENTS = 4096;
/**
 * Sessions remembered per client. Past it, a session of the client's that holds no job is
 * forgotten (one always exists: MAX_JOBS_PER_CLIENT is below this, and every session here made a job).
 */
const MAX_SESSIONS_PER_CLIENT = 256;

export class ClientQuota {
  readonly #sessions = new Map<string, Set<string>>();

  constructor(private readonly store: Pick<CronStore, "countJobs">) {}

  /** Jobs the client's sessions hold now. */
  count(client: string): number {
    let total = 0;
    for (const sessionId of this.#sessions.get(client) ?? []) total += this.store.countJobs(sessionId);
    return total;
  }

  /** The session made a job for this client. */
  record(client: string, sessionId: string): void {
    let sessions = this.#sessions.get(client);
    if (sessions) {
      // Most recent last, so the oldest client is the first key.
      this.#sessions.delete(client);
    } else {
      sessions = new Set();
      if (this.#sessions.size >= MAX_TRACKED_CLIENTS) {
        const oldest = this.#sessions.keys().next().value;
        if (oldest !== undefined) this.#sessions.delete(oldest);
      }
    }
    sessions.add(sessionId);
    if (sessions.size > MAX_SESSIONS_PER_CLIENT) {
      for (const kept of sessions) {
        if (kept !== sessionId && this.store.countJobs(kept) === 0) {
          sessions.delete(kept);
          break;
        }
      }
    }
    this.#sessions.set(client, sessions);
  }
}
