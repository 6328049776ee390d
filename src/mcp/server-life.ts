/**
 * The life of one MCP server's connection: its state, each connect attempt, what a failure leads to
 * (a retry after backoff, or parking after 5 rapid failures), a login it waits for, an approval that
 * lapsed. The calls (server-calls.ts) and the re-listing (server-listing.ts) read the live connection
 * from here and report back what they see of it (lost, needs a login, forgot our session).
 */
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { CacheScope } from "./cache-scope.ts";
import type { Logger } from "../runtime/logger.ts";
import { FailureTracker, type BackoffPolicy } from "./backoff.ts";
import { describeConnectFailure, withStderr } from "./call-errors.ts";
import type { ConnectLimiter } from "./connect-limiter.ts";
import { findNeedsAuth } from "./server-auth.ts";
import type { ServerConnection } from "./server-connection.ts";
import type { ServerSpec } from "./server-spec.ts";
import { ReadyGate } from "./ready-gate.ts";
import type { StderrRing } from "./stderr-ring.ts";
import type { TimerHandle, Timers } from "./timers.ts";
import { changedPin } from "../config/executed-files.ts";
import { dropHidden } from "./catalog-text.ts";
import { MAX_INSTRUCTIONS_CHARS } from "./server-connection-contract.ts";

export type ServerState = "idle" | "pending" | "connected" | "failed" | "parked" | "disabled" | "stopped" | "needs-auth" | "untrusted";

export interface LifeDeps {
  limiter: ConnectLimiter;
  timers: Timers;
  logger: Logger;
  backoff: BackoffPolicy;
  connectTimeoutMs: number;
  stderr: StderrRing;
  /** A new connection, its events (lost, tools changed) already wired to the job each concerns. */
  open: (signal: AbortSignal) => Promise<ServerConnection>;
  /** The server's call timeout, which also bounds a listing. */
  timeoutMs: () => number;
  /** A fresh tool list arrived: on connect, after re-initializing. */
  onListing: (server: string, tools: McpTool[], scope?: CacheScope) => void;
  onState: (server: string) => void;
  /** The connection is live and waiting calls have it. */
  onConnected: (connection: ServerConnection) => void;
  inFlight: () => number;
}

const STATE_WORDING = { pending: "MCP server connecting", idle: "MCP server idle (starts again on first use)", stopped: "MCP server stopped" } as const;

export class ServerLife {
  #state: ServerState = "idle";
  #reason: string | undefined;
  #restarts = 0;
  #connection: ServerConnection | undefined;
  #instructions: string | undefined;
  #connectedAt = 0;
  #attempt: { controller: AbortController; done: Promise<void>; granted: boolean } | undefined;
  #retry: { handle: TimerHandle; at: number } | undefined;
  readonly #gate = new ReadyGate<ServerConnection>();
  readonly #failures: FailureTracker;
  readonly #lostReasons = new WeakMap<ServerConnection, string>();
  #discoverOnly = false;
  /** Untrusted because a file its approval pinned changed (not by its spec): every start checks again. */
  #lapsed = false;
  #reinitializing: Promise<ServerConnection> | undefined;

  constructor(
    private readonly spec: ServerSpec,
    private readonly deps: LifeDeps,
  ) {
    this.#failures = new FailureTracker(deps.backoff, deps.timers.random);
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
  /** The instructions of the last connection that gave any (kept while reconnecting). */
  get instructions(): string | undefined {
    return this.#instructions;
  }
  /** The live connection, if any. */
  get connection(): ServerConnection | undefined {
    return this.#connection;
  }
  get nextRetryAt(): number | undefined {
    return this.#retry?.at;
  }
  /** Why this connection was dropped, if it was. */
  lostReason(connection: ServerConnection): string | undefined {
    return this.#lostReasons.get(connection);
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
    this.wake();
    this.promote();
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

  /** An idle server (or one whose approval lapsed: it checks again) starts now, ahead of the queue. */
  wake(): void {
    if (this.#state === "idle" || this.#lapsed) this.#connect(true);
  }

  /** A queued background start that a call now waits for goes ahead of the rest of the queue. */
  promote(): void {
    if (this.#attempt && !this.#attempt.granted) this.deps.limiter.promote(this.#attempt.controller.signal);
  }

  /** Waits for the next connection, or the failure that ends the attempt; `onAbort()` if `signal` fires first. */
  waitConnected(signal: AbortSignal, onAbort: () => Error): Promise<ServerConnection> {
    return this.#gate.wait(signal, onAbort);
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
      connection = await this.deps.open(controller.signal);
      const opened = connection;
      // Stopping mid-listing must not wait for the listing's timeout: closing fails it at once.
      controller.signal.throwIfAborted();
      controller.signal.addEventListener("abort", () => void opened.close(), { once: true });
      const listing = await connection.listTools(this.deps.timeoutMs());
      release();
      controller.signal.throwIfAborted();
      const lost = this.#lostReasons.get(connection);
      if (lost !== undefined) throw new Error(lost);
      for (const warning of listing.warnings) this.deps.logger.warn("MCP tool list trimmed", { server: this.spec.name, warning });
      this.#connection = connection;
      // The server's words for the model, taken in here from either kind of connection: hidden characters dropped (catalog-text.ts).
      const instructions = connection.instructions === undefined ? "" : dropHidden(connection.instructions, MAX_INSTRUCTIONS_CHARS);
      if (instructions.trim() !== "") this.#instructions = instructions;
      this.#connectedAt = this.deps.timers.now();
      this.#setState("connected", undefined);
      this.deps.logger.info("MCP server connected", { server: this.spec.name, tools: listing.tools.length, ms: this.#connectedAt - started, pid: connection.pid });
      this.deps.onListing(this.spec.name, listing.tools, listing.cacheScope);
      if (this.#discoverOnly && this.#gate.size === 0 && this.deps.inFlight() === 0) {
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
      this.deps.onConnected(connection);
    } catch (error) {
      release();
      await connection?.close().catch(() => {});
      if (controller.signal.aborted) return;
      const needsAuth = findNeedsAuth(error);
      if (needsAuth) return this.needsAuth(undefined, needsAuth.message);
      this.#failed(describeConnectFailure(error, this.deps.connectTimeoutMs, this.deps.stderr.tail(3)), undefined);
    }
  }

  #lapse(changed: string): void {
    this.#lapsed = true;
    const reason = `waiting for approval: ${changed}; run \`toolpool trust ${this.spec.origin}\` once you have checked it`;
    this.deps.logger.warn("MCP server not started: its approval lapsed", { server: this.spec.name, reason });
    this.#gate.fail(new Error(`MCP server "${this.spec.name}" did not start: ${reason}`));
    this.#setState("untrusted", reason);
  }

  /** The connection died (the process exited, the remote became unreachable): reconnect with backoff. */
  lost(connection: ServerConnection, reason: string): void {
    if (this.#lostReasons.has(connection)) return;
    this.#lostReasons.set(connection, reason);
    if (this.#connection !== connection) return;
    this.#connection = undefined;
    const upFor = this.deps.timers.now() - this.#connectedAt;
    void connection.close();
    this.#failed(withStderr(reason, this.deps.stderr.tail(3)), upFor);
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
      if (this.#gate.size > 0) this.promote();
    }, verdict.delayMs);
    this.#retry = { handle, at: this.deps.timers.now() + verdict.delayMs };
    this.#setState("failed", reason);
  }

  /** Not a failure to back off from: nothing will change until someone logs in. */
  needsAuth(connection: ServerConnection | undefined, reason: string): void {
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

  /** The HTTP server forgot our session (404): connect afresh once, shared by every call that saw it. */
  reinitialize(old: ServerConnection): Promise<ServerConnection> {
    if (this.#connection && this.#connection !== old) return Promise.resolve(this.#connection);
    this.#reinitializing ??= (async () => {
      this.deps.logger.info("MCP session expired; re-initializing", { server: this.spec.name });
      await old.close();
      const fresh = await this.deps.open(new AbortController().signal);
      const listing = await fresh.listTools(this.deps.timeoutMs());
      if (this.#state !== "connected" || this.#connection !== old) {
        await fresh.close();
        throw new Error("the server changed state while re-initializing");
      }
      this.#connection = fresh;
      this.#connectedAt = this.deps.timers.now();
      this.deps.onListing(this.spec.name, listing.tools, listing.cacheScope);
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
