/**
 * The daemon: the wire in front of the core (src/core/) — the socket and its lock, connections,
 * dispatch, and the lifecycle: listen, serve, reload on SIGHUP, drain and stop on SIGTERM/SIGINT
 * (SPEC §11). Everything a request is about (the pool, sessions, calls) is the core's.
 */
import { feature } from "bun:bundle";
import { buildInfo, type BuildInfo } from "../build-info.ts";
import type { Config } from "../config/schema.ts";
import { loadConfig, type ConfigSource } from "../config/load.ts";
import { BUFFER_BUDGET_BYTES, PARTIAL_LINE_TIMEOUT_MS, STOP_BUDGET_MS } from "../protocol/limits.ts";
import type { Session } from "../session/session.ts";
import { Connection } from "./connection.ts";
import type { Peer, PeerLink } from "./peer.ts";
import { Dispatcher } from "./dispatcher.ts";
import { drainRequests, settleStep } from "./shutdown-steps.ts";
import { registerAdminMethods } from "./handlers/admin.ts";
import { registerHarnessMethods, unknownSession } from "./handlers/harness.ts";
import { registerMcpMethods } from "./handlers/mcp.ts";
import { answerQuestion } from "./question-channel.ts";
import { registerExplainMethod } from "./handlers/explain.ts";
import type { CommandSandbox } from "../sandbox/command-sandbox.ts";
import { logSandbox } from "../sandbox/sandbox-log.ts";
import { registerAuthMethods } from "./handlers/auth.ts";
import { registerProjectMethods } from "./handlers/projects.ts";
import { registerUsageMethods } from "./handlers/usage.ts";
import { registerSessionsMethod } from "./handlers/sessions.ts";
import type { Logger } from "../runtime/logger.ts";
import { ConnectionBudget } from "./connection-budget.ts";
import { DispatchTurns } from "./dispatch-turns.ts";
import { openDaemonSocket, type DaemonSocket } from "./daemon-socket.ts";
import { startProcessLifecycle, type ProcessLifecycle } from "./process-lifecycle.ts";
import { checkSocketPathFree, prepareSocketDirectory } from "./socket-path.ts";
import type { SessionBinding, WireFacts } from "./state.ts";
import { Method } from "../protocol/method-names.ts";
import { META_SUBSCRIPTION_ID } from "../protocol/mcp-revisions.ts";
import type { CronService } from "../cron/cron-service.ts";
import type { CronLink } from "./cron-link.ts";
import { ToolPoolCore, type CoreOptions } from "../core/tool-pool-core.ts";

export interface DaemonOptions {
  socketPath: string;
  config: Config;
  configSource: ConfigSource;
  builtins: CoreOptions["builtins"];
  logger: Logger;
  env?: NodeJS.ProcessEnv;
  info?: BuildInfo;
  /** Adds the reference MCP servers from ./node_modules/.bin (`toolpool serve --demo`). */
  demo?: boolean;
  /** Runtime flags; by default built from `config.flags` (GrowthBook, or embedded defaults). */
  flags?: CoreOptions["flags"];
  /** The cron service (AGENT_TRIGGERS tiers); the daemon delivers its firings and closes it. */
  cron?: CronService;
  /**
   * This daemon is the whole process (`toolpool serve`): it becomes a child subreaper, reaps what a
   * killed predecessor left, and ends every descendant at stop. Off for daemons inside test runners.
   */
  ownsProcess?: boolean;
  /** Overrides for the MCP pool (tests: cache path, timings). */
  mcpOptions?: CoreOptions["mcpOptions"];
  /** The usage history file (`":memory:"` in tests); default `usage.sqlite` in the state dir. */
  usageDatabasePath?: string;
  /** The kernel sandbox Bash runs in (the same one handed to the Bash tool); reported by status and explain. */
  sandbox?: CommandSandbox;
  /** How long a stop waits for calls in flight before cancelling them (SPEC §11: 5 s; tests: less). */
  drainTimeoutMs?: number;
}

export class Daemon implements SessionBinding, WireFacts {
  readonly core: ToolPoolCore;
  readonly info: BuildInfo;
  readonly socketPath: string;
  readonly startedAt = Date.now();
  readonly logger: Logger;
  /** Socket connections and in-memory peers alike. */
  readonly connections = new Set<Peer>();
  readonly sandbox: CommandSandbox | undefined;
  readonly #dispatcher: Dispatcher;
  readonly #configSource: ConfigSource;
  #cron: CronLink | undefined;
  #socket: DaemonSocket | undefined;
  #processes: ProcessLifecycle | undefined;
  readonly #ownsProcess: boolean;
  readonly #drainTimeoutMs: number | undefined;
  /** Buffered input and unsent output, shared by every connection; the largest holder goes first. */
  readonly budget: ConnectionBudget;
  readonly #turns = new DispatchTurns();
  #stopping: Promise<void> | undefined;
  #stopped = Promise.withResolvers<void>();
  /** Sessions opened implicitly for a connection (see sessionFor); dropped when it closes. */
  readonly #implicit = new WeakSet<Session>();

  constructor(options: DaemonOptions) {
    this.info = options.info ?? buildInfo();
    this.socketPath = options.socketPath;
    this.logger = options.logger;
    this.#configSource = options.configSource;
    this.#ownsProcess = options.ownsProcess ?? false;
    this.sandbox = options.sandbox;
    this.#drainTimeoutMs = options.drainTimeoutMs;
    this.budget = new ConnectionBudget(options.config.connections?.bufferBudgetBytes ?? BUFFER_BUDGET_BYTES, this.logger);
    this.core = new ToolPoolCore({
      config: options.config,
      configSource: options.configSource,
      builtins: options.builtins,
      logger: options.logger,
      info: this.info,
      ...(options.env && { env: options.env }),
      ...(options.demo !== undefined && { demo: options.demo }),
      ...(options.flags && { flags: options.flags }),
      ...((options.mcpOptions || options.sandbox) && { mcpOptions: { ...options.mcpOptions, ...(options.sandbox && { confine: options.sandbox.confineServer }) } }),
      ...(options.usageDatabasePath !== undefined && { usageDatabasePath: options.usageDatabasePath }),
    });
    this.core.live.onToolsChanged(() => {
      for (const connection of this.connections) {
        if (connection.listens.size === 0) connection.send({ jsonrpc: "2.0", method: Method.ToolsListChanged });
        for (const id of connection.listens) connection.send({ jsonrpc: "2.0", method: Method.ToolsListChanged, params: { _meta: { [META_SUBSCRIPTION_ID]: id } } });
      }
    });
    this.#dispatcher = new Dispatcher(this.logger);
    registerMcpMethods(this.#dispatcher, this.core, this);
    registerHarnessMethods(this.#dispatcher, this.core, this);
    this.#dispatcher.register(Method.Answer, answerQuestion);
    registerAdminMethods(this.#dispatcher, this.core, this);
    registerExplainMethod(this.#dispatcher, this.core, () => this.sandbox?.state());
    registerAuthMethods(this.#dispatcher, this.core);
    registerProjectMethods(this.#dispatcher, this.core);
    registerUsageMethods(this.#dispatcher, this.core);
    registerSessionsMethod(this.#dispatcher, this.core);
    if (feature("PREFETCH")) {
      (require("./handlers/prefetch.ts") as typeof import("./handlers/prefetch.ts")).registerPrefetchMethods(this.#dispatcher, this.core, this);
    }
    if (feature("AGENT_TRIGGERS")) {
      const { CronLink: Link } = require("./cron-link.ts") as typeof import("./cron-link.ts");
      if (options.cron) this.#cron = new Link(options.cron, () => this.connections, this, this.logger, this.#dispatcher);
    }
  }

  /** Sessions, as tests and the handlers' callers know them (the core's store). */
  get sessions() {
    return this.core.sessions;
  }

  /** The session a request means: the one it names, else its connection's (opened on first use). */
  sessionFor(connection: Peer, sessionId: string | undefined): Session {
    if (sessionId) {
      const named = this.core.sessions.get(sessionId);
      if (!named) throw unknownSession(sessionId);
      return named;
    }
    const current = connection.sessionId ? this.core.sessions.get(connection.sessionId) : undefined;
    if (current) return current;
    // A connection that never opened a session speaks plain MCP: it sends no transcript, so it
    // gets the proxy view (ToolSearch + ExecuteExtraTool), whose discoveries the session remembers.
    const session = this.core.openImplicitSession(connection.id);
    this.#implicit.add(session);
    this.bind(connection, session);
    return session;
  }

  /**
   * The one place a connection's session changes (opened, resumed, switched, or the connection
   * closed with `undefined`): attach counts move, and what the connection held for the old
   * session (cron firings) goes back to it.
   */
  bind(connection: Peer, session: Session | undefined): void {
    const previous = connection.sessionId ? this.core.sessions.get(connection.sessionId) : undefined;
    if (session && previous === session) {
      this.#cron?.sessionAttached(session.id);
      return;
    }
    if (previous) this.core.sessions.detach(previous);
    if (session) {
      this.core.sessions.attach(session);
      connection.sessionId = session.id;
    } else {
      connection.sessionId = undefined;
    }
    // After the switch, so what it gives back is not handed straight back to it. A closing
    // connection gives back what it held even when its session is gone from the store.
    if (previous || !session) this.#cron?.connectionLeft(connection);
    if (session) this.#cron?.sessionAttached(session.id);
  }

  /** Listens on the socket. Throws AlreadyRunningError or SocketPathError before touching anything live. */
  async start(): Promise<void> {
    this.core.live.observeConfigProjects();
    // A bad MCP server entry (an unset ${VAR}, a broken .mcp.json) refuses the start, naming it.
    const servers = await this.core.live.serverSpecs();
    prepareSocketDirectory(this.socketPath);
    checkSocketPathFree(this.socketPath);
    // Half-open allowed: a client may send its requests and shut its write side (`printf … | nc -U`);
    // it still gets every answer, and the connection closes once the last one is written.
    this.#socket = await openDaemonSocket(this.socketPath, (socket) => this.#accept(socket), this.logger, (reason) => this.requestShutdown(reason));
    if (this.#ownsProcess) this.#processes = startProcessLifecycle(this.logger, process.env);
    this.core.live.startMcp(servers, this.#processes?.registry);
    this.#cron?.start();
    // The probe runs beside the start (a Bash call waits for it); its answer is logged when it comes.
    if (this.sandbox) void this.sandbox.ready().then((state) => logSandbox(this.logger, state));
    this.logger.info("listening", { socket: this.socketPath, tier: this.info.tier, version: this.info.version, tools: this.core.pool().tools.length });
  }

  /** Resolves when the daemon has stopped. */
  get stopped(): Promise<void> {
    return this.#stopped.promise;
  }

  requestShutdown(reason: string): void {
    void this.stop(reason);
  }

  /** Stop accepting, drain in-flight calls (≤ 5 s, or the injected drain time), cancel the rest, remove the socket. */
  stop(reason: string): Promise<void> {
    this.#stopping ??= this.#stop(reason);
    return this.#stopping;
  }

  async #stop(reason: string): Promise<void> {
    // SPEC §11: out within 10 s, whatever is running. Drain ≤ 5 s, cancel ≤ 1 s, the rest shares what is left.
    const deadline = Date.now() + STOP_BUDGET_MS;
    const stats = this.core.stats;
    this.logger.info("stopping", { reason, inFlight: stats.callsInFlight });
    this.core.live.markClosing();
    this.#dispatcher.stopAcceptingWork();
    // The socket stays while we drain (new clients are told "shutting down"), and a `serve` started
    // now waits for us instead of finding no socket and taking the path.
    this.#socket?.stopping();
    await drainRequests(this.connections, () => stats.callsInFlight, this.logger, this.#drainTimeoutMs);
    for (const connection of this.connections) connection.close();
    const remaining = () => Math.max(250, deadline - Date.now());
    // Each step is bounded and none may keep the socket and lock behind if it fails. Stopping MCP
    // servers kills their process groups (SIGTERM, then SIGKILL after a grace period).
    await Promise.all([
      settleStep(this.logger, "stopping MCP servers", () => Promise.race([this.core.live.stopMcp(), Bun.sleep(remaining())])),
      settleStep(this.logger, "closing runtime flags", () => Promise.race([this.core.closeFlags(), Bun.sleep(Math.min(1_000, remaining()))])),
      settleStep(this.logger, "closing cron", async () => this.#cron?.close()),
      settleStep(this.logger, "writing usage history", () => this.core.closeSessions()),
      settleStep(this.logger, "flushing metrics", () => this.core.metrics.shutdown(Math.min(2_000, remaining()))),
    ]);
    await settleStep(this.logger, "ending leftover processes", async () => this.#processes?.stop());
    // Only the socket we created is removed (by inode), and only now that nothing of ours runs.
    await Promise.race([this.#socket?.close(), Bun.sleep(Math.min(1_000, remaining()))]);
    this.core.live.removeScratch();
    this.logger.info("stopped");
    this.#stopped.resolve();
  }

  async reload(): Promise<void> {
    // A SIGHUP during shutdown must not start servers that the stop has already passed by.
    if (this.#stopping) return;
    try {
      const { config } = await loadConfig(this.#configSource);
      if (this.#stopping) return;
      await this.core.reconfigure(config);
      this.logger.setLevel(config.logLevel);
      this.logger.info("config reloaded", { tools: this.core.pool().tools.length });
    } catch (error) {
      this.logger.error("config reload failed; keeping the previous config", { error: (error as Error).message });
    }
  }

  /**
   * A peer joins (a socket connection, or an in-memory one in tests): its lines are dispatched, and
   * when it ends it is bound to no session — the one way its session changes (`bind`).
   */
  attach(peer: Peer): PeerLink {
    this.connections.add(peer);
    return {
      line: (text) => this.#dispatcher.handleLine(peer, text),
      closed: () => {
        this.connections.delete(peer);
        const session = peer.sessionId ? this.core.sessions.get(peer.sessionId) : undefined;
        this.bind(peer, undefined);
        // A session opened for a connection that never asked for one (`toolpool call`, a plain MCP
        // client) has an id its client never saw: nobody can resume it, so it goes with the
        // connection instead of waiting an hour among the detached ones.
        if (session && session.attached === 0 && this.#implicit.delete(session)) this.core.sessions.discard(session);
      },
    };
  }

  #accept(socket: import("node:net").Socket): void {
    const partialLineTimeoutMs = this.core.config().connections?.partialLineTimeoutMs ?? PARTIAL_LINE_TIMEOUT_MS;
    let link: PeerLink | undefined;
    const connection = new Connection(
      socket,
      // Lines arrive only after the constructor returns, so the link is set by then.
      { line: (_conn, line) => link?.line(line), closed: () => link?.closed() },
      this.logger,
      { budget: this.budget, turns: this.#turns, partialLineTimeoutMs },
    );
    link = this.attach(connection);
  }
}
