/**
 * The daemon: owns the config, the pool, the sessions and the socket, and runs the lifecycle —
 * listen, serve, reload on SIGHUP, drain and stop on SIGTERM/SIGINT (SPEC §11).
 */
import { feature } from "bun:bundle";
import { chmodSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { buildInfo, type BuildInfo } from "../build-info.ts";
import type { Config } from "../config/schema.ts";
import { loadConfig, type ConfigSource } from "../config/load.ts";
import { assemblePool, type Pool } from "../pool/assemble.ts";
import { STOP_BUDGET_MS } from "../protocol/limits.ts";
import { SessionStore } from "../session/session-store.ts";
import type { Session } from "../session/session.ts";
import { resolveSettings, type SettingsDefaults } from "../session/settings.ts";
import { executeTool } from "../tool/execute.ts";
import type { ToolResult } from "../tool/result.ts";
import type { ProgressUpdate, Tool } from "../tool/tool.ts";
import { Connection } from "./connection.ts";
import { Dispatcher } from "./dispatcher.ts";
import { drainRequests, settleStep } from "./shutdown-steps.ts";
import { registerAdminMethods } from "./handlers/admin.ts";
import { registerHarnessMethods, unknownSession } from "./handlers/harness.ts";
import { registerMcpMethods } from "./handlers/mcp.ts";
import { registerUsageMethods } from "./handlers/usage.ts";
import type { Logger } from "../runtime/logger.ts";
import { acquireSocketLock, tryUnlink, type SocketLock } from "./socket-lock.ts";
import { checkSocketPathFree, prepareSocketDirectory } from "./socket-path.ts";
import type { DaemonState, DaemonStats } from "./state.ts";
import { demoServerSpecs } from "../mcp/demo-config.ts";
import type { McpPool, McpPoolOptions } from "../mcp/mcp-pool.ts";
import { resolveServerSpecs, type ServerSpec } from "../mcp/server-spec.ts";
import { Method } from "../protocol/method-names.ts";
import { SearchSync } from "./search-sync.ts";
import { dirname } from "node:path";
import type { FlagAttributes, RuntimeFlags } from "../flags/runtime-flags.ts";
import { DaemonFlags } from "./daemon-flags.ts";
import type { CronService } from "../cron/cron-service.ts";
import type { CronLink } from "./cron-link.ts";
import { JsonSchemaCompiler } from "../validate/ajv.ts";
import { sessionLookup, type SessionToolDeps } from "./session-tools.ts";
import { openDaemonUsage } from "../usage/open-usage.ts";
import type { DaemonUsage } from "../usage/daemon-usage.ts";

export interface DaemonOptions {
  socketPath: string;
  config: Config;
  configSource: ConfigSource;
  builtins: readonly Tool[];
  logger: Logger;
  env?: NodeJS.ProcessEnv;
  info?: BuildInfo;
  /** Adds the reference MCP servers from ./node_modules/.bin (`toolpool serve --demo`). */
  demo?: boolean;
  /** Runtime flags; by default built from `config.flags` (GrowthBook, or embedded defaults). */
  flags?: RuntimeFlags;
  /** The cron service (AGENT_TRIGGERS tiers); the daemon delivers its firings and closes it. */
  cron?: CronService;
  /** The usage history file (`":memory:"` in tests); default `usage.sqlite` in the state dir. */
  usageDatabasePath?: string;
  /** Overrides for the MCP pool (tests: cache path, timings). */
  mcpOptions?: Partial<Omit<McpPoolOptions, "servers" | "logger">>;
}

export class Daemon implements DaemonState {
  readonly info: BuildInfo;
  readonly socketPath: string;
  readonly startedAt = Date.now();
  readonly logger: Logger;
  readonly sessions = new SessionStore();
  readonly stats: DaemonStats = { callsTotal: 0, callsInFlight: 0 };
  readonly connections = new Set<Connection>();
  readonly search = new SearchSync();
  readonly usage: DaemonUsage<Session>;
  readonly #toolDeps: SessionToolDeps;
  readonly #dispatcher: Dispatcher;
  readonly #builtins: readonly Tool[];
  readonly #env: NodeJS.ProcessEnv;
  readonly #configSource: ConfigSource;
  #config: Config;
  #pool: Pool;
  #mcp: McpPool | undefined;
  readonly #flags: DaemonFlags;
  #cron: CronLink | undefined;
  #demoSpecs: ServerSpec[] | undefined;
  readonly #demo: boolean;
  readonly #mcpOptions: Partial<Omit<McpPoolOptions, "servers" | "logger">>;
  #server: Server | undefined;
  #lock: SocketLock | undefined;
  #stopping: Promise<void> | undefined;
  #stopped = Promise.withResolvers<void>();

  constructor(options: DaemonOptions) {
    this.info = options.info ?? buildInfo();
    this.socketPath = options.socketPath;
    this.logger = options.logger;
    this.#config = options.config;
    this.#configSource = options.configSource;
    this.#builtins = options.builtins;
    this.#env = options.env ?? process.env;
    this.#demo = options.demo ?? false;
    this.#mcpOptions = options.mcpOptions ?? {};
    this.#flags = new DaemonFlags(options.config, {
      info: this.info,
      logger: this.logger,
      configDir: this.#configSource.path ? dirname(this.#configSource.path) : undefined,
      ...(options.flags && { injected: options.flags }),
    });
    this.#pool = this.#assemble();
    this.usage = openDaemonUsage<Session>({
      env: this.#env,
      logger: this.logger,
      pool: () => this.#pool,
      ...(options.usageDatabasePath !== undefined && { databasePath: options.usageDatabasePath }),
      recording: () => this.#flags.current.get("usage_recording"),
      learning: (session) => this.#flags.current.get("usage_learning", this.#flags.attributes(session)),
      promotedCount: (session) => this.#flags.current.get("usage_promoted_tools", this.#flags.attributes(session)),
    });
    this.#toolDeps = {
      pool: () => this.#pool,
      engine: this.search.index,
      pendingServers: () => this.#mcp?.pendingServers() ?? [],
      killSwitch: (tool, session) => this.#flags.killSwitch(tool, session),
      warmServer: (server) => this.ensureServerStarted(server),
      compiler: new JsonSchemaCompiler(),
      usage: this.usage,
    };
    this.#dispatcher = new Dispatcher(this.logger);
    registerMcpMethods(this.#dispatcher, this);
    registerHarnessMethods(this.#dispatcher, this);
    registerAdminMethods(this.#dispatcher, this);
    registerUsageMethods(this.#dispatcher, this.usage.service);
    if (feature("PREFETCH")) {
      (require("./handlers/prefetch.ts") as typeof import("./handlers/prefetch.ts")).registerPrefetchMethods(this.#dispatcher, this);
    }
    if (feature("AGENT_TRIGGERS")) {
      const { CronLink: Link } = require("./cron-link.ts") as typeof import("./cron-link.ts");
      if (options.cron) this.#cron = new Link(options.cron, () => this.connections, this, this.#dispatcher);
    }
  }

  sessionAttached(session: Session): void {
    this.#cron?.sessionAttached(session.id);
  }

  sessionLeft(connection: Connection): void {
    this.#cron?.connectionLeft(connection);
  }

  config(): Config {
    return this.#config;
  }

  pool(): Pool {
    return this.#pool;
  }

  sessionToolDeps(): SessionToolDeps {
    return this.#toolDeps;
  }

  settingsDefaults(): SettingsDefaults {
    return {
      config: this.#config,
      env: this.#env,
      daemonCwd: process.cwd(),
      prefetchCompiled: this.info.features.includes("PREFETCH"),
      runtime: (facts) => this.#flags.runtimeDefaults(facts),
    };
  }

  flags(): RuntimeFlags {
    return this.#flags.current;
  }

  flagAttributes(session: Session): FlagAttributes {
    return this.#flags.attributes(session);
  }

  sessionFor(connection: Connection, sessionId: string | undefined): Session {
    if (sessionId) {
      const named = this.sessions.get(sessionId);
      if (!named) throw unknownSession(sessionId);
      return named;
    }
    const current = connection.sessionId ? this.sessions.get(connection.sessionId) : undefined;
    if (current) return current;
    // A connection that never opened a session speaks plain MCP: it sends no transcript, so it
    // gets the proxy view (ToolSearch + ExecuteExtraTool), whose discoveries the session remembers.
    const session = this.sessions.create(resolveSettings({ delivery: "proxy" }, this.settingsDefaults()));
    this.sessions.attach(session);
    connection.sessionId = session.id;
    this.sessionAttached(session);
    return session;
  }

  async runTool(
    session: Session,
    name: string,
    input: unknown,
    signal: AbortSignal,
    onProgress?: (update: ProgressUpdate) => void,
  ): Promise<ToolResult> {
    const lookup = sessionLookup(session, this.#toolDeps);
    const tool = lookup(name);
    const validated = tool?.validator(input);
    // Unknown tools and invalid input fail fast in the pipeline; they need no exclusive slot.
    const exclusive = tool !== undefined && validated?.ok === true && !tool.isConcurrencySafe(validated.value);
    session.touch();
    session.calls++;
    this.stats.callsTotal++;
    this.stats.callsInFlight++;
    const recorded = this.usage.call(session, name, input);
    try {
      return await session.scheduler.run(exclusive, () => recorded(() =>
        executeTool(
          name,
          input,
          {
            signal,
            sessionId: session.id,
            workspaceRoots: session.settings.workspaceRoots,
            cwd: session.settings.cwd,
            sessionState: session.toolState,
            ...(onProgress && { onProgress }),
          },
          { lookup, permissions: session.settings.permissions, killSwitch: (target) => this.#flags.killSwitch(target, session) },
        )),
      );
    } finally {
      this.stats.callsInFlight--;
    }
  }

  /** Listens on the socket. Throws AlreadyRunningError or SocketPathError before touching anything live. */
  async start(): Promise<void> {
    // A bad MCP server entry (an unset ${VAR}, a broken .mcp.json) refuses the start, naming it.
    const servers = await this.#serverSpecs(this.#config);
    prepareSocketDirectory(this.socketPath);
    checkSocketPathFree(this.socketPath);
    this.#lock = acquireSocketLock(this.socketPath);
    // The lock is ours, so any socket file left here belongs to a dead daemon.
    tryUnlink(this.socketPath);
    // Half-open allowed: a client may send its requests and shut its write side (`printf … | nc -U`);
    // it still gets every answer, and the connection closes once the last one is written.
    const server = createServer({ allowHalfOpen: true }, (socket) => this.#accept(socket));
    this.#server = server;
    // Create the socket 0600 from the start: a chmod after listen leaves a window.
    const previousUmask = process.umask(0o177);
    try {
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(this.socketPath, () => {
          server.off("error", reject);
          resolve();
        });
      });
    } catch (error) {
      this.#lock.release();
      throw error;
    } finally {
      process.umask(previousUmask);
    }
    chmodSync(this.socketPath, 0o600);
    if (servers.length > 0) this.#startMcp(servers);
    this.#cron?.start();
    this.logger.info("listening", { socket: this.socketPath, tier: this.info.tier, version: this.info.version, tools: this.#pool.tools.length });
  }

  /** Resolves when the daemon has stopped. */
  get stopped(): Promise<void> {
    return this.#stopped.promise;
  }

  ensureServerStarted(server: string): void {
    void this.#mcp?.ensureStarted(server);
  }

  mcp(): McpPool | undefined {
    return this.#mcp;
  }

  prefetchEnabled(session: Session): boolean {
    return this.#flags.current.get("prefetch_enabled", this.flagAttributes(session));
  }

  prefetchMaxResults(): number {
    return this.#flags.current.get("prefetch_max_results");
  }

  requestShutdown(reason: string): void {
    void this.stop(reason);
  }

  /** Stop accepting, drain in-flight calls (≤ 5 s), cancel the rest, remove the socket. */
  stop(reason: string): Promise<void> {
    this.#stopping ??= this.#stop(reason);
    return this.#stopping;
  }

  async #stop(reason: string): Promise<void> {
    // SPEC §11: out within 10 s, whatever is running. Drain ≤ 5 s, cancel ≤ 1 s, the rest shares what is left.
    const deadline = Date.now() + STOP_BUDGET_MS;
    this.logger.info("stopping", { reason, inFlight: this.stats.callsInFlight });
    this.#dispatcher.stopAcceptingWork();
    const closed = new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
    await drainRequests(this.connections, () => this.stats.callsInFlight, this.logger);
    for (const connection of this.connections) connection.close();
    const remaining = () => Math.max(250, deadline - Date.now());
    // Each step is bounded and none may keep the socket and lock behind if it fails. Stopping MCP
    // servers kills their process groups (SIGTERM, then SIGKILL after a grace period).
    await Promise.all([
      settleStep(this.logger, "stopping MCP servers", () => Promise.race([this.#mcp?.stop(), Bun.sleep(remaining())])),
      settleStep(this.logger, "closing runtime flags", () => Promise.race([this.#flags.close(), Bun.sleep(Math.min(1_000, remaining()))])),
      settleStep(this.logger, "closing cron", async () => this.#cron?.close()),
      settleStep(this.logger, "writing usage history", async () => this.usage.service.close()),
      Promise.race([closed, Bun.sleep(Math.min(1_000, remaining()))]),
    ]);
    tryUnlink(this.socketPath);
    this.#lock?.release();
    this.logger.info("stopped");
    this.#stopped.resolve();
  }

  async reload(): Promise<void> {
    // A SIGHUP during shutdown must not start servers that the stop has already passed by.
    if (this.#stopping) return;
    try {
      const { config } = await loadConfig(this.#configSource);
      const servers = await this.#serverSpecs(config);
      if (this.#stopping) return;
      const previous = this.#config;
      this.#config = config;
      await this.#flags.reconfigure(previous, config);
      if (this.#mcp) await this.#mcp.reconfigure(servers);
      else if (servers.length > 0) this.#startMcp(servers);
      this.#pool = this.#assemble();
      this.logger.setLevel(config.logLevel);
      this.logger.info("config reloaded", { tools: this.#pool.tools.length });
    } catch (error) {
      this.logger.error("config reload failed; keeping the previous config", { error: (error as Error).message });
    }
  }

  #assemble(): Pool {
    const pool = assemblePool({ builtins: this.#builtins, mcpTools: this.#mcp?.tools() ?? [], deny: this.#config.permissions?.deny ?? [] });
    for (const collision of pool.collisions) this.logger.warn("tool name collision", { ...collision });
    const changes = this.search.sync(pool.tools);
    this.logger.debug("search index synced", changes);
    return pool;
  }

  async #serverSpecs(config: Config): Promise<ServerSpec[]> {
    const configured = await resolveServerSpecs(config, { env: this.#env, configPath: this.#configSource.path });
    if (!this.#demo) return configured;
    const names = new Set(configured.map((spec) => spec.name));
    // Made once: a new temp dir per reload would look like a changed config and restart the demo servers.
    this.#demoSpecs ??= demoServerSpecs().specs;
    const demo = this.#demoSpecs.filter((spec) => !names.has(spec.name));
    return [...configured, ...demo];
  }

  /**
   * After the socket listens: the cached catalog enters the pool at once, servers connect in the
   * background, and every change of MCP tools re-assembles the pool (re-indexing search) and tells
   * every connection `notifications/tools/list_changed`.
   */
  #startMcp(servers: readonly ServerSpec[]): void {
    // The MCP SDK is loaded only when some server is configured: a daemon of built-ins starts faster and smaller.
    const { McpPool: Pool } = require("../mcp/mcp-pool.ts") as typeof import("../mcp/mcp-pool.ts");
    const pool = new Pool({
      servers,
      logger: this.logger,
      env: this.#env,
      clientVersion: this.info.version,
      defaultTimeoutMs: () => this.#flags.current.get("mcp_call_timeout_ms"),
      ...this.#mcpOptions,
    });
    this.#mcp = pool;
    pool.onServerState((server, state) => this.usage.service.server(server, state));
    pool.onChange(() => {
      if (this.#stopping) return;
      this.#pool = this.#assemble();
      for (const connection of this.connections) connection.send({ jsonrpc: "2.0", method: Method.ToolsListChanged });
    });
    this.#pool = this.#assemble();
    pool.start();
  }

  #accept(socket: import("node:net").Socket): void {
    const connection = new Connection(
      socket,
      {
        line: (conn, line) => this.#dispatcher.handleLine(conn, line),
        closed: (conn) => {
          this.connections.delete(conn);
          this.#cron?.connectionLeft(conn);
          const session = conn.sessionId ? this.sessions.get(conn.sessionId) : undefined;
          if (session) this.sessions.detach(session);
        },
      },
      this.logger,
    );
    this.connections.add(connection);
  }
}
