/**
 * Delivery of cron firings to connected clients as `toolpool/cronFired` notifications. The daemon
 * gives it a way to find the connected clients of a session (`sinks`) and calls `deliver(sessionId)`
 * when a client of that session connects; new firings are delivered as they are recorded.
 *
 * Each firing is claimed, sent to every connected client of its session, and acknowledged once at
 * least one of them took it; if none did, it is released and waits for the next connect. With no
 * client connected nothing is claimed at all, so a firing's attempt count says how many times a
 * send was tried. See `CronScheduler.claim` for the at-least-once contract across crashes.
 */
import type { CronScheduler } from "./cron-scheduler.ts";
import type { OutboxRecord } from "./cron-schema.ts";

/** The notification method; add it to the protocol's method list as `CronFired`. */
export const CRON_FIRED_METHOD = "toolpool/cronFired";

/** The params of one `toolpool/cronFired` notification. */
export interface CronFiredParams {
  sessionId: string;
  /** Stable across redeliveries: a client that remembers it handles each firing once. */
  firingId: string;
  jobId: string;
  cron: string;
  prompt: string;
  recurring: boolean;
  /** ISO times: the first and last scheduled run this firing stands for (they differ after missed runs). */
  scheduledFor: string;
  lastScheduledFor: string;
  /** How many scheduled runs this firing stands for (more than 1 after downtime or coalescing). */
  occurrences: number;
  firedAt: string;
  /** 1 on first delivery; more means an earlier delivery may have arrived (dedupe by firingId). */
  attempt: number;
}

export interface CronFiredNotification {
  jsonrpc: "2.0";
  method: typeof CRON_FIRED_METHOD;
  params: CronFiredParams;
}

/** One connected client of a session. `send` says whether the message was handed to the connection. */
export interface CronSink {
  send(notification: CronFiredNotification): boolean;
}

export interface CronDeliveryOptions {
  scheduler: CronScheduler;
  /** The connected clients of a session right now (empty when none). */
  sinks: (sessionId: string) => readonly CronSink[];
  onError?: (error: unknown) => void;
}

/** Firings claimed per round; a session with a long backlog is drained in rounds of this size. */
const BATCH = 50;

export class CronDelivery {
  readonly #scheduler: CronScheduler;
  readonly #sinks: (sessionId: string) => readonly CronSink[];
  readonly #onError: (error: unknown) => void;
  readonly #unsubscribe: () => void;
  readonly #delivering = new Set<string>();

  constructor(options: CronDeliveryOptions) {
    this.#scheduler = options.scheduler;
    this.#sinks = options.sinks;
    this.#onError = options.onError ?? (() => {});
    this.#unsubscribe = this.#scheduler.onPending((sessionId) => this.deliver(sessionId));
  }

  /** Sends the session's queued firings to its connected clients; returns how many were acknowledged. */
  deliver(sessionId: string): number {
    // A release inside the loop below announces the session again; the running loop already covers it.
    if (this.#delivering.has(sessionId)) return 0;
    this.#delivering.add(sessionId);
    let delivered = 0;
    try {
      for (;;) {
        if (this.#sinks(sessionId).length === 0) return delivered;
        const batch = this.#scheduler.claim(sessionId, BATCH);
        if (batch.length === 0) return delivered;
        const { acked, unsent } = this.#send(sessionId, batch);
        delivered += acked;
        if (unsent.length > 0) {
          this.#scheduler.release(sessionId, unsent);
          return delivered;
        }
      }
    } catch (error) {
      this.#onError(error);
      return delivered;
    } finally {
      this.#delivering.delete(sessionId);
    }
  }

  close(): void {
    this.#unsubscribe();
  }

  #send(sessionId: string, batch: readonly OutboxRecord[]): { acked: number; unsent: string[] } {
    let acked = 0;
    for (const [index, firing] of batch.entries()) {
      const notification = cronFiredNotification(firing);
      let taken = false;
      for (const sink of this.#sinks(sessionId)) {
        try {
          if (sink.send(notification)) taken = true;
        } catch (error) {
          this.#onError(error);
        }
      }
      if (!taken) return { acked, unsent: batch.slice(index).map((rest) => rest.firingId) };
      acked += this.#scheduler.ack(sessionId, [firing.firingId]);
    }
    return { acked, unsent: [] };
  }
}

export function cronFiredNotification(firing: OutboxRecord): CronFiredNotification {
  return {
    jsonrpc: "2.0",
    method: CRON_FIRED_METHOD,
    params: {
      sessionId: firing.sessionId,
      firingId: firing.firingId,
      jobId: firing.jobId,
      cron: firing.cron,
      prompt: firing.prompt,
      recurring: firing.recurring,
      scheduledFor: new Date(firing.scheduledFor).toISOString(),
      lastScheduledFor: new Date(firing.lastScheduledFor).toISOString(),
      occurrences: firing.occurrences,
      firedAt: new Date(firing.firedAt).toISOString(),
      attempt: firing.attempts,
    },
  };
}
