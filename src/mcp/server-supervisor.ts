/**
 * One configured MCP server, supervised: its state, its live connection, its restarts.
 *
 *   idle ──call/ensureStarted──▶ pending ──ok──▶ connected ──crash──▶ failed ──backoff──▶ pending
 *                                   └──error──▶ failed ─(5 rapid failures)─▶ parked ──restart──▶ pending
 *
 * `idle` is a lazy server that has not been needed yet; `disabled` comes from the config; `stopped`
 * is a server removed by a reload or a pool shutting down. `needs-auth` is an HTTP server that
 * answered 401 with nothing left to refresh: it waits (no backoff, no parking) for
 * `toolpool auth login NAME`, which restarts it. `untrusted` is a project's server whose project file
 * the user has not approved (`toolpool trust`): it never starts. Calls made while a server is pending
 * wait for it; calls to a failed, parked or disabled server fail at once with the reason.
 */
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../runtime/logger.ts";
import { errorResult, type ToolResult } from "../tool/result.ts";
import type { ToolContext, ToolInput } from "../tool/tool.ts";
import { FailureTracker, type BackoffPolicy } from "./backoff.ts";
import { describeCallFailure, describeConnectFailure, describeUnavailable, withStderr } from "./call-errors.ts";
import type { ConnectLimiter } from "./connect-limiter.ts";
import { convertResult } from "./convert-result.ts";
import { findNeedsAuth } from "./server-auth.ts";
import { isSessionGone, type ConnectDeps, type Connector, type ServerConnection } from "./server-connection.ts";
import type { ServerSpec } from "./server-spec.ts";
import { ReadyGate } from "./ready-gate.ts";
import { StderrRing } from "./stderr-ring.ts";
import { delay, type TimerHandle, type Timers } from "./timers.ts";
import { RelistThrottle } from "./relist-throttle.ts";
import { changedPin } from "../config/executed-files.ts";
import { CallQueue, queueFullMessage } from "./call-queue.ts";

export type ServerState = "idle" | "pending" | "connected" | "failed" | "parked" | "disabled" | "stopped" | "needs-auth" | "untrusted";

export interface SupervisorDeps {
  connector: Connector;
  connect: Omit<ConnectDeps, "signal" | "stderr">;
  limiter: ConnectLimiter;
  timers: Timers;
  logger: Logger;
  backoff: BackoffPolicy;
  hardCapMs: number;
  /** The call timeout for a server whose config sets none (the `mcp_call_timeout_ms` flag). */
  defaultTimeoutMs: () => number;
  stderrBudget: number;
  /** A fresh tool list arrived: on connect, on list_changed, after re-initializing. */
  onListing: (server: string, tools: McpTool[]) => void;
  onState: (server: string) => void;
}

const STATE_WORDING = { pending: "MCP server connecting", idle: "MCP server idle (starts again on first use)", stopped: "MCP server stopped" } as const;

export class ServerSupervisor {
  /** Never past the hard cap, whatever a config or a flag says. */
  #timeoutMs(): number {
    return Math.min(this.spec.timeoutMs ?? this.deps.defaultTimeoutMs(), this.deps.hardCapMs);
  }

  readonly stderr: StderrRing;
  #state: ServerState = "idle";
  #reason: string | undefined;
  #restarts = 0;
  #inFlight = 0;
  #connection: ServerConnection | undefined;
  #instructions: string | undefined;
  #connectedAt = 0;
  #attempt: { controller: AbortController; done: Promise<void>; granted: boolean } | undefined;
  #retry: { handle: TimerHandle; at: number } | undefined;
  readonly #gate = new ReadyGate<ServerConnection>();
  readonly #failures: FailureTracker;
  readonly #lostReasons = new WeakMap<ServerConnection, string>();
  readonly #changedWhileConnecting = new WeakSet<ServerConnection>();
  #discoverOnly = false;
  /** Untrusted because a file its approval pinned changed (not by its spec): every start checks again. */
  #lapsed = false;
  readonly #relistThrottle: RelistThrottle;
  /** Only for a server whose entry sets `maxConcurrent`. */
  readonly #queue: CallQueue | undefined;
  #relisting: { connection: ServerConnection; again: boolean } | undefined;
  #reinitializing: Promise<ServerConnection> | undefined;

  constructor(
    readonly spec: ServerSpec,
    private readonly deps: SupervisorDeps,
  ) {
    this.stderr = new StderrRing(deps.stderrBudget);
    this.#failures = new FailureTracker(deps.backoff, deps.timers.random);
    this.#relistThrottle = new RelistThrottle(deps.timers);
    this.#queue = spec.maxConcurrent === undefined ? undefined : new CallQueue(spec.maxConcurrent, spec.maxQueued);
    if (spec.disabled) this.#state = "disabled";
    // A project's server nobody approved never starts, whatever asks for it.
    if (spec.untrusted !== undefined) {
      this.#state = "untrusted";
      this.#reason = spec.untrusted;
    }
  }

  get state(): ServerState {
    return this.#state;
  }
  get reason(): string | undefined {
    return this.#reason;
  }
  get restarts(): number {
    return this.#restarts;
  }
  get inFlight(): number {
    return this.#inFlight;
  }
  /** The instructions of the last connection that gave any (kept while reconnecting). */
  get instructions(): string | undefined {
    return this.#instructions;
  }

  get pid(): number | undefined {
    return this.#connection?.pid;
  }
  get nextRetryAt(): number | undefined {
    return this.#retry?.at;
  }

  /** Eager servers connect now (queued behind the limiter); lazy ones wait — unless `discover`, when they connect once to be listed, then go idle. */
  start(options: { discover?: boolean } = {}): void {
    if (this.#state !== "idle") return;
    if (this.spec.startup === "eager") return this.#connect(false);
    if (options.discover) {
      this.#discoverOnly = true;
      this.#connect(false);
    }
  }

  /** Starts a lazy (or idle) server now, ahead of the queue; resolves once it is connected or has failed. */
  async ensureStarted(): Promise<void> {
    if (this.#state === "idle" || this.#lapsed) this.#connect(true);
    this.#promote();
    await this.#attempt?.done;
  }

  /** Un-parks, or restarts a running server; resolves once it is connected or has failed. */
  async restart(): Promise<void> {
    if (this.#state === "untrusted" && !this.#lapsed) throw new Error(`MCP server "${this.spec.name}" is ${this.#reason}`);
    if (this.#state === "disabled" || this.#state === "stopped") throw new Error(`MCP server "${this.spec.name}" is ${this.#state}`);
    this.#failures.reset();
    this.#clearRetry();
    await this.#dropConnection("it was restarted by an operator");
    this.#restarts++;
    this.#connect(true);
    await this.#attempt?.done;
  }

  async stop(): Promise<void> {
    if (this.#state === "stopped") return;
    this.#clearRetry();
    this.#setState("stopped", undefined);
    this.#gate.fail(new Error(`MCP server "${this.spec.name}" was stopped`));
    await this.#dropConnection("the server was stopped");
  }

  async callTool(tool: string, input: ToolInput, context: ToolContext): Promise<ToolResult> {
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
        timeoutMs: this.#timeoutMs(),
        ...(context.onProgress && { onProgress: context.onProgress }),
        ...(context.questions && { questions: context.questions }),
      });
      return convertResult(result);
    } catch (error) {
      if (context.signal.aborted) return errorResult(`The call to ${tool} on MCP server "${this.spec.name}" was cancelled.`);
      const needsAuth = findNeedsAuth(error);
      if (needsAuth) {
        this.#needsAuth(connection, needsAuth.message);
        return errorResult(`The call to ${tool} did not run: ${needsAuth.message}.`);
      }
      if (mayReinitialize && isSessionGone(error)) {
        const fresh = await this.#reinitialize(connection).catch((reason: unknown) => {
          this.#onLost(connection, `re-initializing after the server forgot the session failed: ${(reason as Error).message}`);
          return undefined;
        });
        if (fresh) return this.#call(fresh, tool, input, context, false);
      }
      // A remote server that cannot be reached is handled like a crashed process: reconnect with backoff.
      if (this.spec.transport !== "stdio" && error instanceof TypeError) this.#onLost(connection, `the server is unreachable: ${error.message}`);
      return errorResult(
        describeCallFailure({
          server: this.spec.name,
          tool,
          error,
          lostReason: this.#lostReasons.get(connection),
          timeoutMs: this.#timeoutMs(),
        }),
      );
    }
  }

  /** The live connection, starting an idle server or waiting for a pending one; a clear error otherwise. */
  #ready(signal: AbortSignal): Promise<ServerConnection> {
    if (this.#state === "connected" && this.#connection) return Promise.resolve(this.#connection);
    if (this.#state === "idle" || this.#lapsed) this.#connect(true);
    if (this.#state === "pending" || this.#state === "connected") {
      this.#promote();
      return this.#gate.wait(signal, () => new Error(`The call was cancelled while MCP server "${this.spec.name}" was starting.`));
    }
    const retryInMs = this.#retry && this.#retry.at - this.deps.timers.now();
    // A short backoff is waited out (the retry keeps its time: calls must not hammer a crashing
    // server), as long as the reconnect can come within the call's own timeout.
    if (this.#state === "failed" && retryInMs !== undefined && retryInMs < this.#timeoutMs()) return this.#waitForRetry(signal, retryInMs);
    return Promise.reject(new Error(describeUnavailable(this.spec.name, this.#state, this.#reason, retryInMs)));
  }

  #waitForRetry(signal: AbortSignal, retryInMs: number): Promise<ServerConnection> {
    const timeoutMs = this.#timeoutMs();
    const timedOut = new AbortController();
    const timer = this.deps.timers.setTimeout(() => timedOut.abort(), timeoutMs);
    const reason = this.#reason;
    return this.#gate
      .wait(AbortSignal.any([signal, timedOut.signal]), () =>
        signal.aborted
          ? new Error(`The call was cancelled while MCP server "${this.spec.name}" was waiting to reconnect.`)
          : new Error(`MCP server "${this.spec.name}" did not reconnect within the call's ${timeoutMs / 1000} s timeout: ${reason ?? "it failed"}.`),
      )
      .finally(() => this.deps.timers.clearTimeout(timer));
  }

  /** A queued background start that a call now waits for goes ahead of the rest of the queue. */
  #promote(): void {
    if (this.#attempt && !this.#attempt.granted) this.deps.limiter.promote(this.#attempt.controller.signal);
  }

  #connect(priority: boolean): void {
    if (this.#attempt || this.#state === "stopped" || this.#state === "disabled" || (this.#state === "untrusted" && !this.#lapsed)) return;
    this.#clearRetry();
    const controller = new AbortController();
    this.#setState("pending", undefined);
    const done = this.#runAttempt(controller, priority).finally(() => {
      if (this.#attempt?.controller === controller) this.#attempt = undefined;
    });
    this.#attempt = { controller, done, granted: priority };
  }

  async #runAttempt(controller: AbortController, priority: boolean): Promise<void> {
    const started = this.deps.timers.now();
    let release = () => {};
    let connection: ServerConnection | undefined;
    try {
      if (!priority) {
        release = await this.deps.limiter.acquire(controller.signal);
        const promoted = this.#attempt?.controller === controller && this.#gate.size > 0;
        if (this.#attempt?.controller === controller) this.#attempt.granted = true;
        await this.deps.limiter.turn(promoted);
        controller.signal.throwIfAborted();
      }
      // The last moment before anything runs: a file the approval pinned (the project file, a
      // script it runs) that changed since — by Write, Edit, Bash or anyone — stops the start here.
      const lapsed = this.spec.pins && changedPin(this.spec.pins);
      if (lapsed) {
        release();
        this.#lapse(lapsed);
        return;
      }
      this.#lapsed = false;
      connection = await this.#open(controller.signal);
      const opened = connection;
      // Stopping mid-listing must not wait for the listing's timeout: closing fails it at once.
      controller.signal.throwIfAborted();
      controller.signal.addEventListener("abort", () => void opened.close(), { once: true });
      const listing = await connection.listTools(this.#timeoutMs());
      release();
      controller.signal.throwIfAborted();
      const lost = this.#lostReasons.get(connection);
      if (lost !== undefined) throw new Error(lost);
      for (const warning of listing.warnings) this.deps.logger.warn("MCP tool list trimmed", { server: this.spec.name, warning });
      this.#connection = connection;
      if (connection.instructions !== undefined) this.#instructions = connection.instructions;
      this.#connectedAt = this.deps.timers.now();
      this.#setState("connected", undefined);
      this.deps.logger.info("MCP server connected", { server: this.spec.name, tools: listing.tools.length, ms: this.#connectedAt - started, pid: connection.pid });
      this.deps.onListing(this.spec.name, listing.tools);
      if (this.#discoverOnly && this.#gate.size === 0 && this.#inFlight === 0) {
        // Listed for the catalog; a lazy server runs only when one of its tools is needed.
        this.#discoverOnly = false;
        this.#connection = undefined;
        await connection.close();
        // Stopped or restarted while closing: that owns the state now.
        if (controller.signal.aborted) return;
        this.#setState("idle", undefined);
        // A call arrived while the connection closed (the state still said connected): it waits on
        // the gate, and nothing else would ever open it.
        if (this.#gate.size > 0) {
          this.#attempt = undefined;
          this.#connect(true);
        }
        return;
      }
      this.#discoverOnly = false;
      this.#gate.open(connection);
      // The list changed while the first listing was in flight: that listing may be out of date.
      if (this.#changedWhileConnecting.has(connection)) this.#relist(connection);
    } catch (error) {
      release();
      await connection?.close().catch(() => {});
      if (controller.signal.aborted) return;
      const needsAuth = findNeedsAuth(error);
      if (needsAuth) return this.#needsAuth(undefined, needsAuth.message);
      this.#failed(describeConnectFailure(error, this.deps.connect.connectTimeoutMs, this.stderr.tail(3)), undefined);
    }
  }

  #lapse(changed: string): void {
    this.#lapsed = true;
    const reason = `waiting for approval: ${changed}; run \`toolpool trust ${this.spec.origin}\` once you have checked it`;
    this.deps.logger.warn("MCP server not started: its approval lapsed", { server: this.spec.name, reason });
    this.#gate.fail(new Error(`MCP server "${this.spec.name}" did not start: ${reason}`));
    this.#setState("untrusted", reason);
  }

  async #open(signal: AbortSignal): Promise<ServerConnection> {
    const connection = await this.deps.connector(this.spec, { ...this.deps.connect, signal, stderr: this.stderr });
    connection.onLost((reason) => this.#onLost(connection, reason));
    connection.onToolsChanged(() => this.#relist(connection));
    return connection;
  }

  #onLost(connection: ServerConnection, reason: string): void {
    if (this.#lostReasons.has(connection)) return;
    this.#lostReasons.set(connection, reason);
    if (this.#connection !== connection) return;
    this.#connection = undefined;
    const upFor = this.deps.timers.now() - this.#connectedAt;
    void connection.close();
    this.#failed(withStderr(reason, this.stderr.tail(3)), upFor);
  }

  #failed(reason: string, upForMs: number | undefined): void {
    const verdict = this.#failures.record(upForMs);
    this.#gate.fail(new Error(`MCP server "${this.spec.name}" failed to start: ${reason}`));
    if (verdict.action === "park") {
      this.deps.logger.error("MCP server parked", { server: this.spec.name, failures: verdict.failures, reason });
      this.#setState("parked", `${reason} — parked after ${verdict.failures} failures in a row; run \`toolpool servers restart ${this.spec.name}\` once it is fixed`);
      return;
    }
    // The first failure in a row is a warning; the retries after it are debug lines until the server
    // connects or is parked (an error): a broken server makes two lines, not one per retry.
    const fields = { server: this.spec.name, reason, retryInMs: verdict.delayMs, failures: verdict.failures };
    if (verdict.failures <= 1) this.deps.logger.warn("MCP server failed", { ...fields, note: "retrying with backoff; later failures are logged at debug until it connects or is parked" });
    else this.deps.logger.debug("MCP server failed again", fields);
    const handle = this.deps.timers.setTimeout(() => {
      this.#retry = undefined;
      this.#restarts++;
      this.#connect(false);
      // Calls waited out the backoff: their server goes ahead of the start queue.
      if (this.#gate.size > 0) this.#promote();
    }, verdict.delayMs);
    this.#retry = { handle, at: this.deps.timers.now() + verdict.delayMs };
    this.#setState("failed", reason);
  }

  /** Not a failure to back off from: nothing will change until someone logs in. */
  #needsAuth(connection: ServerConnection | undefined, reason: string): void {
    if (connection) {
      this.#lostReasons.set(connection, reason);
      if (this.#connection === connection) {
        this.#connection = undefined;
        void connection.close();
      }
    }
    this.#clearRetry();
    this.#failures.reset();
    this.#gate.fail(new Error(reason));
    if (this.#state !== "needs-auth") this.deps.logger.warn("MCP server needs a login", { server: this.spec.name, reason });
    this.#setState("needs-auth", reason);
  }

  #relist(connection: ServerConnection): void {
    if (connection !== this.#connection) {
      this.#changedWhileConnecting.add(connection);
      return;
    }
    // One loop per connection: a change on a new connection must not be left to the loop of an old
    // one, which stops once it sees its connection is gone.
    if (this.#relisting?.connection === connection) {
      this.#relisting.again = true;
      return;
    }
    const relisting = { connection, again: true };
    this.#relisting = relisting;
    void (async () => {
      try {
        // A change announced while a listing is under way (or while one fails) lists again: the
        // index must end on the server's latest list, not the one before its last change.
        while (relisting.again && connection === this.#connection) {
          const waitMs = this.#relistThrottle.take();
          if (waitMs > 0) await delay(this.deps.timers, waitMs);
          if (connection !== this.#connection) return;
          // Every notification up to here is answered by this one listing.
          relisting.again = false;
          try {
            const listing = await connection.listTools(this.#timeoutMs());
            if (connection !== this.#connection) return;
            this.deps.onListing(this.spec.name, listing.tools);
          } catch (error) {
            const needsAuth = findNeedsAuth(error);
            if (needsAuth) return this.#needsAuth(connection, needsAuth.message);
            this.deps.logger.warn("MCP tools re-listing failed", { server: this.spec.name, error: (error as Error).message });
          }
        }
      } finally {
        if (this.#relisting === relisting) this.#relisting = undefined;
      }
    })();
  }

  /** The HTTP server forgot our session (404): connect afresh once, shared by every call that saw it. */
  #reinitialize(old: ServerConnection): Promise<ServerConnection> {
    if (this.#connection && this.#connection !== old) return Promise.resolve(this.#connection);
    this.#reinitializing ??= (async () => {
      this.deps.logger.info("MCP session expired; re-initializing", { server: this.spec.name });
      await old.close();
      const fresh = await this.#open(new AbortController().signal);
      const listing = await fresh.listTools(this.#timeoutMs());
      if (this.#state !== "connected" || this.#connection !== old) {
        await fresh.close();
        throw new Error("the server changed state while re-initializing");
      }
      this.#connection = fresh;
      this.#connectedAt = this.deps.timers.now();
      this.deps.onListing(this.spec.name, listing.tools);
      return fresh;
    })().finally(() => {
      this.#reinitializing = undefined;
    });
    return this.#reinitializing;
  }

  async #dropConnection(reason: string): Promise<void> {
    const attempt = this.#attempt;
    attempt?.controller.abort(new Error(reason));
    const connection = this.#connection;
    this.#connection = undefined;
    if (connection) this.#lostReasons.set(connection, reason);
    await Promise.all([connection?.close(), attempt?.done]);
  }

  #clearRetry(): void {
    if (this.#retry) this.deps.timers.clearTimeout(this.#retry.handle);
    this.#retry = undefined;
  }

  #setState(state: ServerState, reason: string | undefined): void {
    const from = this.#state;
    // connected, failed and parked have their own, richer line; every other change gets this one.
    if (from !== state && (state === "pending" || state === "idle" || state === "stopped")) {
      this.deps.logger.info(STATE_WORDING[state], { server: this.spec.name, from, to: state });
    }
    this.#state = state;
    this.#reason = reason;
    this.deps.onState(this.spec.name);
  }
}
