/**
 * Cron in the daemon (AGENT_TRIGGERS tiers only; required inside that feature() branch): firings
 * go out as `toolpool/cronFired` notifications to the connected clients of each subscribed session,
 * and a session's queued firings are delivered when a client of it connects. Also serves
 * `toolpool/cronSubscribe`, so another session can follow a job.
 */
import { z } from "zod";
import { CronDelivery } from "../cron/cron-delivery.ts";
import type { CronService } from "../cron/cron-service.ts";
import { ErrorCode, RpcError } from "../protocol/jsonrpc.ts";
import { Method } from "../protocol/method-names.ts";
import type { Connection } from "./connection.ts";
import { method, type Dispatcher } from "./dispatcher.ts";
import type { DaemonState } from "./state.ts";

const subscribeParams = z.strictObject({
  sessionId: z.string().min(1).max(128).optional(),
  jobId: z.string().min(1).max(128),
});

export class CronLink {
  readonly #delivery: CronDelivery;

  constructor(
    private readonly service: CronService,
    connections: () => Iterable<Connection>,
    state: DaemonState,
    dispatcher: Dispatcher,
  ) {
    this.#delivery = new CronDelivery({
      scheduler: service.scheduler,
      sinks: (sessionId) =>
        [...connections()]
          .filter((connection) => !connection.closed && connection.sessionId === sessionId)
          .map((connection) => ({
            send: (notification) => {
              connection.send(notification);
              return !connection.closed;
            },
          })),
      onError: (error) => state.logger.error("cron delivery failed", { error: String(error) }),
    });
    dispatcher.register(
      Method.CronSubscribe,
      method(subscribeParams, (params, { connection }) => {
        const session = state.sessionFor(connection, params.sessionId);
        if (!service.scheduler.subscribe(session.id, params.jobId)) {
          throw new RpcError(ErrorCode.InvalidParams, `Invalid params: field "jobId": no cron job ${JSON.stringify(params.jobId)}`);
        }
        setImmediate(() => this.sessionAttached(session.id));
        return { subscribed: true, jobId: params.jobId, sessionId: session.id };
      }),
    );
  }

  /** After the socket listens: jobs whose time passed while the daemon was down fire now. */
  start(): void {
    this.service.scheduler.start();
  }

  /** A client of this session connected: hand it what was queued (after the current response). */
  sessionAttached(sessionId: string): void {
    setImmediate(() => this.#delivery.deliver(sessionId));
  }

  close(): void {
    this.#delivery.close();
    this.service.close();
  }
}
