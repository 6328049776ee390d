/**
 * Delivery of cron firings to connected clients as `toolpool/cronFired` notifications. The daemon
 * gives it a way to find the connected clients of a session (`sinks`) and calls `deliver(sessionId)`
 * when a client of that session connects; new firings are delivered as they are recorded.
 *
 * Each firing is claimed and sent to every connected client of its session. If any client that
 * leaves acknowledging to the daemon took it, it is acknowledged at once (at-least-once to the
 * socket). If only clients that acknowledge themselves (`CronSink.acknowledges`) took it, it stays
 * claimed until one of them does (`acknowledge`, from `toolpool/cronAck`); a lease that runs out
 * first makes it due again, and when the last client holding it goes away (`clientGone`) it is
 * released at once (at-least-once to the client). If no client took it, it is released and waits
 * for the next connect. With no client connected nothing is claimed at all, so a firing's attempt
 * count says how many times a send was tried. See `CronScheduler.claim` for the crash contract.
 */
import { CronAwaitedAcks } from "./cron-awaited-acks.ts";
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

/**
 * One connected client of a session, the same object for as long as it is connected (it is how
 * `clientGone` names it). `send` says whether the message was handed to the connection.
 */
export interface CronSink {
  /** The client acknowledges firings itself (`toolpool/cronAck`): taking one does not acknowledge it. Read at each send. */
  readonly acknowledges?: boolean;
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
  readonly #awaited = new CronAwaitedAcks<CronSink>();

  constructor(options: CronDeliveryOptions) {
    this.#scheduler = options.scheduler;
    this.#sinks = options.sinks;
    this.#onError = options.onError ?? (() => {});
    this.#unsubscribe = this.#scheduler.onPending((sessionId) => this.deliver(sessionId));
  }

  /** Sends the session's queued firings to its connected clients; returns how many a client took. */
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
        const { taken, unsent } = this.#send(sessionId, batch);
        delivered += taken;
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

  /** A client's acknowledgement: the firings leave the outbox. Returns how many were still queued. */
  acknowledge(sessionId: string, firingIds: readonly string[]): number {
    this.#awaited.forget(sessionId, firingIds);
    return this.#scheduler.ack(sessionId, firingIds);
  }

  /** The client disconnected: what it held unacknowledged, and no other client holds, is due again now. */
  clientGone(sink: CronSink): void {
    try {
      for (const [sessionId, firingIds] of this.#awaited.clientGone(sink)) this.#scheduler.release(sessionId, firingIds);
    } catch (error) {
      this.#onError(error);
    }
  }

  /** How many handed-out firings wait for a client's acknowledgement. */
  get awaitingAcks(): number {
    return this.#awaited.size;
  }

  close(): void {
    this.#unsubscribe();
  }

  #send(sessionId: string, batch: readonly OutboxRecord[]): { taken: number; unsent: string[] } {
    let taken = 0;
    for (const [index, firing] of batch.entries()) {
      const notification = cronFiredNotification(firing);
      let acknowledged = false;
      const holders: CronSink[] = [];
      for (const sink of this.#sinks(sessionId)) {
        try {
          if (!sink.send(notification)) continue;
          if (sink.acknowledges) holders.push(sink);
          else acknowledged = true;
        } catch (error) {
          this.#onError(error);
        }
      }
      if (!acknowledged && holders.length === 0) {
        const unsent = batch.slice(index).map((rest) => rest.firingId);
        this.#awaited.forget(sessionId, unsent);
        return { taken, unsent };
      }
      taken++;
      // Taken only by clients that acknowledge themselves, it stays claimed (neither acknowledged nor
      // released) until one of them answers, its lease runs out, or its last holder goes.
      if (acknowledged) this.acknowledge(sessionId, [firing.firingId]);
      else this.#awaited.handedTo(sessionId, firing.firingId, holders);
    }
    return { taken, unsent: [] };
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
