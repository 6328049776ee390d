/**
 * The TypeScript client for the daemon: connect, then session / assemble / call / status, typed
 * from the protocol definitions. Plain node:net, so it works from Node and Bun alike.
 */
import { connect as netConnect, type Socket } from "node:net";
import { locateDaemon } from "./socket-discovery.ts";
import { jsonShapeProblem, LineFramer } from "../protocol/line-framer.ts";
import { RpcError, type JsonRpcErrorObject, type RequestId } from "../protocol/jsonrpc.ts";
import { MAX_JSON_DEPTH, MAX_JSON_MEMBERS, MAX_LINE_BYTES } from "../protocol/limits.ts";
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
import { ANSWERS_META_KEY, ASKER_META_KEY, type AnswerableKind, type QuestionNotification } from "../protocol/question-methods.ts";

export type { AnswerableKind, QuestionNotification };
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
  /**
   * A call's servers' questions (docs/protocol.md "Questions from servers"): the kinds this client
   * answers, and how. The handler resolves with the request's result (an ElicitResult, a
   * CreateMessageResult); a throw answers with an error. Its signal aborts when the question is withdrawn.
   */
  answers?: QuestionAnswerer;
}

export interface QuestionAnswerer {
  kinds: readonly AnswerableKind[];
  /**
   * Who answers (`_meta["toolpool/asker"]`): calls naming different askers are never put each
   * other's questions. Absent, every call of the session shares one asker (the same person).
   */
  asker?: string;
  answer: (question: QuestionNotification, signal: AbortSignal) => Promise<Record<string, unknown>>;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  onProgress?: (progress: Record<string, unknown>) => void;
  answers?: QuestionAnswerer;
}

export class ToolpoolClient {
  readonly #pending = new Map<RequestId, Pending>();
  readonly #notificationHandlers = new Set<(method: string, params: Record<string, unknown>) => void>();
  readonly #closeHandlers = new Set<() => void>();
  /** Questions being answered, by id: withdrawn ones are aborted. */
  readonly #questions = new Map<string, AbortController>();
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
    const meta = {
      ...(options.onProgress && { progressToken: id }),
      ...(options.answers && options.answers.kinds.length > 0 && { [ANSWERS_META_KEY]: [...options.answers.kinds] }),
      ...(options.answers?.asker !== undefined && options.answers.kinds.length > 0 && { [ASKER_META_KEY]: options.answers.asker }),
    };
    const withMeta = Object.keys(meta).length > 0 ? { ...params, _meta: meta } : params;
    const line = `${JSON.stringify({ jsonrpc: "2.0", id, method, params: withMeta })}\n`;
    // The daemon refuses such a line without reading its id (the answer names id null) or, past the
    // line limit, closes the connection: refused here, it fails this request only, at once.
    const problem = outgoingProblem(line);
    if (problem) return Promise.reject(new DaemonError(-32600, `Invalid request: ${problem}; nothing was sent to the daemon`));
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
      if (options.answers) pending.answers = options.answers;
      this.#pending.set(id, pending);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.socket.write(line);
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

  /** The pool, or (with `profile`) what a session with that profile would have; every page of it. */
  async tools(params: { profile?: string } = {}): Promise<ToolsResult> {
    const first = await this.request(Method.Tools, params);
    const tools = [...first.tools];
    for (let cursor = first.nextCursor; cursor !== undefined; ) {
      const page = await this.request(Method.Tools, { ...params, cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    }
    return { tools, collisions: first.collisions };
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
      if (message.method === Method.Question) this.#answer(params as unknown as QuestionNotification);
      if (message.method === Method.QuestionWithdrawn) {
        const withdrawn = this.#questions.get(String(params.questionId));
        this.#questions.delete(String(params.questionId));
        withdrawn?.abort(new Error(String(params.reason ?? "withdrawn")));
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

  /** A question for one of this client's own calls goes to that call's answerer; its answer goes back. */
  #answer(question: QuestionNotification): void {
    const answers = this.#pending.get(question.requestId)?.answers;
    if (!answers || typeof question.questionId !== "string" || this.#questions.has(question.questionId)) return;
    const controller = new AbortController();
    this.#questions.set(question.questionId, controller);
    const reply = (answer: Record<string, unknown>) => {
      if (!this.#questions.delete(question.questionId) || controller.signal.aborted) return;
      // An answer the daemon refuses (too large, malformed) leaves the question open: it is
      // answered with that refusal instead, so the call ends now, saying why, not at its deadline.
      this.request(Method.Answer, { questionId: question.questionId, ...answer }).catch((error: unknown) => {
        if (!(error instanceof DaemonError) || !("result" in answer)) return;
        const message = `its answer was refused: ${error.message}`.slice(0, 4000);
        this.request(Method.Answer, { questionId: question.questionId, error: { code: error.code, message } }).catch(() => {});
      });
    };
    answers.answer(question, controller.signal).then(
      (result) => reply({ result }),
      (error: unknown) => reply({ error: { code: typeof (error as { code?: unknown }).code === "number" ? (error as { code: number }).code : -32603, message: (error instanceof Error ? error.message : String(error)).slice(0, 4000) } }),
    );
  }

  #failAll(error: Error): void {
    for (const controller of this.#questions.values()) controller.abort(error);
    this.#questions.clear();
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}

/** Why the daemon would refuse this line before reading its id, or undefined. */
function outgoingProblem(line: string): string | undefined {
  const bytes = Buffer.byteLength(line);
  if (bytes > MAX_LINE_BYTES) return `the request is ${bytes} bytes, over the daemon's ${MAX_LINE_BYTES}-byte line limit`;
  const shape = jsonShapeProblem(line, MAX_JSON_DEPTH, MAX_JSON_MEMBERS);
  return shape === undefined ? undefined : `the request is ${shape} (the daemon's limit)`;
}
