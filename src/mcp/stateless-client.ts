/**
 * The pool's client side at MCP 2026-07-28: no `initialize`; every request carries the revision and
 * our (empty) capabilities in `_meta`. Built on a started SDK transport (stdio: the server's pipes),
 * so probing with `server/discover` costs no second process: a server that does not know the method
 * is handed, transport and all, to the SDK client for `initialize` (server-connection.ts).
 *
 * Requests are bounded like the SDK's: a timeout (reset by progress), cancellation sent on abort,
 * and at most MAX_PENDING outstanding. List changes come over `subscriptions/listen` when the
 * server offers them; otherwise the listing's own `ttlMs` says when to list again.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION, META_SUBSCRIPTION_ID, STATELESS_REVISION } from "../protocol/mcp-revisions.ts";
import type { ProgressUpdate } from "../tool/tool.ts";

export interface StatelessRequestOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  onProgress?: (update: ProgressUpdate) => void;
  /** The request's id, when the caller must know it (a listen request: its notifications carry it). */
  id?: string;
  /** Extra `_meta` for this request (a `traceparent`). */
  meta?: Record<string, unknown>;
  /** The client capabilities this request declares (a call whose caller can answer questions); none by default. */
  capabilities?: Record<string, unknown>;
}

export class StatelessRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

interface Pending {
  resolve(result: Record<string, unknown>): void;
  reject(error: Error): void;
  onProgress?: (update: ProgressUpdate) => void;
  restartTimer(): void;
}

/** Outstanding requests on one connection at most; the pool bounds calls per server below this. */
const MAX_PENDING = 256;

export class StatelessClient {
  readonly #transport: Transport;
  readonly #clientInfo: { name: string; version: string };
  readonly #pending = new Map<string, Pending>();
  readonly #notifications = new Set<(method: string, params: Record<string, unknown>) => void>();
  #next = 1;
  #closed = false;

  /** Takes over `onmessage`; the caller keeps `onclose`. */
  constructor(transport: Transport, clientInfo: { name: string; version: string }) {
    this.#transport = transport;
    this.#clientInfo = clientInfo;
    transport.onmessage = (message) => this.#receive(message as unknown as Record<string, unknown>);
  }

  onNotification(listener: (method: string, params: Record<string, unknown>) => void): () => void {
    this.#notifications.add(listener);
    return () => this.#notifications.delete(listener);
  }

  request(method: string, params: Record<string, unknown>, options: StatelessRequestOptions): Promise<Record<string, unknown>> {
    if (this.#closed) return Promise.reject(new Error("the connection is closed"));
    if (this.#pending.size >= MAX_PENDING) return Promise.reject(new Error(`too many requests in flight to this server (limit ${MAX_PENDING})`));
    const id = options.id ?? `tp-${this.#next++}`;
    if (this.#pending.has(id)) return Promise.reject(new Error(`request id ${id} is already in flight`));
    const progressToken = options.onProgress ? id : undefined;
    const meta = {
      ...options.meta,
      [META_PROTOCOL_VERSION]: STATELESS_REVISION,
      [META_CLIENT_CAPABILITIES]: options.capabilities ?? {},
      [META_CLIENT_INFO]: this.#clientInfo,
      ...(progressToken !== undefined && { progressToken }),
    };
    const { promise, resolve, reject } = Promise.withResolvers<Record<string, unknown>>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = () => {
      clearTimeout(timer);
      this.#pending.delete(id);
      options.signal?.removeEventListener("abort", onAbort);
    };
    const fail = (error: Error, notifyServer: boolean) => {
      if (!this.#pending.has(id)) return;
      finish();
      // Best effort: the transport may be closing (its abort rejects the send); nobody waits for it.
      if (notifyServer) this.#send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: error.message } }).catch(() => {});
      reject(error);
    };
    const restartTimer = () => {
      clearTimeout(timer);
      timer = setTimeout(() => fail(new StatelessRpcError(-32001, `Request timed out after ${options.timeoutMs} ms`), true), options.timeoutMs);
    };
    const onAbort = () => fail(options.signal?.reason instanceof Error ? options.signal.reason : new Error("cancelled"), true);
    if (options.signal?.aborted) return Promise.reject(options.signal.reason instanceof Error ? options.signal.reason : new Error("cancelled"));
    this.#pending.set(id, {
      resolve: (result) => {
        finish();
        resolve(result);
      },
      reject: (error) => {
        finish();
        reject(error);
      },
      ...(options.onProgress && { onProgress: options.onProgress }),
      restartTimer,
    });
    options.signal?.addEventListener("abort", onAbort, { once: true });
    restartTimer();
    this.#send({ jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } }).catch((error: Error) => fail(error, false));
    return promise;
  }

  /** Sends a notification (no answer). */
  notify(method: string, params: Record<string, unknown>): Promise<void> {
    return this.#send({ jsonrpc: "2.0", method, params });
  }

  /** Every outstanding request fails with `reason` (the connection ended). */
  fail(reason: string): void {
    this.#closed = true;
    for (const pending of [...this.#pending.values()]) pending.reject(new Error(reason));
  }

  #send(message: Record<string, unknown>): Promise<void> {
    return this.#transport.send(message as unknown as JSONRPCMessage);
  }

  #receive(message: Record<string, unknown>): void {
    const id = message.id;
    if ((typeof id === "string" || typeof id === "number") && ("result" in message || "error" in message)) {
      const pending = this.#pending.get(String(id));
      if (!pending) return;
      const error = message.error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
      if (error) pending.reject(new StatelessRpcError(typeof error.code === "number" ? error.code : -32603, typeof error.message === "string" ? error.message : "error", error.data));
      else pending.resolve(isObject(message.result) ? message.result : {});
      return;
    }
    if (typeof message.method !== "string") return;
    const params = isObject(message.params) ? message.params : {};
    if ("id" in message) {
      // A server of this revision asks through input_required results, never with requests of its own.
      this.#send({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: `Method not found: ${message.method.slice(0, 100)} (this client speaks ${STATELESS_REVISION})` } }).catch(() => {});
      return;
    }
    if (message.method === "notifications/progress") {
      const pending = this.#pending.get(String(params.progressToken));
      if (!pending) return;
      pending.restartTimer();
      pending.onProgress?.({
        progress: typeof params.progress === "number" ? params.progress : 0,
        ...(typeof params.total === "number" && { total: params.total }),
        ...(typeof params.message === "string" && { message: params.message }),
      });
      return;
    }
    for (const listener of this.#notifications) listener(message.method, params);
  }
}

/** The subscription id a notification carries, if it came over a listen stream. */
export function subscriptionOf(params: Record<string, unknown>): unknown {
  return isObject(params._meta) ? params._meta[META_SUBSCRIPTION_ID] : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
