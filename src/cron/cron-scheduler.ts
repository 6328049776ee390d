/**
 * The cron scheduler: computes each job's next run (croner), keeps one timer for the earliest thing
 * due, and when a job comes due records one firing per subscribed session in the durable outbox
 * (`CronStore`), then tells its listeners which sessions have something new. Delivery is
 * claim → send → ack (`CronDelivery` does it for the daemon); see `claim` for the guarantees.
 *
 * Missed runs (daemon down, machine asleep, timer late): a job whose time passed fires ONCE when
 * the scheduler next looks — on `start()`, or at the next tick — with `scheduledFor` set to the
 * first run it missed, `lastScheduledFor` to the last, and `occurrences` counting them (capped at
 * MAX_COUNTED_OCCURRENCES). A recurring job then resumes at its next run after now; a one-off job
 * is done. Nothing is replayed run by run: a minutely job after a night off is one firing, not 600.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { countSlots, CronExpressionError, isKnownTimezone, parseCronExpression, type CronSchedule } from "./cron-expression.ts";
import type { CronJobRecord, OutboxRecord } from "./cron-schema.ts";
import type { CronStore } from "./cron-store.ts";
import { ClientQuota, MAX_JOBS_PER_CLIENT } from "./client-quota.ts";
import { systemTimezone } from "./system-timezone.ts";
import { systemTimerClock, type TimerClock } from "../runtime/clock.ts";

export const MAX_JOBS_PER_SESSION = 50;
export const MAX_JOBS_TOTAL = 1_000;
export const MAX_PROMPT_CHARS = 10_000;
export const MAX_COUNTED_OCCURRENCES = 1_000;
/** How long a claimed firing is held for one delivery before it may be handed out again. */
export const DEFAULT_LEASE_MS = 30_000;
/** The longest single sleep: a suspended machine or a changed wall clock is noticed within this. */
const MAX_TIMER_MS = 60_000;
/** After a faulted tick (disk full, database locked) the next one waits this long, doubling up to MAX_TIMER_MS. */
const FAULT_RETRY_MS = 1_000;

export class CronError extends Error {
  override readonly name = "CronError";
}

export interface CronSchedulerOptions {
  store: CronStore;
  clock?: TimerClock;
  /** IANA time zone the expressions are read in; the system's by default. */
  timezone?: string;
  leaseMs?: number;
  /** Called with a fault the timer loop caught (logged by the daemon; the loop keeps going). */
  onError?: (error: unknown) => void;
}

export interface NewJob {
  sessionId: string;
  /** The client (connection) the session's call came from; counted against MAX_JOBS_PER_CLIENT. */
  client?: string;
  cron: string;
  prompt: string;
  recurring: boolean;
}

export type PendingListener = (sessionId: string) => void;

export class CronScheduler {
  /** The IANA zone schedules are read in: the option, else the system's (see `systemTimezone`). */
  readonly timezone: string;
  readonly #store: CronStore;
  readonly #clock: TimerClock;
  readonly #leaseMs: number;
  readonly #onError: (error: unknown) => void;
  readonly #schedules = new Map<string, CronSchedule>();
  readonly #listeners = new Set<PendingListener>();
  readonly #clients: ClientQuota;
  #timer: unknown;
  #running = false;
  /** Ticks in a row that faulted: a due job whose firing cannot be recorded must not spin the loop. */
  #faults = 0;

  constructor(options: CronSchedulerOptions) {
    if (options.timezone !== undefined && !isKnownTimezone(options.timezone)) {
      throw new CronError(`Unknown time zone ${JSON.stringify(options.timezone)}: give an IANA name such as Europe/Berlin.`);
    }
    this.timezone = options.timezone ?? systemTimezone();
    this.#store = options.store;
    this.#clients = new ClientQuota(options.store);
    this.#clock = options.clock ?? systemTimerClock;
    this.#leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.#onError = options.onError ?? (() => {});
  }

  /**
   * Starts the timer loop. Leases left by a previous process are ended first (it is gone; its
   * unacknowledged firings are due again), then missed runs fire once (see the file comment).
   */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    for (const sessionId of this.#store.releaseExpired(Number.POSITIVE_INFINITY)) this.#emit(sessionId);
    this.#tick();
  }

  stop(): void {
    this.#running = false;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Hears of every session that has new firings to deliver. Returns the unsubscribe function. */
  onPending(listener: PendingListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Validates and stores a job, its creator subscribed. Throws CronError / CronExpressionError with a message for the model. */
  create(job: NewJob): CronJobRecord {
    const schedule = this.#schedule(job.cron);
    if (job.prompt.trim() === "") throw new CronError("prompt is empty: say what should happen when the job fires.");
    if (job.prompt.length > MAX_PROMPT_CHARS) throw new CronError(`prompt is ${job.prompt.length} characters; the limit is ${MAX_PROMPT_CHARS}.`);
    if (this.#store.countJobs(job.sessionId) >= MAX_JOBS_PER_SESSION) {
      throw new CronError(`This session already has ${MAX_JOBS_PER_SESSION} cron jobs, the limit. Delete one with CronDelete first.`);
    }
    if (job.client !== undefined && this.#clients.count(job.client) >= MAX_JOBS_PER_CLIENT) {
      throw new CronError(`This client's sessions already hold ${MAX_JOBS_PER_CLIENT} cron jobs, the per-client limit (other clients share the daemon's ${MAX_JOBS_TOTAL}). Delete one with CronDelete first.`);
    }
    if (this.#store.countJobs() >= MAX_JOBS_TOTAL) throw new CronError(`The daemon holds ${MAX_JOBS_TOTAL} cron jobs, its limit. Delete some first.`);
    const now = this.#clock.now();
    const record: CronJobRecord = {
      id: this.#newJobId(),
      cron: schedule.expression,
      prompt: job.prompt,
      recurring: job.recurring,
      createdBy: job.sessionId,
      createdAt: now,
      nextRunAt: schedule.next(now) ?? null,
      lastFiredAt: null,
    };
    if (record.nextRunAt === null) throw new CronError(`"${record.cron}" has no run after now, so the job would never fire.`);
    this.#store.insertJob(record);
    if (job.client !== undefined) this.#clients.record(job.client, job.sessionId);
    this.#arm();
    return record;
  }

  /** The jobs a session created or subscribed to. */
  list(sessionId: string): CronJobRecord[] {
    return this.#store.jobsForSession(sessionId);
  }

  /**
   * Deletes a job its creator names, or ends another session's subscription to it. Firings already
   * queued stay queued: they happened. Undefined when the session has no such job.
   */
  remove(sessionId: string, jobId: string): "deleted" | "unsubscribed" | undefined {
    const job = this.#store.getJob(jobId);
    if (!job || !this.#store.subscribers(jobId).includes(sessionId)) return undefined;
    if (job.createdBy === sessionId) {
      this.#store.deleteJob(jobId);
      this.#arm();
      return "deleted";
    }
    this.#store.unsubscribe(jobId, sessionId);
    return "unsubscribed";
  }

  /** Subscribes a session to an existing job (its firings then reach that session too). */
  subscribe(sessionId: string, jobId: string): boolean {
    if (!this.#store.getJob(jobId)) return false;
    this.#store.subscribe(jobId, sessionId, this.#clock.now());
    return true;
  }

  /**
   * Claims up to `limit` queued firings of a session for delivery. The contract, with `ack` and
   * `release`:
   *
   * - nothing is lost: a firing leaves the outbox only when acknowledged;
   * - within one process a firing is never handed out twice at once (the claim leases it);
   * - a process that dies between send and ack (or an ack that fails) leaves the firing queued: it
   *   is delivered again, with the same `firingId` and a higher `attempt`. Delivery is therefore
   *   at-least-once, and a client that remembers the firing ids it handled sees each exactly once.
   */
  claim(sessionId: string, limit = 100): OutboxRecord[] {
    const now = this.#clock.now();
    const claimed = this.#store.claim(sessionId, now, now + this.#leaseMs, limit);
    if (claimed.length > 0) this.#arm();
    return claimed;
  }

  ack(sessionId: string, firingIds: readonly string[]): number {
    return this.#store.ack(sessionId, firingIds);
  }

  release(sessionId: string, firingIds: readonly string[]): void {
    this.#store.release(sessionId, firingIds);
    if (firingIds.length > 0) this.#emit(sessionId);
  }

  pendingCount(sessionId: string): number {
    return this.#store.pendingCount(sessionId);
  }

  /** Parses `expression` in this scheduler's time zone; throws CronExpressionError. */
  #schedule(expression: string): CronSchedule {
    const cached = this.#schedules.get(expression);
    if (cached) return cached;
    const schedule = parseCronExpression(expression, this.timezone);
    if (this.#schedules.size >= MAX_JOBS_TOTAL * 2) this.#schedules.clear();
    this.#schedules.set(expression, schedule);
    return schedule;
  }

  #tick(): void {
    this.#timer = undefined;
    if (!this.#running) return;
    try {
      const now = this.#clock.now();
      for (const job of this.#store.dueJobs(now)) this.#fire(job, now);
      for (const sessionId of this.#store.releaseExpired(now)) this.#emit(sessionId);
      this.#faults = 0;
    } catch (error) {
      this.#faults++;
      this.#onError(error);
    }
    this.#arm();
  }

  #fire(job: CronJobRecord, now: number): void {
    const first = job.nextRunAt as number;
    let schedule: CronSchedule;
    try {
      schedule = this.#schedule(job.cron);
    } catch (error) {
      // Stored by a build that read expressions differently: park the job (visible, never due)
      // rather than find it due again on every tick.
      if (!(error instanceof CronExpressionError)) throw error;
      this.#store.setNextRun(job.id, null);
      return this.#onError(error);
    }
    const slots = countSlots(schedule, first, now, MAX_COUNTED_OCCURRENCES);
    const sessions = this.#store.recordFiring({
      job,
      scheduledFor: first,
      lastScheduledFor: slots.last,
      occurrences: slots.count,
      firedAt: now,
      nextRunAt: job.recurring ? (slots.following ?? null) : null,
      newFiringId: randomUUID,
    });
    for (const sessionId of sessions) this.#emit(sessionId);
  }

  #arm(): void {
    if (!this.#running) return;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    const wake = this.#store.earliestWake();
    if (wake === undefined) return;
    const floor = this.#faults === 0 ? 0 : Math.min(FAULT_RETRY_MS * 2 ** Math.min(this.#faults - 1, 16), MAX_TIMER_MS);
    const delay = Math.min(Math.max(wake - this.#clock.now(), floor), MAX_TIMER_MS);
    this.#timer = this.#clock.setTimeout(() => this.#tick(), delay);
  }

  #emit(sessionId: string): void {
    for (const listener of this.#listeners) {
      try {
        listener(sessionId);
      } catch (error) {
        this.#onError(error);
      }
    }
  }

  #newJobId(): string {
    for (;;) {
      const id = randomBytes(4).toString("hex");
      if (!this.#store.getJob(id)) return id;
    }
  }
}
