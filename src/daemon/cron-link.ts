/**
 * Cron in the daemon (AGENT_TRIGGERS tiers only; required inside that feature() branch): firings
 * go out as `toolpool/cronFired` notifications to the connected clients of each subscribed session,
 * and a session's queued firings are delivered when a client of it connects. Also serves
 * `toolpool/cronSubscribe`, so another session can follow a job, and `toolpool/cronAck`, with which
 * a client that opened its session with `cronAcks: true` acknowledges the firings it was sent.
 */
import { CronDelivery, type CronSink } from "../cron/cron-delivery.ts";
import type { CronService } from "../cron/cron-service.ts";
import { ErrorCode, RpcError } from "../protocol/jsonrpc.ts";
import { Method } from "../protocol/method-names.ts";
import type { Peer } from "./peer.ts";
import type { Dispatcher } from "./dispatcher.ts";
import type { SessionBinding } from "./state.ts";
import type { Logger } from "../runtime/logger.ts";

export class CronLink {
  readonly #delivery: CronDelivery;
  /** One sink per connection, kept while it lives: the delivery knows a client holding a firing by it. */
  readonly #sinks = new WeakMap<Peer, CronSink>();
  #closed = false;

  constructor(
    private readonly service: CronService,
    connections: () => Iterable<Peer>,
    sessions: SessionBinding,
    logger: Logger,
    dispatcher: Dispatcher,
  ) {
    this.#delivery = new CronDelivery({
      scheduler: service.scheduler,
      sinks: (sessionId) =>
        [...connections()]
          .filter((connection) => !connection.closed && connection.sessionId === sessionId)
          .map((connection) => this.#sinkFor(connection)),
      onError: (error) => logger.error("cron delivery failed", { error: String(error) }),
    });
    dispatcher.register(
      Method.CronSubscribe,
      (params, { connection }) => {
        const session = sessions.sessionFor(connection, params.sessionId);
        if (!service.scheduler.subscribe(session.id, params.jobId)) {
          throw new RpcError(ErrorCode.InvalidParams, `Invalid params: field "jobId": no cron job ${JSON.stringify(params.jobId)}`);
        }
        setImmediate(() => this.sessionAttached(session.id));
        return { subscribed: true, jobId: params.jobId, sessionId: session.id };
      },
    );
    dispatcher.register(
      Method.CronAck,
      (params, { connection }) => {
        const session = sessions.sessionFor(connection, params.sessionId);
        return { acked: this.#delivery.acknowledge(session.id, params.firingIds) };
      },
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

  /**
   * A connection closed, or moved to another session: firings it was sent and never acknowledged
   * go to the (old) session's next client now.
   */
  connectionLeft(connection: Peer): void {
    // Connections close after cron does when the daemon stops; the next start ends those leases.
    if (this.#closed) return;
    const sink = this.#sinks.get(connection);
    if (sink) this.#delivery.clientGone(sink);
  }

  close(): void {
    this.#closed = true;
    this.#delivery.close();
    this.service.close();
  }

  #sinkFor(connection: Peer): CronSink {
    const known = this.#sinks.get(connection);
    if (known) return known;
    const sink: CronSink = {
      get acknowledges() {
        return connection.cronAcks;
      },
      send: (notification) => {
        connection.send(notification);
        return !connection.closed;
      },
    };
    this.#sinks.set(connection, sink);
    return sink;
  }
}
