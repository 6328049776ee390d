/**
 * From a line to a response: envelope checks, method lookup, params validation, the handler, and
 * the answer — each failure with its own JSON-RPC code (SPEC §11, STYLE habit 3). The connection
 * stays usable after every error except an oversized line.
 */
import type { z } from "zod";
import { METHOD_PARAMS, type MethodName, type ParsedParamsOf, type ResultOf, type ExtraFields } from "../protocol/method-table.ts";
import { describeIssues } from "../config/load.ts";
import { ErrorCode, RpcError, type RequestId } from "../protocol/jsonrpc.ts";
import { jsonShapeProblem, leadingRequestId } from "../protocol/line-framer.ts";
import { MAX_IN_FLIGHT_PER_CONNECTION, MAX_JSON_DEPTH, MAX_JSON_MEMBERS } from "../protocol/limits.ts";
import type { ProgressUpdate } from "../protocol/progress.ts";
import type { Peer } from "./peer.ts";
import { questionChannel } from "./question-channel.ts";
import type { QuestionChannel } from "../protocol/server-question.ts";
import type { Logger } from "../runtime/logger.ts";
import { requestRevision } from "../protocol/mcp-revisions.ts";

export interface RequestContext {
  connection: Peer;
  requestId: RequestId;
  signal: AbortSignal;
  /** The MCP revision the request's `_meta` names (2026-07-28 requests name one; 2025 ones none). */
  revision?: string;
  /** Present when the client asked for progress (`_meta.progressToken`). */
  sendProgress?: (update: ProgressUpdate) => void;
  /** Present when the client said which servers' questions it answers (`_meta["toolpool/answers"]`). */
  questions?: QuestionChannel;
}

/** A handler as the method table types it: its params parsed, its result the method's result type. */
export type MethodHandler<M extends MethodName> = (params: ParsedParamsOf<M>, context: RequestContext) => ResultOf<M> | Promise<ResultOf<M>>;

/**
 * Assignability lets a function return more than its declared result (no excess-property check on
 * inferred returns), so fields a result type lacks, at any depth, are refused here: the drift would
 * reach clients.
 */
export type NoExtraFields<M extends MethodName, H extends MethodHandler<M>> =
  [ExtraFields<Awaited<ReturnType<H>>, ResultOf<M>>] extends [never]
    ? unknown
    : { "the result has fields its type in src/protocol/method-table.ts lacks": ExtraFields<Awaited<ReturnType<H>>, ResultOf<M>> };

interface MethodSpec {
  params: z.ZodType;
  handle: (params: unknown, context: RequestContext) => unknown;
}

export type NotificationHandler = (params: Record<string, unknown>, connection: Peer) => void;

export class Dispatcher {
  readonly #methods = new Map<string, MethodSpec>();
  readonly #notifications = new Map<string, NotificationHandler>();
  #acceptingWork = true;

  constructor(private readonly logger: Logger) {}

  /** The method's params schema comes from the table, so a handler cannot validate against another. */
  register<M extends MethodName, H extends MethodHandler<M>>(name: M, handle: H & NoExtraFields<M, H>): void {
    this.#methods.set(name, { params: METHOD_PARAMS[name], handle: handle as MethodSpec["handle"] });
  }

  onNotification(name: string, handler: NotificationHandler): void {
    this.#notifications.set(name, handler);
  }

  /** After this, new requests are answered "shutting down"; those in flight finish. */
  stopAcceptingWork(): void {
    this.#acceptingWork = false;
  }

  handleLine(connection: Peer, line: string): void {
    const shape = jsonShapeProblem(line, MAX_JSON_DEPTH, MAX_JSON_MEMBERS);
    // Not parsed, so its id is read from its head: the client is waiting for that id's answer.
    if (shape) return this.#fail(connection, leadingRequestId(line), ErrorCode.InvalidRequest, shape);
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return this.#fail(connection, null, ErrorCode.ParseError, "Parse error: the line is not valid JSON");
    }
    if (Array.isArray(message)) {
      return this.#fail(connection, null, ErrorCode.InvalidRequest, "Batch requests are not supported; send one request per line");
    }
    if (typeof message !== "object" || message === null) {
      return this.#fail(connection, null, ErrorCode.InvalidRequest, "Invalid request: expected a JSON-RPC 2.0 object");
    }
    const envelope = message as Record<string, unknown>;
    const id = validId(envelope.id);
    if (envelope.jsonrpc !== "2.0") {
      return this.#fail(connection, id, ErrorCode.InvalidRequest, 'Invalid request: "jsonrpc" must be "2.0"');
    }
    // Responses to requests the daemon never sends: nothing to do.
    if (envelope.method === undefined && ("result" in envelope || "error" in envelope)) return;
    if (typeof envelope.method !== "string") {
      return this.#fail(connection, id, ErrorCode.InvalidRequest, 'Invalid request: "method" must be a string');
    }
    const params = envelope.params ?? {};
    const paramsIsObject = typeof params === "object" && params !== null && !Array.isArray(params);
    if (!("id" in envelope)) {
      // A notification is never answered, even a malformed one: there is no id to answer.
      if (paramsIsObject) this.#notify(connection, envelope.method, params as Record<string, unknown>);
      return;
    }
    if (!paramsIsObject) {
      return this.#fail(connection, id, ErrorCode.InvalidParams, 'Invalid params: "params" must be an object');
    }
    if (id === null) {
      return this.#fail(connection, null, ErrorCode.InvalidRequest, 'Invalid request: "id" must be a string or a number');
    }
    // The health check skips the schema, abort controller and promise of other requests (its params
    // are ignored, as MCP allows). Its answer still waits one microtask, behind the answers of
    // requests before it in the same read, and the in-flight limit still applies.
    if (envelope.method === "ping" && !connection.inFlight.has(id) && connection.inFlight.size < MAX_IN_FLIGHT_PER_CONNECTION) {
      queueMicrotask(() => connection.send({ jsonrpc: "2.0", id, result: {} }));
      return;
    }
    void this.#request(connection, id, envelope.method, params as Record<string, unknown>);
  }

  async #request(connection: Peer, id: RequestId, name: string, params: Record<string, unknown>): Promise<void> {
    const spec = this.#methods.get(name);
    if (!spec) return this.#fail(connection, id, ErrorCode.MethodNotFound, `Method not found: ${name}`);
    if (!this.#acceptingWork && name !== "ping") {
      return this.#fail(connection, id, ErrorCode.ShuttingDown, "The daemon is shutting down and takes no new requests");
    }
    if (connection.inFlight.has(id)) {
      return this.#fail(connection, id, ErrorCode.InvalidRequest, `Request id ${JSON.stringify(id)} is already in flight on this connection`);
    }
    if (connection.inFlight.size >= MAX_IN_FLIGHT_PER_CONNECTION) {
      return this.#fail(connection, id, ErrorCode.Overloaded, `Too many requests in flight (limit ${MAX_IN_FLIGHT_PER_CONNECTION}); wait for answers before sending more`);
    }
    // `_meta` belongs to the envelope (MCP progress tokens); the method's schema never sees it.
    const { _meta: _envelopeMeta, ...methodParams } = params;
    const parsed = spec.params.safeParse(methodParams);
    if (!parsed.success) {
      return this.#fail(connection, id, ErrorCode.InvalidParams, `Invalid params for ${name}:\n${describeIssues(parsed.error.issues)}`);
    }
    const controller = new AbortController();
    connection.inFlight.set(id, controller);
    try {
      const result = await spec.handle(parsed.data, {
        connection,
        requestId: id,
        signal: controller.signal,
        revision: requestRevision({ _meta: _envelopeMeta }),
        sendProgress: progressSender(connection, params),
        questions: questionChannel(connection, id, _envelopeMeta, typeof methodParams.sessionId === "string" ? methodParams.sessionId : undefined),
      });
      if (!controller.signal.aborted) connection.send({ jsonrpc: "2.0", id, result: result ?? {} });
      else this.#answerCancelled(connection, id, controller.signal);
    } catch (error) {
      if (controller.signal.aborted) return this.#answerCancelled(connection, id, controller.signal);
      if (error instanceof RpcError) return this.#fail(connection, id, error.code, error.message, error.data);
      this.logger.error("internal error while handling a request", {
        method: name,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      this.#fail(connection, id, ErrorCode.InternalError, "Internal error: the daemon failed to handle this request (details are in its log)");
    } finally {
      connection.inFlight.delete(id);
      connection.requestSettled();
    }
  }

  /**
   * A request aborted by the client (`notifications/cancelled`) or by its connection closing gets no
   * answer, as MCP says. One the daemon cancelled (shutting down) gets the error it was aborted with.
   */
  #answerCancelled(connection: Peer, id: RequestId, signal: AbortSignal): void {
    const reason: unknown = signal.reason;
    if (reason instanceof RpcError) this.#fail(connection, id, reason.code, reason.message, reason.data);
  }

  #notify(connection: Peer, name: string, params: Record<string, unknown>): void {
    const handler = this.#notifications.get(name);
    if (!handler) return; // JSON-RPC: notifications are never answered, unknown ones included.
    try {
      handler(params, connection);
    } catch (error) {
      this.logger.warn("notification handler failed", { method: name, error: String(error) });
    }
  }

  #fail(connection: Peer, id: RequestId | null, code: number, message: string, data?: unknown): void {
    connection.send({ jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } });
  }
}

function validId(id: unknown): RequestId | null {
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
}

function progressSender(connection: Peer, params: Record<string, unknown>) {
  const meta = params._meta;
  if (typeof meta !== "object" || meta === null) return undefined;
  const token = (meta as Record<string, unknown>).progressToken;
  if (typeof token !== "string" && typeof token !== "number") return undefined;
  return (update: ProgressUpdate) =>
    connection.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, ...update } });
}
