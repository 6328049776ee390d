/**
 * The call path of one MCP server: a call waits for the connection (a starting server, or a short
 * backoff, within the call's timeout), takes a slot of the server's queue if its entry sets
 * `maxConcurrent`, runs under the server's silence timeout, and turns what went wrong into one clear
 * error. What a call learns of the connection (lost, needs a login, forgot our session) goes back to
 * its life (server-life.ts).
 */
import { errorResult, type ToolResult } from "../tool/result.ts";
import type { ToolContext, ToolInput } from "../tool/tool.ts";
import { describeCallFailure, describeUnavailable } from "./call-errors.ts";
import { CallQueue, queueFullMessage } from "./call-queue.ts";
import { convertResult } from "./convert-result.ts";
import { findNeedsAuth } from "./server-auth.ts";
import { isSessionGone, type ServerConnection } from "./server-connection.ts";
import type { ServerLife } from "./server-life.ts";
import type { ServerSpec } from "./server-spec.ts";
import type { Timers } from "./timers.ts";

export class ServerCalls {
  #inFlight = 0;
  /** Only for a server whose entry sets `maxConcurrent`. */
  readonly #queue: CallQueue | undefined;

  constructor(
    private readonly spec: ServerSpec,
    private readonly life: ServerLife,
    private readonly timers: Timers,
    /** The server's call timeout, never past the hard cap. */
    private readonly timeoutMs: () => number,
  ) {
    this.#queue = spec.maxConcurrent === undefined ? undefined : new CallQueue(spec.maxConcurrent, spec.maxQueued);
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  async call(tool: string, input: ToolInput, context: ToolContext): Promise<ToolResult> {
    let connection: ServerConnection;
    try {
      connection = await this.#ready(context.signal);
    } catch (error) {
      return errorResult((error as Error).message);
    }
    const slot = await this.#queue?.acquire(context.signal);
    if (slot?.kind === "full") return errorResult(queueFullMessage(this.spec.name, tool, this.#queue!.maxConcurrent, slot.waiting));
    if (slot?.kind === "aborted") return errorResult(`The call to ${tool} on MCP server "${this.spec.name}" was cancelled while it waited for a free slot.`);
    this.#inFlight++;
    try {
      return await this.#call(connection, tool, input, context, true);
    } finally {
      this.#inFlight--;
      slot?.release();
    }
  }

  async #call(connection: ServerConnection, tool: string, input: ToolInput, context: ToolContext, mayReinitialize: boolean): Promise<ToolResult> {
    // The call's deadline is the pipeline's (the hard cap): its signal aborts the request, which
    // sends the server notifications/cancelled. Ours is only the server's silence, reset by progress.
    try {
      const result = await connection.callTool(tool, input, {
        signal: context.signal,
        timeoutMs: this.timeoutMs(),
        ...(context.onProgress && { onProgress: context.onProgress }),
        ...(context.questions && { questions: context.questions }),
        ...(context.traceparent && { traceparent: context.traceparent }),
      });
      return convertResult(result);
    } catch (error) {
      if (context.signal.aborted) return errorResult(`The call to ${tool} on MCP server "${this.spec.name}" was cancelled.`);
      const needsAuth = findNeedsAuth(error);
      if (needsAuth) {
        this.life.needsAuth(connection, needsAuth.message);
        return errorResult(`The call to ${tool} did not run: ${needsAuth.message}.`);
      }
      if (mayReinitialize && isSessionGone(error)) {
        const fresh = await this.life.reinitialize(connection).catch((reason: unknown) => {
          this.life.lost(connection, `re-initializing after the server forgot the session failed: ${(reason as Error).message}`);
          return undefined;
        });
        if (fresh) return this.#call(fresh, tool, input, context, false);
      }
      // A remote server that cannot be reached is handled like a crashed process: reconnect with backoff.
      if (this.spec.transport !== "stdio" && error instanceof TypeError) this.life.lost(connection, `the server is unreachable: ${error.message}`);
      return errorResult(
        describeCallFailure({
          server: this.spec.name,
          tool,
          error,
          lostReason: this.life.lostReason(connection),
          timeoutMs: this.timeoutMs(),
        }),
      );
    }
  }

  /** The live connection, starting an idle server or waiting for a pending one; a clear error otherwise. */
  #ready(signal: AbortSignal): Promise<ServerConnection> {
    const life = this.life;
    if (life.state === "connected" && life.connection) return Promise.resolve(life.connection);
    life.wake();
    if (life.state === "pending" || life.state === "connected") {
      life.promote();
      return life.waitConnected(signal, () => new Error(`The call was cancelled while MCP server "${this.spec.name}" was starting.`));
    }
    const retryInMs = life.nextRetryAt === undefined ? undefined : life.nextRetryAt - this.timers.now();
    // A short backoff is waited out (the retry keeps its time: calls must not hammer a crashing
    // server), as long as the reconnect can come within the call's own timeout.
    if (life.state === "failed" && retryInMs !== undefined && retryInMs < this.timeoutMs()) return this.#waitForRetry(signal, retryInMs);
    return Promise.reject(new Error(describeUnavailable(this.spec.name, life.state, life.reason, retryInMs)));
  }

  #waitForRetry(signal: AbortSignal, retryInMs: number): Promise<ServerConnection> {
    const timeoutMs = this.timeoutMs();
    const timedOut = new AbortController();
    const timer = this.timers.setTimeout(() => timedOut.abort(), timeoutMs);
    const reason = this.life.reason;
    return this.life
      .waitConnected(AbortSignal.any([signal, timedOut.signal]), () =>
        signal.aborted
          ? new Error(`The call was cancelled while MCP server "${this.spec.name}" was waiting to reconnect.`)
          : new Error(`MCP server "${this.spec.name}" did not reconnect within the call's ${timeoutMs / 1000} s timeout: ${reason ?? "it failed"}.`),
      )
      .finally(() => this.timers.clearTimeout(timer));
  }
}
