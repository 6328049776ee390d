/**
 * The live pool: built-ins plus the MCP pool's tools, through the config's deny rules, re-assembled
 * (and the search index synced) on every change of MCP tools, with listeners told. It owns the MCP
 * pool's life (start, reconfigure, stop), the projects' servers and `serve --demo`'s.
 */
import { dirname } from "node:path";
import type { BuildInfo } from "../build-info.ts";
import type { ConfigSource } from "../config/load.ts";
import type { Config } from "../config/schema.ts";
import type { McpPool, McpPoolOptions } from "../mcp/mcp-pool.ts";
import type { ProjectSummary } from "../mcp/project-servers.ts";
import { projectSandboxDefault, resolveServerSpecs, type ServerSpec } from "../mcp/server-spec.ts";
import { assemblePool, type Pool } from "../pool/assemble.ts";
import { deferKeyWarning, eagerPolicyOf, guardWarning, unmatchedDeferKeys } from "./eager-config.ts";
import type { Logger } from "../runtime/logger.ts";
import type { Tool } from "../tool/tool.ts";
import { CoreProjects } from "./core-projects.ts";
import { DemoServers } from "./demo-servers.ts";
import { SearchSync } from "./search-sync.ts";
import { SearchWarm, type SearchWarmOptions } from "./search-warm.ts";
import { SortedRuns } from "./sorted-runs.ts";

export interface LivePoolOptions {
  builtins: readonly Tool[];
  config: () => Config;
  configSource: ConfigSource;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  info: BuildInfo;
  /** Adds the reference MCP servers from ./node_modules/.bin (`toolpool serve --demo`). */
  demo?: boolean;
  /** Overrides for the MCP pool (tests: cache path, timings). */
  mcpOptions?: Partial<Omit<McpPoolOptions, "servers" | "logger">>;
  /** The MCP call timeout when a server sets none (a runtime flag). */
  defaultTimeoutMs: () => number;
  /** A server changed state (the usage history records it). */
  onServerState: Parameters<McpPool["onServerState"]>[0];
  /** When the index catches up in the background after a pool change (search-warm.ts; tests: timers). */
  searchWarm?: Partial<SearchWarmOptions>;
}

export class LivePool {
  readonly search: SearchSync;
  /** Starts the index's catch-up once the pool settles, so the first search finds it built. */
  readonly searchWarm: SearchWarm;
  readonly #options: LivePoolOptions;
  /** `serve --demo`'s reference servers; none otherwise. */
  readonly #demo: DemoServers | undefined;
  readonly #changeListeners = new Set<() => void>();
  /** Servers that projects' `.toolpool.json` files bring (run only once trusted). */
  readonly #projects: CoreProjects;
  #pool: Pool;
  #mcp: McpPool | undefined;
  #registry: McpPoolOptions["registry"];
  #closed = false;
  /** Set once the daemon listens: project servers found before then start with the rest. */
  #listening = false;

  constructor(options: LivePoolOptions) {
    this.#options = options;
    const catchUpMessage = {
      begin: "search index catching up",
      end: "search index current",
      impacts: "search impacts worked out ahead (or given up)",
      "warm-up": "search queries warmed up (or given up)",
    } as const;
    this.search = new SearchSync({ onCatchUp: (event) => options.logger.debug(catchUpMessage[event.phase], { ...event }) });
    this.searchWarm = new SearchWarm(
      this.search,
      {
        onStart: (facts) => options.logger.debug("search index building in the background", facts),
        onError: (error) => options.logger.warn("search index background build failed", { error: (error as Error).message }),
      },
      options.searchWarm,
    );
    this.#demo = options.demo ? new DemoServers() : undefined;
    this.#projects = new CoreProjects(options.env, options.logger, () => this.#applyServers());
    this.#pool = this.#assemble();
  }

  pool(): Pool {
    return this.#pool;
  }

  /** The MCP client pool, once started (undefined before, or with no server configured). */
  mcp(): McpPool | undefined {
    return this.#mcp;
  }

  /** Every tool offered before the config's deny rules: built-ins, and MCP tools as listed. */
  offered(): readonly Tool[] {
    return [...this.#options.builtins, ...(this.#mcp?.tools() ?? [])];
  }

  /** The config file, when there is one. */
  configPath(): string | null {
    return this.#options.configSource.path;
  }

  /** The config file's directory, where relative paths in it are read from. */
  configDir(): string | undefined {
    return this.#options.configSource.path ? dirname(this.#options.configSource.path) : undefined;
  }

  pendingServers(): readonly string[] {
    return this.#mcp?.pendingServers() ?? [];
  }

  ensureServerStarted(server: string): void {
    void this.#mcp?.ensureStarted(server);
  }

  /** Called after every change of the pool's tools (an MCP server listed, left, changed). */
  onToolsChanged(listener: () => void): () => void {
    this.#changeListeners.add(listener);
    return () => this.#changeListeners.delete(listener);
  }

  /** The MCP servers this config names (plus the projects' and the demo ones); throws naming a bad entry. */
  async serverSpecs(config: Config = this.#options.config()): Promise<ServerSpec[]> {
    const { env, configSource } = this.#options;
    const configured = [...(await resolveServerSpecs(config, { env, configPath: configSource.path })), ...this.#projects.specs(env, projectSandboxDefault(config, configSource.path, env))];
    return this.#demo ? this.#demo.addTo(configured) : configured;
  }

  /** A new config's servers (already resolved, so a bad entry refused it before anything changed), and its deny rules. */
  async reconfigure(servers: readonly ServerSpec[]): Promise<void> {
    if (this.#mcp) await this.#mcp.reconfigure(servers);
    else if (servers.length > 0) this.startMcp(servers);
    this.#pool = this.#assemble();
  }

  /** Before a reload's servers are resolved: the projects' files are read again. */
  rereadProjects(roots: readonly string[]): void {
    this.#projects.reread(roots);
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
      logger: this.#options.logger,
      env: this.#options.env,
      clientVersion: this.#options.info.version,
      defaultTimeoutMs: this.#options.defaultTimeoutMs,
      ...(registry && { registry }),
      ...this.#options.mcpOptions,
    });
    this.#mcp = pool;
    pool.onServerState(this.#options.onServerState);
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
    this.searchWarm.close();
    this.search.close();
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Removes what the pool made for itself on disk (the demo's scratch directory). */
  removeScratch(): void {
    this.#demo?.remove();
  }

  stopMcp(): Promise<void> {
    return this.#mcp?.stop() ?? Promise.resolve();
  }

  /** A session opens in these roots: their project files are read, and their default profile returned. */
  sessionOpened(roots: readonly string[], client?: string): string | undefined {
    return this.#projects.sessionOpened(roots, client);
  }

  /** The config's workspace roots are projects too: their files are read before the first start. */
  observeConfigProjects(): void {
    this.#projects.observe(this.#options.config().workspaceRoots ?? [process.cwd()]);
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
      const servers = await this.serverSpecs();
      if (this.#mcp) await this.#mcp.reconfigure(servers);
      else if (servers.length > 0 && this.#listening) this.startMcp(servers, this.#registry);
    } catch (error) {
      this.#options.logger.error("applying project servers failed", { error: (error as Error).message });
    }
  }

  /** Logs once per change of the set the tool-count guard deferred. */
  readonly #guardWarning = guardWarning(() => this.#options.logger);
  /** Logs once per change of the config's `defer` entries that name no tool. */
  readonly #deferKeyWarning = deferKeyWarning(() => this.#options.logger);

  /** The MCP tools in name order, servers whose list did not change not sorted again. */
  readonly #sortedMcp = new SortedRuns();

  #assemble(): Pool {
    const { builtins, config, logger } = this.#options;
    const mcpTools = this.#mcp ? this.#sortedMcp.of(this.#mcp.toolsByServer()) : [];
    const pool = assemblePool({ builtins, mcpTools, deny: config().permissions?.deny ?? [], eager: eagerPolicyOf(config()) });
    this.#guardWarning(pool, config().maxToolsInArray);
    this.#deferKeyWarning(unmatchedDeferKeys(config().defer, builtins, mcpTools));
    for (const collision of pool.collisions) logger.warn("tool name collision", { ...collision });
    const changes = this.search.sync(pool.tools, (name) => pool.get(name)?.name === name);
    logger.debug("search index synced", changes);
    if (changes.added + changes.removed + changes.replaced > 0) this.searchWarm.poolChanged(pool.tools);
    return pool;
  }
}
