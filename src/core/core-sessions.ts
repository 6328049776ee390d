/**
 * The core's sessions and what runs in them: opening (settings resolved against the operator's
 * ceiling and the flags fixed at open), their own tools, their one view (which explain and search
 * read), assemble, the MCP view and calls (a harness's and an MCP client's), and the usage history
 * they feed (opened on first use, so a daemon nobody has used yet starts without it).
 */
import { eagerPolicyOf } from "./eager-config.ts";
import type { BuildInfo } from "../build-info.ts";
import type { Config } from "../config/schema.ts";
import { TOOLS_ARRAY_LIMIT } from "../assembly/array-guard.ts";
import { TOOL_SEARCH_TOOL_NAME } from "../deferral/meta-tools.ts";
import { experimentalBetasDisabled } from "../deferral/mode-setting.ts";
import { OPERATOR_DEFAULTS, reapplyPermissionCeiling } from "../permissions/ceiling.ts";
import type { Clock } from "../runtime/clock.ts";
import { logEviction } from "../runtime/event-logs.ts";
import type { Logger } from "../runtime/logger.ts";
import { RootPins } from "../runtime/root-pins.ts";
import { holdRoots, pinRoots, releaseRoots } from "../session/session-roots.ts";
import { SessionStore } from "../session/session-store.ts";
import type { Session } from "../session/session.ts";
import { operatorRoots, resolveSettings, type SessionRequest, type SettingsDefaults } from "../session/settings.ts";
import type { Explanation } from "../protocol/explain.ts";
import type { CallResult, McpToolsCallResult, SearchResult } from "../protocol/methods.ts";
import type { SandboxState } from "../sandbox/command-sandbox.ts";
import type { Metrics } from "../telemetry/metrics.ts";
import { mcpToolView, type McpToolView } from "../tool/mcp-view.ts";
import type { ToolResult } from "../tool/result.ts";
import type { ProgressUpdate, Tool } from "../tool/tool.ts";
import type { QuestionChannel } from "../protocol/server-question.ts";
import type { DaemonUsage } from "../usage/daemon-usage.ts";
import { JsonSchemaCompiler } from "../validate/ajv.ts";
import { assembleForSession } from "./assemble-tools.ts";
import { operatorDeferredOf } from "./eager-config.ts";
import type { CoreFlags } from "./core-flags.ts";
import { explainForSession, type ExplainDeps } from "./explain-facts.ts";
import type { LivePool } from "./live-pool.ts";
import type { PrefetchLinkDeps } from "./prefetch-link.ts";
import { runSessionCall } from "./session-call.ts";
import { callResult, checkOutputSchema, mcpCallResult, rememberTranscript, unknownMcpTool, type HarnessCall } from "./session-requests.ts";
import { searchTools, type SessionSearchDeps } from "./session-search.ts";
import { sessionLookup, sessionTools, type SessionToolDeps } from "./session-tools.ts";
import { sessionView, type SessionView } from "./session-view.ts";

export interface CallStats {
  callsTotal: number;
  callsInFlight: number;
}

export interface CoreSessionsDeps {
  live: LivePool;
  flags: CoreFlags;
  config: () => Config;
  env: NodeJS.ProcessEnv;
  info: BuildInfo;
  logger: Logger;
  metrics: Metrics;
  clock: Clock;
  usageDatabasePath?: string;
}

export class CoreSessions {
  readonly store: SessionStore;
  readonly stats: CallStats = { callsTotal: 0, callsInFlight: 0 };
  readonly toolDeps: SessionToolDeps;
  /** Sessions' workspace roots, held open by descriptor (one per directory, shared). */
  readonly rootPins = new RootPins();
  readonly #deps: CoreSessionsDeps;
  #usage: DaemonUsage<Session> | undefined;
  #arrayLimit: { requests: number; last: string } | undefined;
  #roots: { config: Config; roots: { roots: readonly string[]; configured: boolean } } | undefined;

  constructor(deps: CoreSessionsDeps) {
    this.#deps = deps;
    const { live, logger } = deps;
    this.store = new SessionStore(deps.clock, (session, reason) => {
      releaseRoots(this.rootPins, session);
      logEviction(logger, session, reason);
    });
    const sessions = this;
    this.toolDeps = {
      pool: () => live.pool(),
      engine: live.search,
      pendingServers: () => live.pendingServers(),
      cachedServers: () => live.mcp()?.cachedPendingServers() ?? [],
      loginServers: () => live.mcp()?.loginServers() ?? [],
      serverInstructions: () => live.mcp()?.serverInstructions() ?? new Map(),
      warmServer: (server) => live.ensureServerStarted(server),
      maxToolsInArray: () => deps.config().maxToolsInArray,
      operatorDeferred: operatorDeferredOf(deps.config),
      compiler: new JsonSchemaCompiler(),
      metrics: deps.metrics,
      // Read when a session's tools are built, so the history is opened only once there is a session.
      get usage(): DaemonUsage<Session> {
        return sessions.usage;
      },
      // A project's server is seen only by sessions working in that project.
      serverProject: (server) => live.mcp()?.spec(server)?.project,
    };
  }

  /** `client`: the connection a session opens from (per-client bounds on project roots count by it). */
  settingsDefaults(client?: string): SettingsDefaults {
    const { config, env, info, flags, live } = this.#deps;
    return {
      config: config(),
      env,
      daemonCwd: process.cwd(),
      prefetchCompiled: info.features.includes("PREFETCH"),
      runtime: (facts) => flags.runtimeDefaults(facts),
      // A session opening in a project is when the core learns of (or re-reads) its file.
      projectProfile: (roots) => live.sessionOpened(roots, client),
    };
  }

  /**
   * Opens a session, or re-opens one under its id with new settings (an unknown id is honoured:
   * after a restart the client resumes its conversation and the transcript rebuilds the rest).
   * Throws (a bad output schema, a SettingsError) before anything changes.
   */
  open(request: SessionRequest, client?: string, update = false): { session: Session; resumed: boolean } {
    if (request.outputSchema) checkOutputSchema(request.outputSchema, this.toolDeps.compiler);
    const existing = request.sessionId ? this.store.get(request.sessionId) : undefined;
    if (existing) {
      const settings = resolveSettings(request, this.settingsDefaults(client), existing.settings);
      const pinned = pinRoots(this.rootPins, settings.workspaceRoots);
      existing.settings = settings;
      existing.client = client;
      holdRoots(this.rootPins, existing, pinned);
      sessionTools(existing, this.toolDeps);
      if (update) this.#deps.logger.debug("session updated", { session: existing.id, clientName: existing.settings.clientName });
      else this.#opened(existing, true);
      return { session: existing, resumed: true };
    }
    const settings = resolveSettings(request, this.settingsDefaults(client));
    const pinned = pinRoots(this.rootPins, settings.workspaceRoots);
    const session = this.store.create(settings, request.sessionId);
    session.client = client;
    holdRoots(this.rootPins, session, pinned);
    sessionTools(session, this.toolDeps);
    this.#opened(session, false);
    return { session, resumed: false };
  }

  openImplicit(client?: string): Session {
    const settings = resolveSettings({ delivery: "proxy" }, this.settingsDefaults(client));
    const pinned = pinRoots(this.rootPins, settings.workspaceRoots);
    const session = this.store.create(settings);
    session.client = client;
    holdRoots(this.rootPins, session, pinned);
    return session;
  }

  lookup(session: Session): (name: string) => Tool | undefined {
    return sessionLookup(session, this.toolDeps);
  }

  view(session: Session): SessionView {
    return sessionView({ tools: this.toolDeps, experimentalBetasDisabled: experimentalBetasDisabled(this.#deps.env), maxToolsInArray: this.#deps.config().maxToolsInArray }, session);
  }

  /**
   * `toolpool/explain`: read from the session's one view, when a session is named. A name in no
   * pool gets did-you-mean names from the index: that answer waits, off the thread, while the index
   * catches up (search-sync.ts) as a search does; every other answer is given at once.
   */
  async explain(name: string, session: Session | undefined, sandbox?: SandboxState): Promise<Explanation> {
    const search = this.#deps.live.search;
    if (!search.current) {
      let suggests = false;
      const suggest = () => ((suggests = true), []);
      const answer = explainForSession({ ...this.#explainDeps(), suggest }, name, session && this.view(session), sandbox);
      if (!suggests) return answer;
      await search.ready();
    }
    return explainForSession(this.#explainDeps(), name, session && this.view(session), sandbox);
  }

  /**
   * `toolpool/search`: a named session's own tools (its one view), else the whole pool. It waits,
   * off the thread, while the index catches up with the pool (search-sync.ts); the view is taken after.
   */
  async searchTools(params: { query: string; maxResults?: number | undefined }, session: Session | undefined): Promise<SearchResult> {
    await this.#deps.live.search.ready();
    return searchTools(this.#searchDeps(), params, session && this.view(session));
  }

  /** Requests the tools array limit changed, and its last warning (`toolpool status`). */
  get arrayLimit(): { requests: number; last: string } | undefined {
    return this.#arrayLimit;
  }

  assemble(session: Session, messages: readonly unknown[], system: unknown, remember: boolean) {
    const assembled = this.#assemble(session, messages, system, remember);
    const limited = assembled.warnings.filter((warning) => warning.startsWith(TOOLS_ARRAY_LIMIT));
    if (limited.length > 0) this.#arrayLimit = { requests: (this.#arrayLimit?.requests ?? 0) + 1, last: limited.join("; ") };
    return assembled;
  }

  #assemble(session: Session, messages: readonly unknown[], system: unknown, remember: boolean) {
    const { logger, metrics, env } = this.#deps;
    const killSwitch = (tool: Tool, session: Session) => this.#deps.flags.killSwitch(tool, session);
    return assembleForSession({ tools: this.toolDeps, logger, experimentalBetasDisabled: experimentalBetasDisabled(env), killSwitch, metrics, usage: this.usage, maxToolsInArray: this.#deps.config().maxToolsInArray }, session, messages, system, remember);
  }

  mcpTools(session: Session): McpToolView[] {
    const lookup = this.lookup(session);
    const assembled = this.assemble(session, [], undefined, false);
    // mid-conversation's fixed array holds every deferred tool (defer_loading): list only the found ones.
    const listed = assembled.tools.filter((wire) => !("defer_loading" in wire) || session.hasDiscovered(wire.name));
    const names = listed.map((wire) => ("function" in wire ? wire.function.name : wire.name));
    return names.flatMap((name) => {
      const tool = lookup(name);
      return tool ? [mcpToolView(tool)] : [];
    });
  }

  /**
   * A name resolved once per call: the MCP face's check, the call's counters and the pipeline's
   * resolve stage all ask, and all get the first answer (a pool change mid-call does not split them).
   */
  callLookup(session: Session): (name: string) => Tool | undefined {
    const lookup = this.lookup(session);
    let last: { name: string; tool: Tool | undefined } | undefined;
    return (name) => {
      if (last?.name !== name) last = { name, tool: lookup(name) };
      return last.tool;
    };
  }

  /** `questions`: where the servers' questions for this call go (its caller's channel, when it answers any). */
  call(
    session: Session,
    name: string,
    input: unknown,
    signal: AbortSignal,
    onProgress?: (update: ProgressUpdate) => void,
    lookup = this.callLookup(session),
    questions?: QuestionChannel,
  ): Promise<ToolResult> {
    const { live, flags, metrics, logger } = this.#deps;
    const run = () => {
      const deps = { pool: live.pool(), lookup, killSwitch: (tool: Tool) => flags.killSwitch(tool, session), metrics, usage: this.usage, logger, stats: this.stats, operatorRoots: this.#operatorRoots() };
      return runSessionCall(deps, session, name, input, signal, onProgress, questions);
    };
    // ToolSearch reads the index: it (and no other call) waits while the index catches up with the
    // pool, in slices that leave the thread to every other request (search-sync.ts).
    if (name === TOOL_SEARCH_TOOL_NAME && !live.search.current) return live.search.ready().then(run);
    return run();
  }

  /** `toolpool/call`: the call (judging discoveries by the transcript when it is sent), the result also in the session's provider format. */
  async callForHarness(session: Session, params: HarnessCall, signal: AbortSignal, onProgress?: (update: ProgressUpdate) => void, questions?: QuestionChannel): Promise<CallResult> {
    if (params.messages) rememberTranscript(session, params.messages);
    return callResult(await this.call(session, params.name, params.input, signal, onProgress, undefined, questions), session, params.toolUseId);
  }

  /** MCP `tools/call`: a name the session does not have is refused as a request error, not run. */
  async callForMcp(session: Session, name: string, input: unknown, signal: AbortSignal, onProgress?: (update: ProgressUpdate) => void, questions?: QuestionChannel): Promise<McpToolsCallResult> {
    const lookup = this.callLookup(session);
    if (!lookup(name)) throw unknownMcpTool(this.#deps.live.pool(), session, name);
    return mcpCallResult(await this.call(session, name, input, signal, onProgress, lookup, questions));
  }

  /** After a reload: the operator's rules are a ceiling for open sessions too, from now on. */
  applyCeiling(config: Config): void {
    for (const session of this.store.all()) {
      session.settings = { ...session.settings, permissions: reapplyPermissionCeiling(config.permissions ?? OPERATOR_DEFAULTS, session.settings.permissions) };
    }
  }

  #explainDeps(): ExplainDeps {
    const { info, config, flags, live } = this.#deps;
    return {
      info,
      pool: live.pool(),
      offered: live.offered(),
      configDeny: { rules: config().permissions?.deny ?? [], source: live.configPath() ?? "the config" },
      deferPolicy: eagerPolicyOf(config()),
      servers: live.mcp()?.servers() ?? [],
      killSwitch: (tool, session) => flags.killSwitch(tool, session),
      suggest: (missing) => live.search.index.query(`select:${missing}`).didYouMean ?? [],
    };
  }

  #searchDeps(): SessionSearchDeps {
    const { live, metrics } = this.#deps;
    return {
      query: (text, options) => live.search.query(text, options),
      pool: live.pool(),
      pendingServers: live.pendingServers(),
      needsAuth: (tool) => live.mcp()?.toolFlags(tool)?.needsAuth === true,
      metrics,
    };
  }

  /** What the prefetch link reads (PREFETCH tiers make one; this module never requires it). */
  prefetchDeps(): PrefetchLinkDeps {
    const { live, flags } = this.#deps;
    return {
      search: live.search,
      pool: () => live.pool(),
      sessions: this.store,
      toolDeps: this.toolDeps,
      usage: () => this.usage,
      warmServer: (server) => live.ensureServerStarted(server),
      maxResults: () => flags.current.get("prefetch_max_results"),
      enabled: (session) => flags.current.get("prefetch_enabled", flags.attributes(session)),
    };
  }

  get usage(): DaemonUsage<Session> {
    if (!this.#usage) {
      const { env, logger, live, flags, usageDatabasePath } = this.#deps;
      const { openDaemonUsage } = require("../usage/open-usage.ts") as typeof import("../usage/open-usage.ts");
      this.#usage = openDaemonUsage<Session>({
        env,
        logger,
        pool: () => live.pool(),
        ...(usageDatabasePath !== undefined && { databasePath: usageDatabasePath }),
        recording: () => flags.current.get("usage_recording"),
        learning: (session) => flags.current.get("usage_learning", flags.attributes(session)),
        promotedCount: (session) => flags.current.get("usage_promoted_tools", flags.attributes(session)),
      });
    }
    return this.#usage;
  }

  close(): void {
    this.rootPins.closeAll();
    this.#usage?.service.close();
  }

  #opened(session: Session, resumed: boolean): void {
    this.#deps.logger.info("session opened", { session: session.id, resumed, model: session.settings.model });
  }

  /** The config's roots as real paths, resolved once per config (a reload brings a new one). */
  #operatorRoots(): { roots: readonly string[]; configured: boolean } {
    const config = this.#deps.config();
    if (this.#roots?.config !== config) {
      this.#roots = { config, roots: { roots: operatorRoots(config, process.cwd()), configured: config.workspaceRoots !== undefined } };
    }
    return this.#roots.roots;
  }
}
