/**
 * The TypeScript client for the daemon: connect, then session / assemble / call / status, typed
 * from the protocol definitions. Plain node:net, so it works from Node and Bun alike.
 */
import { connect as netConnect, type Socket } from "node:net";
import { locateDaemon } from "./socket-discovery.ts";
import { LineFramer } from "../protocol/line-framer.ts";
import { RpcError, type JsonRpcErrorObject, type RequestId } from "../protocol/jsonrpc.ts";
import { MAX_LINE_BYTES } from "../protocol/limits.ts";
import type { MethodName, ParamsOf, ResultOf } from "../protocol/method-table.ts";
import {
  type CompactResult,
  type PrefetchParams,
  type PrefetchResult,
  type SearchResult,
  type AssembleParams,
  type AssembleResult,
  type CallParams,
  type CallResult,
  type SearchParams,
  type SessionParams,
  type ServerLogsResult,
  type ServerRestartResult,
  type ServersResult,
  type SessionResult,
  type StatusResult,
  type ToolsResult,
} from "../protocol/methods.ts";

export type { CompactResult, PrefetchParams, PrefetchResult };
import { Method } from "../protocol/method-names.ts";
import type { HistoryClearResult, StatsResult } from "../protocol/stats-result.ts";
import type { HistoryClearParams, StatsParams } from "../protocol/usage-methods.ts";

/**
 * A JSON-RPC error answer from the daemon: the wire's one error class (`RpcError`, with its code and
 * data), under the name the client has always exported.
 */
export const DaemonError = RpcError;
export type DaemonError = RpcError;

/** The daemon is not there (no socket, or nobody listening). */
export class NotRunningError extends Error {}

export interface RequestOptions {
  signal?: AbortSignal;
  onProgress?: (progress: Record<string, unknown>) => void;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  onProgress?: (progress: Record<string, unknown>) => void;
}

export class ToolpoolClient {
  readonly #pending = new Map<RequestId, Pending>();
  readonly #notificationHandlers = new Set<(method: string, params: Record<string, unknown>) => void>();
  readonly #closeHandlers = new Set<() => void>();
  #nextId = 1;
  #closed = false;

  private constructor(
    private readonly socket: Socket,
    /** The socket this client is connected to. */
    readonly socketPath: string,
  ) {
    const framer = new LineFramer(MAX_LINE_BYTES, {
      line: (line) => this.#receive(line),
      overflow: () => this.#failAll(new Error("daemon sent a line over the size limit")),
    });
    socket.on("data", (chunk: Buffer) => framer.push(chunk));
    socket.on("close", () => {
      this.#closed = true;
      this.#failAll(new Error("connection to the daemon closed"));
      for (const handler of this.#closeHandlers) handler();
    });
    socket.on("error", () => {});
  }

  /**
   * Without a path: the user's daemon, found as the CLI finds it ($TOOLPOOL_SOCKET, the default
   * socket, then the socket the running daemon recorded; see socket-discovery.ts).
   */
  static async connect(socketPath?: string, timeoutMs = 5_000): Promise<ToolpoolClient> {
    return ToolpoolClient.#connectTo(socketPath ?? (await locateDaemon()).socketPath, timeoutMs);
  }

  static #connectTo(socketPath: string, timeoutMs: number): Promise<ToolpoolClient> {
    return new Promise((resolve, reject) => {
      const socket = netConnect(socketPath);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new NotRunningError(`no answer from ${socketPath} within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.once("connect", () => {
        clearTimeout(timer);
        resolve(new ToolpoolClient(socket, socketPath));
      });
      socket.once("error", (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        const missing = error.code === "ENOENT" || error.code === "ECONNREFUSED";
        reject(missing ? new NotRunningError(`no toolpool daemon is running on ${socketPath}`) : error);
      });
    });
  }

  /** One method of the table, its params and result typed from it (src/protocol/method-table.ts). */
  request<M extends MethodName>(method: M, params?: ParamsOf<M>, options?: RequestOptions): Promise<ResultOf<M>> {
    return this.#send(method, (params ?? {}) as Record<string, unknown>, options ?? {}) as Promise<ResultOf<M>>;
  }

  #send(method: string, params: Record<string, unknown>, options: RequestOptions): Promise<unknown> {
    if (this.#closed) return Promise.reject(new Error("connection to the daemon is closed"));
    // Already cancelled: an abort event will never fire, so the request must not be sent at all.
    if (options.signal?.aborted) return Promise.reject(new DaemonError(-32800, "request cancelled"));
    const id = this.#nextId++;
    const withMeta = options.onProgress ? { ...params, _meta: { progressToken: id } } : params;
    const signal = options.signal;
    return new Promise<unknown>((resolve, reject) => {
      const onAbort = () => {
        if (!this.#pending.delete(id)) return;
        this.notify(Method.Cancelled, { requestId: id, reason: "cancelled by the client" });
        reject(new DaemonError(-32800, "request cancelled"));
      };
      // Settling removes the listener: one signal may outlive thousands of requests.
      const settled = <A extends unknown[]>(finish: (...args: A) => void) => (...args: A) => {
        signal?.removeEventListener("abort", onAbort);
        finish(...args);
      };
      const pending: Pending = { resolve: settled(resolve), reject: settled(reject) };
      if (options.onProgress) pending.onProgress = options.onProgress;
      this.#pending.set(id, pending);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.socket.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params: withMeta })}\n`);
    });
  }

  notify(method: string, params: Record<string, unknown> = {}): void {
    if (!this.#closed) this.socket.write(`${JSON.stringify({ jsonrpc: "2.0", method, params })}\n`);
  }

  onNotification(handler: (method: string, params: Record<string, unknown>) => void): () => void {
    this.#notificationHandlers.add(handler);
    return () => this.#notificationHandlers.delete(handler);
  }

  /** Whether the connection is gone (closed by either side); a closed client never reopens. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Called once when the connection closes, whichever side closed it. */
  onClose(handler: () => void): () => void {
    this.#closeHandlers.add(handler);
    return () => this.#closeHandlers.delete(handler);
  }

  session(params: SessionParams = {}): Promise<SessionResult> {
    return this.request(Method.Session, params);
  }

  assemble(params: AssembleParams): Promise<AssembleResult> {
    return this.request(Method.Assemble, params);
  }

  call(params: CallParams, options?: RequestOptions): Promise<CallResult> {
    return this.request(Method.Call, params, options);
  }

  search(params: SearchParams): Promise<SearchResult> {
    return this.request(Method.Search, params);
  }

  /** The block to put in a compaction summary so no discovered tool is lost. */
  compact(params: AssembleParams): Promise<CompactResult> {
    return this.request(Method.Compact, params);
  }

  /** The assistant turn began (tiers with PREFETCH): the daemon precomputes suggestions meanwhile. */
  turnStarted(params: PrefetchParams): void {
    this.notify(Method.TurnStarted, { ...params });
  }

  /** Suggestions for the turn that just ran, and the attachment to insert before the next request. */
  prefetch(params: PrefetchParams): Promise<PrefetchResult> {
    return this.request(Method.Prefetch, params);
  }

  status(): Promise<StatusResult> {
    return this.request(Method.Status);
  }

  /** The pool, or (with `profile`) what a session with that profile would have. */
  tools(params: { profile?: string } = {}): Promise<ToolsResult> {
    return this.request(Method.Tools, params);
  }

  /** Every configured MCP server: state, reason, tools, process, restarts. */
  /** Usage over a window (`toolpool stats`). */
  stats(params: StatsParams = {}): Promise<StatsResult> {
    return this.request(Method.Stats, params as Record<string, unknown>);
  }

  /** Forgets one workspace's usage history, or all of it (`toolpool history clear`). */
  clearHistory(params: HistoryClearParams = {}): Promise<HistoryClearResult> {
    return this.request(Method.HistoryClear, params as Record<string, unknown>);
  }

  servers(): Promise<ServersResult> {
    return this.request(Method.Servers);
  }

  serverLogs(name: string): Promise<ServerLogsResult> {
    return this.request(Method.ServerLogs, { name });
  }

  /** Restarts (and un-parks) a server; resolves once it is connected or has failed again. */
  restartServer(name: string): Promise<ServerRestartResult> {
    return this.request(Method.ServerRestart, { name });
  }

  shutdown(): Promise<{ stopping: boolean }> {
    return this.request(Method.Shutdown);
  }

  close(): void {
    this.#closed = true;
    this.socket.end();
  }

  #receive(line: string): void {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    if (typeof message.method === "string") {
      const params = (message.params ?? {}) as Record<string, unknown>;
      if (message.method === Method.Progress) {
        const token = params.progressToken as RequestId;
        this.#pending.get(token)?.onProgress?.(params);
      }
      for (const handler of this.#notificationHandlers) handler(message.method, params);
      return;
    }
    const id = message.id as RequestId;
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    if ("error" in message) {
      const error = message.error as JsonRpcErrorObject;
      pending.reject(new DaemonError(error.code, error.message, error.data));
    } else {
      pending.resolve(message.result);
    }
  }

  #failAll(error: Error): void {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}
