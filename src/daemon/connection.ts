/**
 * One client connection: framing in, bounded writes out, and the requests it has in flight (so a
 * cancellation or a disconnect can stop them). It knows nothing of methods; the dispatcher does.
 */
import type { Socket } from "node:net";
import { LineFramer } from "../protocol/line-framer.ts";
import type { RequestId } from "../protocol/jsonrpc.ts";
import { MAX_LINE_BYTES, MAX_OUTBOUND_BYTES } from "../protocol/limits.ts";
import type { Logger } from "../runtime/logger.ts";

export interface ConnectionHandlers {
  line: (connection: Connection, line: string) => void;
  closed: (connection: Connection) => void;
}


export class Connection {
  /** For log lines only: random, so no counter is shared between daemons in one process. */
  readonly id = crypto.randomUUID().slice(0, 8);
  readonly inFlight = new Map<RequestId, AbortController>();
  /** The session requests on this connection use when they name none. */
  sessionId: string | undefined;
  initialized = false;
  clientName = "";
  /** Set by `toolpool/session {cronAcks}`: the client acknowledges cron firings itself. */
  cronAcks = false;
  #closed = false;
  /** The client shut its write side: no more requests will come. */
  #readEnded = false;

  constructor(
    private readonly socket: Socket,
    handlers: ConnectionHandlers,
    private readonly logger: Logger,
    maxLineBytes: number = MAX_LINE_BYTES,
  ) {
    socket.setNoDelay?.(true);
    const framer = new LineFramer(maxLineBytes, {
      line: (line) => handlers.line(this, line),
      overflow: (bytes) => {
        logger.warn("closing connection: line over the size limit", { connection: this.id, bytes, limit: maxLineBytes });
        this.send({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32600, message: `Line exceeds the ${maxLineBytes}-byte limit; closing this connection.` },
        });
        this.close();
      },
    });
    socket.on("data", (chunk: Buffer) => framer.push(chunk));
    socket.on("end", () => {
      this.#readEnded = true;
      this.requestSettled();
    });
    socket.on("error", (error) => logger.debug("connection error", { connection: this.id, error: error.message }));
    socket.on("close", () => {
      this.#closed = true;
      for (const controller of this.inFlight.values()) controller.abort(new Error("connection closed"));
      this.inFlight.clear();
      handlers.closed(this);
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Writes one message as one line. A client that stops reading is cut off past the outbound cap. */
  send(message: unknown): void {
    if (this.#closed) return;
    if (this.socket.writableLength > MAX_OUTBOUND_BYTES) {
      this.logger.warn("closing connection: client is not reading its responses", {
        connection: this.id,
        queuedBytes: this.socket.writableLength,
      });
      this.close();
      return;
    }
    this.socket.write(`${JSON.stringify(message)}\n`);
  }

  /** Called when a request has been answered: a half-closed connection ends after its last answer. */
  requestSettled(): void {
    // A request is only counted once its handler starts, so a line still being dispatched could be
    // missed; the next turn of the event loop sees it in flight.
    if (this.#readEnded && this.inFlight.size === 0) setImmediate(() => this.inFlight.size === 0 && this.close());
  }

  /** Ends the connection after what is queued has been written. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.socket.end();
    // A peer that never drains must not keep the socket open forever.
    setTimeout(() => this.socket.destroy(), 1_000).unref();
  }
}
