/**
 * A peer: what the dispatcher, the handlers and the daemon's lifecycle use of one client's
 * connection — its requests in flight, the session it speaks for, and a way to send it a message.
 * A socket connection (connection.ts) is one; an in-memory peer is another, so the dispatcher and
 * every method run without a socket (test/helpers/dispatch-harness.ts).
 */
import type { RequestId } from "../protocol/jsonrpc.ts";

/** A client's answer to a server's question: the MCP result, or the error the server gets instead. */
export interface QuestionAnswer {
  result?: Record<string, unknown> | undefined;
  error?: { code: number; message: string } | undefined;
}

export interface Peer {
  /** For log lines only. */
  readonly id: string;
  readonly inFlight: Map<RequestId, AbortController>;
  /** The session requests from this peer use when they name none (changed by `Daemon.bind` only). */
  sessionId: string | undefined;
  initialized: boolean;
  clientName: string;
  /** Set by `toolpool/session {cronAcks}`: the client acknowledges cron firings itself. */
  cronAcks: boolean;
  /** Open 2026-07-28 `subscriptions/listen` requests: list changes go to each, tagged with its id. */
  readonly listens: Set<RequestId>;
  /** Servers' questions open on this peer, by id (question-channel.ts): each settles with the client's answer. */
  readonly questions: Map<string, (answer: QuestionAnswer) => void>;
  readonly closed: boolean;
  /** Sends one message (an answer or a notification). */
  send(message: unknown): void;
  /** A request has been answered (a half-closed connection may now end). */
  requestSettled(): void;
  /** Ends it after what is queued has been sent. */
  close(): void;
}

/** What the daemon gives a peer that joins: its lines go to the dispatcher, its end unbinds it. */
export interface PeerLink {
  line(text: string): void;
  closed(): void;
}
