/**
 * The transport-agnostic core: the live pool (built-ins + MCP pool + change events), the search
 * index and its sync, sessions, runtime flags and the call pipeline, behind a small typed API. It
 * knows nothing of sockets or JSON-RPC; the daemon (src/daemon/) is the wire in front of it, and
 * tests drive it directly (test/helpers/core-harness.ts).
 */
import type { BuildInfo } from "../build-info.ts";
import type { Config } from "../config/schema.ts";
import type { ConfigSource } from "../config/load.ts";
import { experimentalBetasDisabled } from "../deferral/mode-setting.ts";
import type { FlagAttributes, RuntimeFlags } from "../flags/runtime-flags.ts";
import { DemoServers } from "./demo-servers.ts";
import type { McpPool, McpPoolOptions } from "../mcp/mcp-pool.ts";
import { resolveServerSpecs, type ServerSpec } from "../mcp/server-spec.ts";
import { assemblePool, type Pool } from "../pool/assemble.ts";
import type { Logger } from "../runtime/logger.ts";
import { systemClock, type Clock } from "../runtime/clock.ts";
import { SessionStore } from "../session/session-store.ts";
import { holdRoots, pinRoots, releaseRoots } from "../session/session-roots.ts";
import { RootPins } from "../runtime/root-pins.ts";
import type { Session } from "../session/session.ts";
import { operatorRoots, resolveSettings, type SessionRequest, type SettingsDefaults } from "../session/settings.ts";
import { mcpToolView, type McpToolView } from "../tool/mcp-view.ts";
import type { ToolResult } from "../tool/result.ts";
import type { ProgressUpdate, Tool } from "../tool/tool.ts";
import { JsonSchemaCompiler } from "../validate/ajv.ts";
import { assembleForSession, type AssembleDeps } from "./assemble-tools.ts";
import { CoreFlags } from "./core-flags.ts";
import { eagerPolicyOf, guardWarning } from "./eager-config.ts";
import { SearchSync } from "./search-sync.ts";
import { sessionLookup, sessionTools, type SessionToolDeps } from "./session-tools.ts";
import { dirname } from "node:path";
import type { ProjectSummary } from "../mcp/project-servers.ts";
import { CoreProjects } from "./core-projects.ts";
import { OPERATOR_DEFAULTS, reapplyPermissionCeiling } from "../permissions/ceiling.ts";
import { logEviction } from "../runtime/event-logs.ts";
import type { Metrics } from "../telemetry/metrics.ts";
import { createMetrics } from "../telemetry/create-metrics.ts";
import { runSessionCall } from "./session-call.ts";
import type { DaemonUsage } from "../usage/daemon-usage.ts";

export interface CoreOptions {
  config: Config;
  configSource: ConfigSource;
  builtins: readonly Tool[];
  logger: Logger;
  info: BuildInfo;
  env?: NodeJS.ProcessEnv;
  /** Adds the reference MCP servers from ./node_modules/.bin (`toolpool serve --demo`). */
  demo?: boolean;
  /** Runtime flags; by default built from `config.flags` (GrowthBook, or embedded defaults). */
  flags?: RuntimeFlags;
  /** Overrides for the MCP pool (tests: cache path, timings). */
  mcpOptions?: Partial<Omit<McpPoolOptions, "servers" | "logger">>;
  clock?: Clock;
  /** Where metrics go; by default from `config.telemetry` and the environment (off unless asked). */
  metrics?: Metrics;
  /** The usage history file (`":memory:"` in tests); default `usage.sqlite` in the state dir. */
  usageDatabasePath?: string;
}

export interface CallStats {
  callsTotal: number;
  callsInFlight: number;
}

export class ToolPoolCore {
  readonly info: BuildInfo;
  readonly logger: Logger;
  readonly sessions: SessionStore;
  readonly stats: CallStats = { callsTotal: 0, callsInFlight: 0 };
  readonly search = new SearchSync();
  readonly metrics: Metrics;
  #usage: DaemonUsage<Session> | undefined;
  readonly #usageDatabasePath: string | undefined;
  readonly #toolDeps: SessionToolDeps;
  readonly #builtins: readonly Tool[];
  readonly #env: NodeJS.ProcessEnv;
  readonly #configSource: ConfigSource;
  readonly #flags: CoreFlags;
  readonly #guardWarning = guardWarning(() => this.logger);
  /** `serve --demo`'s reference servers; none otherwise. */
  readonly #demo: DemoServers | undefined;
  readonly #mcpOptions: Partial<Omit<McpPoolOptions, "servers" | "logger">>;
  readonly #changeListeners = new Set<() => void>();
  #config: Config;
  #pool: Pool;
  #mcp: McpPool | undefined;
  #registry: McpPoolOptions["registry"];
  #closed = false;
  #roots: { config: Config; roots: { roots: readonly string[]; configured: boolean } } | undefined;
  /** Sessions' workspace roots, held open by descriptor (one per directory, shared). */
  readonly rootPins = new RootPins();
  /** Servers that projects' `.toolpool.json` files bring (run only once trusted). */
  readonly #projects: CoreProjects;
  /** Set once the daemon listens: project servers found before then start with the rest. */
  #listening = false;

  constructor(options: CoreOptions) {
    this.info = options.info;
    this.logger = options.logger;
    this.sessions = new SessionStore(options.clock ?? systemClock, (session, reason) => {
      releaseRoots(this.rootPins, session);
      logEviction(this.logger, session, reason);
    });
    this.#config = options.config;
    this.#configSource = options.configSource;
    this.#builtins = options.builtins;
    this.#env = options.env ?? process.env;
    this.#demo = options.demo ? new DemoServers() : undefined;
    this.#mcpOptions = options.mcpOptions ?? {};
    this.#flags = new CoreFlags(options.config, {
      info: this.info,
      logger: this.logger,
      configDir: this.#configSource.path ? dirname(this.#configSource.path) : undefined,
      ...(options.flags && { injected: options.flags }),
    });
    this.#projects = new CoreProjects(this.#env, this.logger, () => this.#applyServers());
    this.metrics =
      options.metrics ?? createMetrics({ config: options.config.telemetry, env: this.#env, logger: this.logger, service: { version: this.info.version, tier: this.info.tier } });
    this.metrics.watchServers(() => this.#mcp?.servers() ?? []);
    this.#usageDatabasePath = options.usageDatabasePath;
    this.#pool = this.#assemble();
    const core = this;
    this.#toolDeps = {
      pool: () => this.#pool,
      engine: this.search,
      pendingServers: () => this.#mcp?.pendingServers() ?? [],
      cachedServers: () => this.#mcp?.cachedPendingServers() ?? [],
      loginServers: () => this.#mcp?.loginServers() ?? [],
      serverInstructions: () => this.#mcp?.serverInstructions() ?? new Map(),
      warmServer: (server) => this.ensureServerStarted(server),
      compiler: new JsonSchemaCompiler(),
      metrics: this.metrics,
      // Read when a session's tools are built, so the history is opened only once there is a session.
      get usage(): DaemonUsage<Session> {
        return core.usage;
      },
      // A project's server is seen only by sessions working in that project.
      serverProject: (server) => this.#mcp?.spec(server)?.project,
    };
  }

  config(): Config {
    return this.#config;
  }

  pool(): Pool {
    return this.#pool;
  }

  /** The MCP client pool, once started (undefined before, or with no server configured). */
  mcp(): McpPool | undefined {
    return this.#mcp;
  }

  flags(): RuntimeFlags {
    return this.#flags.current;
  }

  flagAttributes(session: Session): FlagAttributes {
    return this.#flags.attributes(session);
  }

  /** What a session's own tools (ToolSearch, ExecuteExtraTool, StructuredOutput) are built from. */
  sessionToolDeps(): SessionToolDeps {
    return this.#toolDeps;
  }

  /** `client`: the connection a session opens from (per-client bounds on project roots count by it). */
  settingsDefaults(client?: string): SettingsDefaults {
    return {
      config: this.#config,
      env: this.#env,
      daemonCwd: process.cwd(),
      prefetchCompiled: this.info.features.includes("PREFETCH"),
      runtime: (facts) => this.#flags.runtimeDefaults(facts),
      projectProfile: (roots) => {
        // A session opening in a project is when the core learns of (or re-reads) its file.
        return this.#projects.sessionOpened(roots, client);
      },
    };
  }

  /**
   * Opens a session, or re-opens one under its id with new settings (an unknown id is honoured:
   * after a restart the client resumes its conversation and the transcript rebuilds the rest).
   * Throws SettingsError before anything changes.
   */
  openSession(request: SessionRequest, client?: string): { session: Session; resumed: boolean } {
    const existing = request.sessionId ? this.sessions.get(request.sessionId) : undefined;
    if (existing) {
      const settings = resolveSettings(request, this.settingsDefaults(client), existing.settings);
      const pinned = pinRoots(this.rootPins, settings.workspaceRoots);
      existing.settings = settings;
      existing.client = client;
      holdRoots(this.rootPins, existing, pinned);
      sessionTools(existing, this.#toolDeps);
      return { session: existing, resumed: true };
    }
    const settings = resolveSettings(request, this.settingsDefaults(client));
    const pinned = pinRoots(this.rootPins, settings.workspaceRoots);
    const session = this.sessions.create(settings, request.sessionId);
    session.client = client;
    holdRoots(this.rootPins, session, pinned);
    sessionTools(session, this.#toolDeps);
    return { session, resumed: false };
  }

  /** The proxy session of a client that speaks plain MCP (it sends no transcript). */
  openImplicitSession(client?: string): Session {
    const settings = resolveSettings({ delivery: "proxy" }, this.settingsDefaults(client));
    const pinned = pinRoots(this.rootPins, settings.workspaceRoots);
    const session = this.sessions.create(settings);
    session.client = client;
    holdRoots(this.rootPins, session, pinned);
    return session;
  }

  /** Resolves a name as the session's calls do: its own tools first, then the pool. */
  lookup(session: Session): (name: string) => Tool | undefined {
    return sessionLookup(session, this.#toolDeps);
  }

  assemble(session: Session, messages: readonly unknown[], system?: unknown, remember = true) {
    return assembleForSession(this.#assembleDeps(), session, messages, system, remember);
  }

  /** The one MCP view of a session's tools: what every front door (socket, bridge) lists. */
  mcpTools(session: Session): McpToolView[] {
    const lookup = this.lookup(session);
    const assembled = this.assemble(session, [], undefined, false);
    const names = assembled.tools.map((wire) => ("function" in wire ? wire.function.name : wire.name));
    return names.flatMap((name) => {
      const tool = lookup(name);
      return tool ? [mcpToolView(tool)] : [];
    });
  }

  /** The config's roots as real paths, resolved once per config (a reload brings a new one). */
  #operatorRoots(): { roots: readonly string[]; configured: boolean } {
    if (this.#roots?.config !== this.#config) {
      this.#roots = { config: this.#config, roots: { roots: operatorRoots(this.#config, process.cwd()), configured: this.#config.workspaceRoots !== undefined } };
    }
    return this.#roots.roots;
  }

  /** Runs a call through the one pipeline, under the session's rules and ordering (src/core/session-call.ts). */
  call(session: Session, name: string, input: unknown, signal: AbortSignal, onProgress?: (update: ProgressUpdate) => void): Promise<ToolResult> {
    const deps = {
      pool: this.#pool,
      lookup: this.lookup(session),
      killSwitch: (tool: Tool) => this.#flags.killSwitch(tool, session),
      metrics: this.metrics,
      usage: this.usage,
      logger: this.logger,
      stats: this.stats,
      operatorRoots: this.#operatorRoots(),
    };
    return runSessionCall(deps, session, name, input, signal, onProgress);
  }

  /** For `toolpool/explain`: every tool offered before the config's deny rules, and the config file. */
  explainSources(): { offered: readonly Tool[]; configPath: string | null } {
    return { offered: [...this.#builtins, ...(this.#mcp?.tools() ?? [])], configPath: this.#configSource.path };
  }

  killSwitch(tool: Tool, session: Session): string | undefined {
    return this.#flags.killSwitch(tool, session);
  }

  ensureServerStarted(server: string): void {
    void this.#mcp?.ensureStarted(server);
  }

  pendingServers(): readonly string[] {
    return this.#mcp?.pendingServers() ?? [];
  }

  prefetchEnabled(session: Session): boolean {
    return this.#flags.current.get("prefetch_enabled", this.flagAttributes(session));
  }

  prefetchMaxResults(): number {
    return this.#flags.current.get("prefetch_max_results");
  }

  /** Called after every change of the pool's tools (an MCP server listed, left, changed). */
  onToolsChanged(listener: () => void): () => void {
    this.#changeListeners.add(listener);
    return () => this.#changeListeners.delete(listener);
  }

  /** The MCP servers this config names (plus the demo ones); throws naming a bad entry. */
  async serverSpecs(config: Config = this.#config): Promise<ServerSpec[]> {
    const configured = [...(await resolveServerSpecs(config, { env: this.#env, configPath: this.#configSource.path })), ...this.#projects.specs(this.#env)];
    return this.#demo ? this.#demo.addTo(configured) : configured;
  }

  /** A new config (SIGHUP): flags, servers and the pool follow it. Throws before changing anything on a bad server entry. */
  async reconfigure(config: Config): Promise<void> {
    this.#projects.reread(config.workspaceRoots ?? []);
    const servers = await this.serverSpecs(config);
    if (this.#closed) return;
    const previous = this.#config;
    // The operator's rules are a ceiling for open sessions too, from this reload on.
    for (const session of this.sessions.all()) {
      session.settings = { ...session.settings, permissions: reapplyPermissionCeiling(config.permissions ?? OPERATOR_DEFAULTS, session.settings.permissions) };
    }
    if (JSON.stringify(previous.telemetry) !== JSON.stringify(config.telemetry)) this.logger.warn("telemetry settings changed; they apply from the next start");
    this.#config = config;
    await this.#flags.reconfigure(previous, config);
    if (this.#mcp) await this.#mcp.reconfigure(servers);
    else if (servers.length > 0) this.startMcp(servers);
    this.#pool = this.#assemble();
  }

  /**
   * The cached catalog enters the pool at once, servers connect in the background, and every
   * change of MCP tools re-assembles the pool (re-indexing search) and tells the listeners.
   */
  startMcp(servers: readonly ServerSpec[], registry?: McpPoolOptions["registry"]): void {
    this.#listening = true;
    this.#registry = registry;
    if (servers.length === 0) return;
    // The MCP SDK is loaded only when some server is configured: a daemon of built-ins starts faster and smaller.
    const { McpPool: Pool } = require("../mcp/mcp-pool.ts") as typeof import("../mcp/mcp-pool.ts");
    const pool = new Pool({
      servers,
      logger: this.logger,
      env: this.#env,
      clientVersion: this.info.version,
      defaultTimeoutMs: () => this.#flags.current.get("mcp_call_timeout_ms"),
      ...(registry && { registry }),
      ...this.#mcpOptions,
    });
    this.#mcp = pool;
    pool.onServerState((server, state) => this.usage.service.server(server, state));
    pool.onChange(() => {
      if (this.#closed) return;
      this.#pool = this.#assemble();
      for (const listener of this.#changeListeners) listener();
    });
    this.#pool = this.#assemble();
    pool.start();
  }

  /** No more pool changes are announced from here on (the daemon is stopping). */
  markClosing(): void {
    this.#closed = true;
  }

  /** Removes what the core made for itself on disk (the demo's scratch directory). */
  removeScratch(): void {
    this.#demo?.remove();
  }

  stopMcp(): Promise<void> {
    this.rootPins.closeAll();
    return this.#mcp?.stop() ?? Promise.resolve();
  }

  /**
   * Usage history: records searches and calls, ranks with the workspace's prior, promotes its most
   * used tools. Opened on first use (a session, a call, a server event, `toolpool stats`), so a daemon
   * nobody has used yet starts without it.
   */
  get usage(): DaemonUsage<Session> {
    if (!this.#usage) {
      const { openDaemonUsage } = require("../usage/open-usage.ts") as typeof import("../usage/open-usage.ts");
      this.#usage = openDaemonUsage<Session>({
        env: this.#env,
        logger: this.logger,
        pool: () => this.#pool,
        ...(this.#usageDatabasePath !== undefined && { databasePath: this.#usageDatabasePath }),
        recording: () => this.#flags.current.get("usage_recording"),
        learning: (session) => this.#flags.current.get("usage_learning", this.#flags.attributes(session)),
        promotedCount: (session) => this.#flags.current.get("usage_promoted_tools", this.#flags.attributes(session)),
      });
    }
    return this.#usage;
  }

  /** Writes what the usage history still queues and closes it (nothing when it was never opened). */
  async closeUsage(): Promise<void> {
    this.#usage?.service.close();
  }

  closeFlags(): Promise<void> {
    return this.#flags.close();
  }

  /** The config's workspace roots are projects too: their files are read before the first start. */
  observeConfigProjects(): void {
    this.#projects.observe(this.#config.workspaceRoots ?? [process.cwd()]);
  }

  /** Projects (after `toolpool trust`): read their files again and apply what changed. */
  rescanProjects(): Promise<ProjectSummary[]> {
    return this.#projects.rescan();
  }

  projects(): ProjectSummary[] {
    return this.#projects.summaries();
  }

  /** The server list as it stands now (projects learnt or trusted): reconfigure or start the MCP pool. */
  async #applyServers(): Promise<void> {
    if (this.#closed) return;
    try {
      const servers = await this.serverSpecs(this.#config);
      if (this.#mcp) await this.#mcp.reconfigure(servers);
      else if (servers.length > 0 && this.#listening) this.startMcp(servers, this.#registry);
    } catch (error) {
      this.logger.error("applying project servers failed", { error: (error as Error).message });
    }
  }

  #assembleDeps(): AssembleDeps {
    return { tools: this.#toolDeps, pool: () => this.#pool, logger: this.logger, experimentalBetasDisabled: experimentalBetasDisabled(this.#env), metrics: this.metrics, usage: this.usage };
  }

  /** The assemble facts without an assemble (explain looks, pins nothing). */
  experimentalBetasDisabled(): boolean {
    return experimentalBetasDisabled(this.#env);
  }

  #assemble(): Pool {
    const pool = assemblePool({ builtins: this.#builtins, mcpTools: this.#mcp?.tools() ?? [], deny: this.#config.permissions?.deny ?? [], eager: eagerPolicyOf(this.#config) });
    this.#guardWarning(pool, this.#config.maxToolsInArray);
    for (const collision of pool.collisions) this.logger.warn("tool name collision", { ...collision });
    const changes = this.search.sync(pool.tools);
    this.logger.debug("search index synced", changes);
    return pool;
  }
}
