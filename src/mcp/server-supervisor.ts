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
 *
 * Three jobs, one file each, wired together here: the connection's life (server-life.ts: connect,
 * retry, backoff, park, logins, lapsed approvals), the call path (server-calls.ts: waiting for the
 * connection, the queue, calls in flight, timeouts) and the re-listing (server-listing.ts). Each
 * event of a connection is routed, in `#open`, to the job it concerns.
 */
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { CacheScope } from "./cache-scope.ts";
import type { Logger } from "../runtime/logger.ts";
import type { ToolResult } from "../tool/result.ts";
import type { ToolContext, ToolInput } from "../tool/tool.ts";
import type { BackoffPolicy } from "./backoff.ts";
import type { ConnectLimiter } from "./connect-limiter.ts";
import { ServerCalls } from "./server-calls.ts";
import type { ConnectDeps, Connector, ServerConnection } from "./server-connection.ts";
import { ServerLife, type ServerState } from "./server-life.ts";
import { ServerListing } from "./server-listing.ts";
import type { ServerSpec } from "./server-spec.ts";
import { StderrRing } from "./stderr-ring.ts";
import type { Timers } from "./timers.ts";

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
  onListing: (server: string, tools: McpTool[], scope?: CacheScope) => void;
  onState: (server: string) => void;
}

export class ServerSupervisor {
  readonly stderr: StderrRing;
  readonly #life: ServerLife;
  readonly #calls: ServerCalls;
  readonly #listing: ServerListing;

  constructor(
    readonly spec: ServerSpec,
    private readonly deps: SupervisorDeps,
  ) {
    this.stderr = new StderrRing(deps.stderrBudget);
    const timeoutMs = () => this.#timeoutMs();
    // The jobs call back into each other only through these closures, after construction.
    this.#life = new ServerLife(spec, {
      limiter: deps.limiter,
      timers: deps.timers,
      logger: deps.logger,
      backoff: deps.backoff,
      connectTimeoutMs: deps.connect.connectTimeoutMs,
      stderr: this.stderr,
      open: (signal) => this.#open(signal),
      timeoutMs,
      onListing: deps.onListing,
      onState: deps.onState,
      onConnected: (connection) => this.#listing.connected(connection),
      inFlight: () => this.#calls.inFlight,
    });
    this.#listing = new ServerListing({ server: spec.name, life: this.#life, timers: deps.timers, logger: deps.logger, timeoutMs, onListing: deps.onListing });
    this.#calls = new ServerCalls(spec, this.#life, deps.timers, timeoutMs);
  }

  get state(): ServerState {
    return this.#life.state;
  }
  get reason(): string | undefined {
    return this.#life.reason;
  }
  get restarts(): number {
    return this.#life.restarts;
  }
  get inFlight(): number {
    return this.#calls.inFlight;
  }
  /** The instructions of the last connection that gave any (kept while reconnecting). */
  get instructions(): string | undefined {
    return this.#life.instructions;
  }
  get pid(): number | undefined {
    return this.#life.connection?.pid;
  }
  get nextRetryAt(): number | undefined {
    return this.#life.nextRetryAt;
  }

  /** Eager servers connect now (queued behind the limiter); lazy ones wait — unless `discover`, when they connect once to be listed, then go idle. */
  start(options: { discover?: boolean } = {}): void {
    this.#life.start(options);
  }

  /** Starts a lazy (or idle) server now, ahead of the queue; resolves once it is connected or has failed. */
  ensureStarted(): Promise<void> {
    return this.#life.ensureStarted();
  }

  /** Un-parks, or restarts a running server; resolves once it is connected or has failed. */
  restart(): Promise<void> {
    return this.#life.restart();
  }

  stop(): Promise<void> {
    return this.#life.stop();
  }

  callTool(tool: string, input: ToolInput, context: ToolContext): Promise<ToolResult> {
    return this.#calls.call(tool, input, context);
  }

  /** Never past the hard cap, whatever a config or a flag says. */
  #timeoutMs(): number {
    return Math.min(this.spec.timeoutMs ?? this.deps.defaultTimeoutMs(), this.deps.hardCapMs);
  }

  /** A new connection, each of its events routed to the job it concerns. */
  async #open(signal: AbortSignal): Promise<ServerConnection> {
    const connection = await this.deps.connector(this.spec, { ...this.deps.connect, signal, stderr: this.stderr });
    connection.onLost((reason) => this.#life.lost(connection, reason));
    connection.onToolsChanged(() => this.#listing.changed(connection));
    return connection;
  }
}
