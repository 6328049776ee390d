/**
 * The transport-agnostic core, a facade: every request of the wire is params → one method here (or
 * of `servers`) → result. What the methods compute lives in modules named by concept: the live
 * pool (live-pool.ts), one view of a session (session-view.ts), its search (session-search.ts),
 * explain's facts (explain-facts.ts), tool summaries, server administration, the prefetch link.
 * It knows nothing of sockets or JSON-RPC; tests drive it directly (test/helpers/core-harness.ts).
 */
import type { QuestionChannel } from "../protocol/server-question.ts";
import type { BuildInfo } from "../build-info.ts";
import type { Config } from "../config/schema.ts";
import type { ConfigSource } from "../config/load.ts";
import type { FlagAttributes, RuntimeFlags } from "../flags/runtime-flags.ts";
import type { McpPool, McpPoolOptions } from "../mcp/mcp-pool.ts";
import type { Pool } from "../pool/assemble.ts";
import type { Explanation } from "../protocol/explain.ts";
import type { CallResult, CompactResult, McpToolsCallResult, SearchResult, StatusResult, ToolsResult } from "../protocol/methods.ts";
import type { HistoryClearResult, StatsResult as UsageStats } from "../protocol/stats-result.ts";
import type { Logger } from "../runtime/logger.ts";
import type { SandboxState } from "../sandbox/command-sandbox.ts";
import { systemClock, type Clock } from "../runtime/clock.ts";
import { SessionStore } from "../session/session-store.ts";
import type { Session } from "../session/session.ts";
import type { SessionRequest, SettingsDefaults } from "../session/settings.ts";
import type { McpToolView } from "../tool/mcp-view.ts";
import type { ToolResult } from "../tool/result.ts";
import type { ProgressUpdate, Tool } from "../tool/tool.ts";
import type { Metrics } from "../telemetry/metrics.ts";
import { createMetrics } from "../telemetry/create-metrics.ts";
import type { DaemonUsage } from "../usage/daemon-usage.ts";
import { CoreFlags } from "./core-flags.ts";
import { CoreSessions, type CallStats } from "./core-sessions.ts";
import { LivePool } from "./live-pool.ts";
import type { PrefetchLinkDeps } from "./prefetch-link.ts";
import { ServerAdmin } from "./server-admin.ts";
import { compaction, type HarnessCall } from "./session-requests.ts";
import type { SessionView } from "./session-view.ts";
import { poolStatus, toolSummaries } from "./tool-summaries.ts";

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

export class ToolPoolCore {
  readonly info: BuildInfo;
  readonly logger: Logger;
  readonly sessions: SessionStore;
  readonly metrics: Metrics;
  /** The MCP servers as the operator manages them: list, logs, restart, OAuth logins. */
  readonly servers: ServerAdmin;
  readonly #env: NodeJS.ProcessEnv;
  readonly #flags: CoreFlags;
  /** The live pool: MCP servers' life, projects, change events (the daemon starts and stops it). */
  readonly live: LivePool;
  readonly #sessions: CoreSessions;
  #config: Config;

  constructor(options: CoreOptions) {
    this.info = options.info;
    this.logger = options.logger;
    this.#config = options.config;
    this.#env = options.env ?? process.env;
    this.live = new LivePool({
      builtins: options.builtins,
      config: () => this.#config,
      configSource: options.configSource,
      env: this.#env,
      logger: this.logger,
      info: this.info,
      ...(options.demo !== undefined && { demo: options.demo }),
      ...(options.mcpOptions && { mcpOptions: options.mcpOptions }),
      defaultTimeoutMs: () => this.#flags.current.get("mcp_call_timeout_ms"),
      onServerState: (server, state) => this.usage.service.server(server, state),
    });
    this.#flags = new CoreFlags(options.config, { info: this.info, logger: this.logger, configDir: this.live.configDir(), ...(options.flags && { injected: options.flags }) });
    this.metrics =
      options.metrics ?? createMetrics({ config: options.config.telemetry, env: this.#env, logger: this.logger, service: { version: this.info.version, tier: this.info.tier } });
    this.metrics.watchServers(() => this.live.mcp()?.servers() ?? []);
    const usageDatabasePath = options.usageDatabasePath !== undefined ? { usageDatabasePath: options.usageDatabasePath } : {};
    const { info, logger, metrics } = this;
    this.#sessions = new CoreSessions({ live: this.live, flags: this.#flags, config: () => this.#config, env: this.#env, info, logger, metrics, clock: options.clock ?? systemClock, ...usageDatabasePath });
    this.sessions = this.#sessions.store;
    this.servers = new ServerAdmin(() => this.live.mcp());
  }

  config(): Config {
    return this.#config;
  }

  pool(): Pool {
    return this.live.pool();
  }

  /** The one search index, synced with the live pool. */
  get search() {
    return this.live.search;
  }

  /** Calls run and running, for `toolpool/status` and the drain at stop. */
  get stats(): CallStats {
    return this.#sessions.stats;
  }

  /** The MCP client pool, once started (undefined before, or with no server configured). */
  mcp(): McpPool | undefined {
    return this.live.mcp();
  }

  flags(): RuntimeFlags {
    return this.#flags.current;
  }

  flagAttributes(session: Session): FlagAttributes {
    return this.#flags.attributes(session);
  }

  /** `toolpool/flags`: every flag's value, for a session when one is named. */
  describeFlags(session: Session | undefined) {
    return this.#flags.current.describe(session ? this.#flags.attributes(session) : undefined);
  }

  settingsDefaults(client?: string): SettingsDefaults {
    return this.#sessions.settingsDefaults(client);
  }

  /**
   * Opens a session, or re-opens one under its id; a bad output schema or setting refuses it before
   * anything changes. `client`: the connection it opens from (per-client bounds count by it);
   * `update`: that connection re-sends its own session (logged as an update, not an opening).
   */
  openSession(request: SessionRequest, client?: string, update = false): { session: Session; resumed: boolean } {
    return this.#sessions.open(request, client, update);
  }

  /** The proxy session of a client that speaks plain MCP (it sends no transcript). */
  openImplicitSession(client?: string): Session {
    return this.#sessions.openImplicit(client);
  }

  /** The one view of a session that assemble, explain, search and stats read (session-view.ts). */
  view(session: Session): SessionView {
    return this.#sessions.view(session);
  }

  assemble(session: Session, messages: readonly unknown[], system?: unknown, remember = true) {
    return this.#sessions.assemble(session, messages, system, remember);
  }

  /** The one MCP view of a session's tools: what every front door (socket, bridge) lists. */
  mcpTools(session: Session): McpToolView[] {
    return this.#sessions.mcpTools(session);
  }

  /** Runs a call through the one pipeline, under the session's rules and ordering (src/core/session-call.ts). */
  call(session: Session, name: string, input: unknown, signal: AbortSignal, onProgress?: (update: ProgressUpdate) => void, questions?: QuestionChannel): Promise<ToolResult> {
    return this.#sessions.call(session, name, input, signal, onProgress, undefined, questions);
  }

  /** `toolpool/call`: the call and its result in the session's provider format (src/core/core-sessions.ts). */
  callForHarness(session: Session, params: HarnessCall, signal: AbortSignal, onProgress?: (update: ProgressUpdate) => void, questions?: QuestionChannel): Promise<CallResult> {
    return this.#sessions.callForHarness(session, params, signal, onProgress, questions);
  }

  /** MCP `tools/call`: a name the session does not have is refused as a request error, not run. */
  callForMcp(session: Session, name: string, input: unknown, signal: AbortSignal, onProgress?: (update: ProgressUpdate) => void, questions?: QuestionChannel): Promise<McpToolsCallResult> {
    return this.#sessions.callForMcp(session, name, input, signal, onProgress, questions);
  }

  compact(session: Session, messages: readonly unknown[], system: unknown): CompactResult {
    return compaction(session, messages, system);
  }

  /** `toolpool/explain`: why a tool is or is not in a session's array (src/core/explain-facts.ts). */
  explain(name: string, session: Session | undefined, sandbox?: SandboxState): Promise<Explanation> {
    return this.#sessions.explain(name, session, sandbox);
  }

  /** `toolpool/search`: a named session's own tools, else the whole pool (src/core/session-search.ts). */
  searchTools(params: { query: string; maxResults?: number | undefined }, session: Session | undefined): Promise<SearchResult> {
    return this.#sessions.searchTools(params, session);
  }

  /** `toolpool/tools`: the pool, or a named profile's view of it. */
  tools(profile: string | undefined): ToolsResult {
    return toolSummaries(this.pool(), this.mcp(), this.#config, profile);
  }

  /** The core's part of `toolpool/status`. */
  status(): Pick<StatusResult, "sessions" | "tools" | "calls" | "mcpServers" | "guard" | "arrayLimit"> {
    return { sessions: this.sessions.counts(), calls: { total: this.stats.callsTotal, inFlight: this.stats.callsInFlight }, ...poolStatus(this.pool(), this.mcp(), this.#config.maxToolsInArray, this.#sessions.arrayLimit) };
  }

  /** What the prefetch link (core/prefetch-link.ts, which only PREFETCH tiers require) reads of the core. */
  prefetchDeps(): PrefetchLinkDeps {
    return this.#sessions.prefetchDeps();
  }

  /** A new config (SIGHUP): flags, servers and the pool follow it. Throws before changing anything on a bad server entry. */
  async reconfigure(config: Config): Promise<void> {
    this.live.rereadProjects(config.workspaceRoots ?? []);
    const servers = await this.live.serverSpecs(config);
    if (this.live.closed) return;
    const previous = this.#config;
    this.#sessions.applyCeiling(config);
    if (JSON.stringify(previous.telemetry) !== JSON.stringify(config.telemetry)) this.logger.warn("telemetry settings changed; they apply from the next start");
    this.#config = config;
    await this.#flags.reconfigure(previous, config);
    await this.live.reconfigure(servers);
  }

  /** Usage history, opened on first use (a session, a call, a server event, `toolpool stats`). */
  get usage(): DaemonUsage<Session> {
    return this.#sessions.usage;
  }

  /** At stop: the usage history written and closed (when it was opened), the roots' descriptors released. */
  async closeSessions(): Promise<void> {
    this.#sessions.close();
  }

  closeFlags(): Promise<void> {
    return this.#flags.close();
  }

  /** `toolpool/stats`: the usage history, read. */
  usageStats(params: { sinceMs?: number | undefined; top?: number | undefined }): Promise<UsageStats> {
    return this.usage.service.stats({ ...(params.sinceMs !== undefined && { sinceMs: params.sinceMs }), ...(params.top !== undefined && { top: params.top }) });
  }

  /** `toolpool/history/clear`: one workspace's history forgotten, or (null) all of it. */
  clearHistory(workspace: string | null): HistoryClearResult {
    return { workspace, removed: this.usage.service.clear(workspace) };
  }
}
