/**
 * One client connection: framing in, bounded writes out, and the requests it has in flight (so a
 * cancellation or a disconnect can stop them). It knows nothing of methods; the dispatcher does.
 *
 * Its ceilings: a line may stay unfinished only so long; past a share of unsent output the daemon
 * stops reading its requests until the client reads (back-pressure, not buffering); what it holds
 * counts against the budget all connections share, which drops the largest holder first; and of
 * each read only the first line is dispatched at once — the rest waits for fair turns
 * (dispatch-turns.ts), so a pipelined backlog cannot hold the event loop.
 */
import type { Peer, QuestionAnswer } from "./peer.ts";
import type { Socket } from "node:net";
import { LineFramer } from "../protocol/line-framer.ts";
import { ErrorCode, type RequestId } from "../protocol/jsonrpc.ts";
import { MAX_LINE_BYTES, MAX_OUTBOUND_BYTES, OUTBOUND_PAUSE_BYTES, PARTIAL_LINE_TIMEOUT_MS } from "../protocol/limits.ts";
import type { Logger } from "../runtime/logger.ts";
import type { BudgetMember, ConnectionBudget } from "./connection-budget.ts";
import { DispatchTurns, type TurnTaker } from "./dispatch-turns.ts";

export interface ConnectionHandlers {
  line: (connection: Connection, line: string) => void;
  closed: (connection: Connection) => void;
}

export interface ConnectionLimits {
  maxLineBytes?: number;
  partialLineTimeoutMs?: number;
  outboundPauseBytes?: number;
  /** Shared by every connection of the daemon; none means this connection is unbudgeted. */
  budget?: ConnectionBudget;
  /** Shared by every connection of the daemon: fair turns for backlogs of requests. */
  turns?: DispatchTurns;
}

/** An error line this small can still be queued for a client that is being cut off. */
const FAREWELL_ROOM_BYTES = 64 * 1024;

export class Connection implements Peer, BudgetMember, TurnTaker {
  /** For log lines only: random, so no counter is shared between daemons in one process. */
  readonly id = crypto.randomUUID().slice(0, 8);
  readonly inFlight = new Map<RequestId, AbortController>();
  /** The session requests on this connection use when they name none. */
  sessionId: string | undefined;
  initialized = false;
  /** Open `subscriptions/listen` requests (2026-07-28): list changes go to each, tagged with its id. */
  readonly listens = new Set<RequestId>();
  clientName = "";
  /** Servers' questions open on this connection, by id (question-channel.ts): each settles with the client's answer. */
  readonly questions = new Map<string, (answer: QuestionAnswer) => void>();
  /** Set by `toolpool/session {cronAcks}`: the client acknowledges cron firings itself. */
  cronAcks = false;
  #closed = false;
  /** The client shut its write side: no more requests will come. */
  #readEnded = false;
  /** Reading is paused because the client is not reading what it was sent. */
  #paused = false;
  /** Lines read but not yet dispatched wait for their turn (see dispatch-turns.ts). */
  #queued = false;
  #linesThisChunk = 0;
  readonly #turns: DispatchTurns;
  #partialTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #partialLineTimeoutMs: number;
  readonly #framer: LineFramer;
  readonly #budget: ConnectionBudget | undefined;
  readonly #outboundPauseBytes: number;

  constructor(
    private readonly socket: Socket,
    handlers: ConnectionHandlers,
    private readonly logger: Logger,
    limits: ConnectionLimits = {},
  ) {
    const maxLineBytes = limits.maxLineBytes ?? MAX_LINE_BYTES;
    const partialLineTimeoutMs = limits.partialLineTimeoutMs ?? PARTIAL_LINE_TIMEOUT_MS;
    this.#budget = limits.budget;
    this.#turns = limits.turns ?? new DispatchTurns();
    this.#outboundPauseBytes = limits.outboundPauseBytes ?? OUTBOUND_PAUSE_BYTES;
    socket.setNoDelay?.(true);
    this.#partialLineTimeoutMs = partialLineTimeoutMs;
    this.#framer = new LineFramer(maxLineBytes, {
      line: (line) => {
        this.#linesThisChunk++;
        // One line per feed: the rest of what was read waits for its turn.
        this.#framer.hold();
        handlers.line(this, line);
      },
      overflow: (bytes) => {
        logger.warn("closing connection: line over the size limit", { connection: this.id, bytes, limit: maxLineBytes });
        this.#closeWithError(`Line exceeds the ${maxLineBytes}-byte limit; closing this connection.`);
      },
    });
    socket.on("data", (chunk: Buffer) => this.#feed(() => this.#framer.push(chunk)));
    socket.on("drain", () => {
      if (this.#paused && !this.#closed) {
        this.#paused = false;
        this.#afterFeed();
      }
      this.#report();
    });
    socket.on("end", () => {
      this.#readEnded = true;
      this.requestSettled();
    });
    socket.on("error", (error) => logger.debug("connection error", { connection: this.id, error: error.message }));
    socket.on("close", () => {
      this.#closed = true;
      this.#clearPartialTimer();
      this.#framer.discard();
      this.#budget?.remove(this);
      for (const controller of this.inFlight.values()) controller.abort(new Error("connection closed"));
      this.inFlight.clear();
      handlers.closed(this);
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Whether reading is paused for back-pressure (the client has not read its answers). */
  get paused(): boolean {
    return this.#paused;
  }

  bufferedBytes(): number {
    return this.#framer.bufferedBytes + this.socket.writableLength;
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
    const line = this.#fitted(message, JSON.stringify(message));
    if (line === undefined) return;
    this.socket.write(`${line}\n`);
    if (!this.#paused && this.socket.writableLength > this.#outboundPauseBytes) {
      // Stop taking requests whose answers would only queue up; `drain` resumes reading.
      this.#paused = true;
      this.socket.pause();
      this.#framer.hold();
      this.logger.debug("pausing reads: the client is not reading its answers", { connection: this.id, queuedBytes: this.socket.writableLength });
    }
    this.#report();
  }

  /**
   * A line no client reads (clients stop at MAX_LINE_BYTES, then fail every request on the
   * connection) is not sent: an answer becomes an error saying how large it was, a notification is
   * dropped. Only a line that could be over is measured (a UTF-16 unit is at most 3 UTF-8 bytes).
   */
  #fitted(message: unknown, line: string): string | undefined {
    if (line.length * 3 <= MAX_LINE_BYTES) return line;
    const bytes = Buffer.byteLength(line);
    if (bytes <= MAX_LINE_BYTES) return line;
    const id = typeof message === "object" && message !== null ? (message as { id?: unknown }).id : undefined;
    this.logger.warn("not sent: a message over the line limit clients read", { connection: this.id, bytes, limit: MAX_LINE_BYTES, answer: id !== undefined });
    if (id === undefined) return undefined;
    const error = { code: ErrorCode.InternalError, message: `The answer was ${bytes} bytes, over the ${MAX_LINE_BYTES}-byte line limit clients read, so it was not sent` };
    return JSON.stringify({ jsonrpc: "2.0", id, error });
  }

  /** Called when a request has been answered: a half-closed connection ends after its last answer. */
  requestSettled(): void {
    // A request is only counted once its handler starts, so a line still being dispatched could be
    // missed; the next turn of the event loop sees it in flight.
    // Lines still held back (back-pressure) are requests too: they are answered before the close.
    const idle = () => this.inFlight.size === 0 && this.#framer.bufferedBytes === this.#framer.pendingBytes;
    if (this.#readEnded && idle()) setImmediate(() => idle() && this.close());
  }

  /** Ends the connection after what is queued has been written. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#clearPartialTimer();
    this.socket.end();
    // A peer that never drains must not keep the socket open forever.
    setTimeout(() => this.socket.destroy(), 1_000).unref();
  }

  /** Cut off for the shared budget: what it holds is freed now, not after a flush. */
  drop(reason: string): void {
    this.#closeWithError(reason);
  }

  #afterInput(feed: () => void): void {
    this.#linesThisChunk = 0;
    feed();
    if (this.#closed) return;
    // The timer runs per line: a finished line clears it, a new unfinished one starts it afresh.
    if (this.#framer.pendingBytes === 0 || this.#linesThisChunk > 0) this.#clearPartialTimer();
    if (this.#framer.pendingBytes > 0 && !this.#partialTimer) {
      const timeoutMs = this.#partialLineTimeoutMs;
      this.#partialTimer = setTimeout(() => this.#partialLineExpired(timeoutMs), timeoutMs);
      this.#partialTimer.unref?.();
    }
    this.#report();
  }

  /** The scheduler's turn: one queued line, unless paused for output or closed. */
  takeTurn(): boolean {
    if (this.#closed || this.#paused) {
      this.#queued = false;
      return false;
    }
    this.#feed(() => this.#framer.release());
    return this.#queued;
  }

  /** Feeds the framer (at most one line is dispatched), then queues or resumes reading. */
  #feed(feed: () => void): void {
    this.#afterInput(feed);
    this.#afterFeed();
  }

  #afterFeed(): void {
    if (this.#closed) return;
    const backlog = this.#framer.bufferedBytes > this.#framer.pendingBytes;
    if (backlog || this.#paused) {
      this.socket.pause();
      this.#queued = backlog && !this.#paused;
      if (this.#queued) this.#turns.enqueue(this);
      return;
    }
    this.#queued = false;
    // Nothing held: the next read is dispatched at once again.
    this.#framer.release();
    this.socket.resume();
    this.requestSettled();
  }

  #partialLineExpired(timeoutMs: number): void {
    this.#partialTimer = undefined;
    if (this.#closed) return;
    this.logger.warn("closing connection: a line stayed unfinished too long", {
      connection: this.id,
      pendingBytes: this.#framer.pendingBytes,
      timeoutMs,
    });
    this.#closeWithError(`A line stayed unfinished for ${timeoutMs} ms; closing this connection.`);
  }

  /** Says why (when there is room to), frees the input at once, and closes. */
  #closeWithError(message: string): void {
    if (this.#closed) return;
    this.#framer.discard();
    this.socket.pause();
    const room = this.socket.writableLength < FAREWELL_ROOM_BYTES;
    if (room) this.socket.write(`${JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: ErrorCode.InvalidRequest, message } })}\n`);
    this.close();
    if (!room) this.socket.destroy();
    this.#budget?.remove(this);
  }

  #clearPartialTimer(): void {
    if (this.#partialTimer) clearTimeout(this.#partialTimer);
    this.#partialTimer = undefined;
  }

  #report(): void {
    if (!this.#closed) this.#budget?.report(this, this.bufferedBytes());
  }
}
