/**
 * The MCP client pool: every configured server supervised, its tools in the pool as plain Tools.
 *
 * Start-up never waits on a server: the catalog cache puts every server's last tool list in the
 * pool at once (marked stale), then eager servers connect in the background, at most
 * `connectParallelism` at a time, and lazy servers wait until one of their tools is needed.
 * Whenever a server's tool list really changes, `onChange` listeners hear of it (the daemon
 * re-assembles its pool and tells its clients `notifications/tools/list_changed`).
 */
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../runtime/logger.ts";
import { errorResult, type ToolResult } from "../tool/result.ts";
import type { Tool, ToolContext, ToolInput } from "../tool/tool.ts";
import { JsonSchemaCompiler } from "../validate/ajv.ts";
import { DEFAULT_BACKOFF, type BackoffPolicy } from "./backoff.ts";
import { authorizationContext, type CacheScope } from "./cache-scope.ts";
import { CatalogCache, defaultCachePath } from "./catalog-cache.ts";
import { spawnInProcessGroup, type SpawnProcess } from "./child-process.ts";
import { ConnectLimiter } from "./connect-limiter.ts";
import { recordingSpawn, type ProcessRegistry } from "./process-registry.ts";
import {
  DEFAULT_CONNECT_PARALLELISM,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_SERVER_TIMEOUT_MS,
  HARD_CALL_CAP_MS,
  MAX_SERVER_LINE_BYTES,
  STDERR_RING_BYTES,
  STOP_GRACE_MS,
} from "./limits.ts";
import { buildServerTools } from "./pool-tool.ts";
import { connectServer, type ConnectDeps, type Connector } from "./server-connection.ts";
import type { ServerSpec } from "./server-spec.ts";
import { describeServer, type ServerStatus } from "./server-status.ts";
import { ServerSupervisor, type SupervisorDeps } from "./server-supervisor.ts";
import { systemTimers, type Timers } from "./timers.ts";
import { OAuthManager } from "./oauth-manager.ts";
import { defaultOAuthDir } from "./oauth-store.ts";

export interface McpPoolOptions {
  servers: readonly ServerSpec[];
  logger: Logger;
  compiler?: JsonSchemaCompiler;
  /** The catalog cache file; `null` keeps the cache in memory. Default: under $XDG_STATE_HOME. */
  cachePath?: string | null;
  timers?: Timers;
  spawn?: SpawnProcess;
  /** Wraps stdio servers that ask for a sandbox; without it such a server is not started. */
  confine?: ConnectDeps["confine"];
  connector?: Connector;
  /** The environment stdio servers inherit (plus their own `env`). */
  env?: NodeJS.ProcessEnv;
  connectParallelism?: number;
  connectTimeoutMs?: number;
  backoff?: Partial<BackoffPolicy>;
  graceMs?: number;
  maxLineBytes?: number;
  hardCapMs?: number;
  /** The call timeout of servers whose config sets none; read at each call (a runtime flag). */
  defaultTimeoutMs?: () => number;
  clientVersion?: string;
  /** Where each stdio server's process group is written down while it runs (reaped after a kill -9). */
  registry?: ProcessRegistry;
  /** Where OAuth token files live; default under $XDG_STATE_HOME/toolpool/oauth. */
  oauthDir?: string;
  /** The clock OAuth expiry is judged by (tests move it). Default: `timers.now`. */
  oauthNow?: () => number;
}

interface Catalog {
  definitions: McpTool[];
  tools: Tool[];
  changed: Set<string>;
  listedAt: number;
  /** The listing's `cacheScope` (2026-07-28 servers), undefined from the cache or a 2025 server. */
  scope?: CacheScope | undefined;
}

interface Entry {
  supervisor: ServerSupervisor;
  catalog: Catalog | undefined;
  /** Whether its tools are offered now; a flip is a pool change. */
  visible: boolean;
}

/** States whose tools are not offered: nothing to call (disabled), given up on (parked), gone (stopped). */
const HIDDEN_STATES: ReadonlySet<string> = new Set(["disabled", "parked", "stopped", "untrusted"]);

export class McpPool {
  readonly #entries = new Map<string, Entry>();
  readonly #listeners = new Set<() => void>();
  readonly #stateListeners = new Set<(server: string, state: string) => void>();
  readonly #cache: CatalogCache;
  readonly #compiler: JsonSchemaCompiler;
  readonly #timers: Timers;
  readonly #deps: Omit<SupervisorDeps, "onListing" | "onState">;
  #tools: Tool[] | undefined;
  #changeQueued = false;
  /** Per server, the entry's `alwaysLoad` names last warned of as naming no tool (once per change, not per listing). */
  readonly #alwaysLoadWarned = new Map<string, string>();
  #started = false;
  #stopped = false;
  /** Servers a reload removed and is still stopping; stop() waits for them too. */
  readonly #retiring = new Set<Promise<void>>();
  /** Tokens, refreshes and logins of the HTTP servers that use OAuth. */
  readonly oauth: OAuthManager;

  constructor(private readonly options: McpPoolOptions) {
    this.#timers = options.timers ?? systemTimers;
    this.#compiler = options.compiler ?? new JsonSchemaCompiler();
    const now = options.oauthNow ?? this.#timers.now;
    this.oauth = new OAuthManager({
      dir: options.oauthDir ?? defaultOAuthDir(options.env),
      logger: options.logger,
      now,
      // A server removed (or disabled) meanwhile has nothing to reconnect.
      onLoggedIn: (server) => {
        // Perhaps another account: a private listing of the old login is not served again.
        this.#cache.forgetPrivate(server);
        return this.restart(server).catch(() => undefined);
      },
    });
    this.#cache = CatalogCache.open(options.cachePath === undefined ? defaultCachePath(options.env) : options.cachePath, options.logger, this.#timers.now);
    this.#deps = {
      connector: options.connector ?? connectServer,
      connect: {
        spawn: options.registry ? recordingSpawn(options.spawn ?? spawnInProcessGroup, options.registry) : (options.spawn ?? spawnInProcessGroup),
        timers: this.#timers,
        baseEnv: options.env ?? process.env,
        maxLineBytes: options.maxLineBytes ?? MAX_SERVER_LINE_BYTES,
        graceMs: options.graceMs ?? STOP_GRACE_MS,
        clientVersion: options.clientVersion ?? "0.0.0",
        connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
        auth: (spec) => this.oauth.serverAuth(spec),
        ...(options.confine && { confine: options.confine }),
      },
      limiter: new ConnectLimiter(options.connectParallelism ?? DEFAULT_CONNECT_PARALLELISM),
      timers: this.#timers,
      logger: options.logger,
      backoff: { ...DEFAULT_BACKOFF, ...options.backoff },
      hardCapMs: options.hardCapMs ?? HARD_CALL_CAP_MS,
      defaultTimeoutMs: options.defaultTimeoutMs ?? (() => DEFAULT_SERVER_TIMEOUT_MS),
      stderrBudget: STDERR_RING_BYTES,
    };
    for (const spec of options.servers) this.#add(spec);
  }

  /** Begins connecting in the background; returns at once. Cached tools are in `tools()` already. */
  start(): void {
    this.#started = true;
    for (const entry of this.#entries.values()) this.#startEntry(entry);
  }

  /** Every offered MCP tool, cached or live, in server order. */
  tools(): readonly Tool[] {
    this.#tools ??= [...this.#entries.values()].flatMap((entry) => (entry.visible && entry.catalog ? entry.catalog.tools : []));
    return this.#tools;
  }

  /** `tools()` server by server: each visible server's list (the same array while its listing reads the same). */
  toolsByServer(): readonly (readonly Tool[])[] {
    return [...this.#entries.values()].flatMap((entry) => (entry.visible && entry.catalog ? [entry.catalog.tools] : []));
  }

  /** Called on every server state change (usage history). Returns an unsubscribe function. */
  onServerState(listener: (server: string, state: string) => void): () => void {
    this.#stateListeners.add(listener);
    return () => this.#stateListeners.delete(listener);
  }

  /** Called (coalesced) after the set of tools changed. Returns an unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  servers(): ServerStatus[] {
    return [...this.#entries.values()].map((entry) => this.#status(entry));
  }

  /** The server's spec as the pool runs it (for `toolpool auth`). */
  spec(name: string): ServerSpec | undefined {
    return this.#entries.get(name)?.supervisor.spec;
  }

  server(name: string): ServerStatus | undefined {
    const entry = this.#entries.get(name);
    return entry && this.#status(entry);
  }

  /** For an MCP tool: is it from the cache or an earlier connection (stale), and has it changed since first seen? */
  toolFlags(tool: Tool): { stale: boolean; changed: boolean; needsAuth?: true } | undefined {
    const entry = tool.mcpInfo && this.#entries.get(tool.mcpInfo.server);
    if (!entry?.catalog || !tool.mcpInfo) return undefined;
    const flags = { stale: entry.supervisor.state !== "connected", changed: entry.catalog.changed.has(tool.mcpInfo.tool) };
    return entry.supervisor.state === "needs-auth" ? { ...flags, needsAuth: true } : flags;
  }

  /** The server's tool definitions as it listed them (schemas verbatim, `$schema` kept), live or cached. */
  definitions(name: string): readonly McpTool[] | undefined {
    return this.#entries.get(name)?.catalog?.definitions;
  }

  /** The server's recent stderr (and the pool's notes on it), oldest first. */
  logs(name: string): string[] | undefined {
    return this.#entries.get(name)?.supervisor.stderr.lines();
  }

  /** Servers still connecting, for ToolSearch's `pending_mcp_servers`. */
  pendingServers(): string[] {
    return [...this.#entries.values()].filter((entry) => entry.supervisor.state === "pending").map((entry) => entry.supervisor.spec.name);
  }

  /** Servers still connecting whose tools are offered from a cached or earlier catalog (stale, not absent). */
  cachedPendingServers(): string[] {
    return [...this.#entries.values()]
      .filter((entry) => entry.supervisor.state === "pending" && entry.visible && entry.catalog !== undefined)
      .map((entry) => entry.supervisor.spec.name);
  }

  /** Servers that wait for an OAuth login; their cached tools stay searchable but cannot run yet. */
  loginServers(): string[] {
    return [...this.#entries.values()].filter((entry) => entry.supervisor.state === "needs-auth").map((entry) => entry.supervisor.spec.name);
  }

  /** Each server's `instructions` from initialize, for the `servers` announcement. */
  serverInstructions(): Map<string, string> {
    const found = new Map<string, string>();
    for (const entry of this.#entries.values()) {
      const text = entry.supervisor.instructions;
      if (text !== undefined) found.set(entry.supervisor.spec.name, text);
    }
    return found;
  }

  /** Starts a lazy server whose tool was selected or prefetched; resolves with its status once settled. */
  async ensureStarted(name: string): Promise<ServerStatus | undefined> {
    const entry = this.#entries.get(name);
    if (!entry) return undefined;
    await entry.supervisor.ensureStarted();
    return this.#status(entry);
  }

  /** Restarts a server (un-parking it); throws for an unknown, disabled or removed server. */
  async restart(name: string): Promise<ServerStatus> {
    const entry = this.#entries.get(name);
    if (!entry) throw new Error(`no MCP server named "${name}" is configured`);
    await entry.supervisor.restart();
    return this.#status(entry);
  }

  /** Applies a new server list by difference: removed servers stop, new ones start, changed ones restart. */
  async reconfigure(specs: readonly ServerSpec[]): Promise<void> {
    // A reload racing shutdown must not start servers nobody will stop.
    if (this.#stopped) return;
    const next = new Map(specs.map((spec) => [spec.name, spec]));
    const stopping: Promise<void>[] = [];
    for (const [name, entry] of this.#entries) {
      const spec = next.get(name);
      if (spec && sameSpec(spec, entry.supervisor.spec)) continue;
      this.#entries.delete(name);
      const stopped = entry.supervisor.stop();
      this.#retiring.add(stopped);
      void stopped.finally(() => this.#retiring.delete(stopped));
      stopping.push(stopped);
      this.options.logger.info(spec ? "MCP server config changed; restarting it" : "MCP server removed", { server: name });
    }
    await Promise.all(stopping);
    if (this.#stopped) return;
    for (const spec of specs) {
      if (this.#entries.has(spec.name)) continue;
      const entry = this.#add(spec);
      if (this.#started) this.#startEntry(entry);
    }
    this.#changed();
  }

  /** Stops every server (each process group killed) and closes the cache. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.oauth.close();
    await Promise.all([...this.#entries.values()].map((entry) => entry.supervisor.stop()).concat([...this.#retiring]));
    this.#cache.close();
  }

  /** Routes a call to the server that holds `tool` now (a reload may have replaced it). */
  callTool(server: string, tool: string, input: ToolInput, context: ToolContext): Promise<ToolResult> {
    const entry = this.#entries.get(server);
    if (!entry) return Promise.resolve(errorResult(`MCP server "${server}" is not configured any more.`));
    return entry.supervisor.callTool(tool, input, context);
  }

  #add(spec: ServerSpec): Entry {
    // The supervisor never calls back from its constructor, so `entry` is set before it is read.
    let entry: Entry;
    const supervisor = new ServerSupervisor(spec, {
      ...this.#deps,
      onListing: (_server, definitions, scope) => this.#onListing(entry, definitions, scope),
      onState: () => this.#onState(entry),
    });
    const cached = spec.disabled ? undefined : this.#cache.load(spec.name, authorizationContext(spec, this.#deps.connect.baseEnv));
    const catalog = cached && { definitions: cached.tools, tools: this.#build(spec, cached.tools), changed: cached.changed, listedAt: cached.listedAt };
    entry = { supervisor, catalog, visible: false };
    entry.visible = isVisible(entry);
    this.#entries.set(spec.name, entry);
    return entry;
  }

  #startEntry(entry: Entry): void {
    // A lazy server with nothing cached is started once to learn its tools, then left idle.
    entry.supervisor.start({ discover: entry.catalog === undefined });
  }

  #onListing(entry: Entry, definitions: McpTool[], scope: CacheScope | undefined): void {
    if (this.#entries.get(entry.supervisor.spec.name) !== entry) return;
    const now = this.#timers.now();
    const previous = entry.catalog;
    const same = previous !== undefined && previous.scope === scope && JSON.stringify(previous.definitions) === JSON.stringify(definitions);
    // An unchanged list costs no write: a server that re-lists constantly must not churn the cache.
    const spec = entry.supervisor.spec;
    const changed = same ? previous.changed : this.#cache.save(spec.name, definitions, now, { scope, context: authorizationContext(spec, this.#deps.connect.baseEnv) });
    entry.catalog = { definitions, tools: same ? previous.tools : this.#build(spec, definitions), changed, listedAt: same ? previous.listedAt : now, scope };
    entry.visible = isVisible(entry);
    if (!same) this.#changed();
  }

  #onState(entry: Entry): void {
    if (this.#entries.get(entry.supervisor.spec.name) !== entry) return;
    for (const listener of this.#stateListeners) listener(entry.supervisor.spec.name, entry.supervisor.state);
    // Parking (or un-parking) hides (or shows) the server's tools; other states leave them be.
    const visible = isVisible(entry);
    if (visible === entry.visible) return;
    entry.visible = visible;
    this.#changed();
  }

  #build(spec: ServerSpec, definitions: readonly McpTool[]): Tool[] {
    const tools = buildServerTools(definitions, {
      server: spec.name,
      compiler: this.#compiler,
      alwaysLoad: new Set(spec.alwaysLoad),
      ...(spec.defer !== undefined && { defer: spec.defer }),
      deadlineMs: this.#deps.hardCapMs,
      call: (tool, input, context) => this.callTool(spec.name, tool, input, context),
      onSkip: (tool, reason) => this.options.logger.warn("MCP tool skipped", { server: spec.name, tool, reason }),
      onRename: (tool, name, clashedWith) =>
        this.options.logger.warn("MCP tool names collide once made provider-safe; the later one is renamed", { server: spec.name, tool, name, clashedWith }),
    });
    // A misspelt alwaysLoad name is a setting silently lost, as a misspelt defer key is (core/eager-config.ts).
    const known = new Set(tools.flatMap((tool) => [tool.name, tool.mcpInfo?.tool ?? tool.name]));
    const unmatched = spec.alwaysLoad.filter((name) => !known.has(name));
    if ((this.#alwaysLoadWarned.get(spec.name) ?? "") !== unmatched.join(",")) {
      this.#alwaysLoadWarned.set(spec.name, unmatched.join(","));
      if (unmatched.length > 0) this.options.logger.warn("config alwaysLoad names no tool the MCP server lists (raw or pool name): the setting does nothing", { server: spec.name, names: unmatched.slice(0, 20).join(", "), count: unmatched.length });
    }
    return tools;
  }

  #changed(): void {
    this.#tools = undefined;
    if (this.#changeQueued) return;
    this.#changeQueued = true;
    queueMicrotask(() => {
      this.#changeQueued = false;
      for (const listener of this.#listeners) {
        try {
          listener();
        } catch (error) {
          this.options.logger.error("MCP pool change listener failed", { error: (error as Error).message });
        }
      }
    });
  }

  #status(entry: Entry): ServerStatus {
    return describeServer(entry.supervisor, entry.catalog);
  }
}

function isVisible(entry: Entry): boolean {
  return entry.catalog !== undefined && !HIDDEN_STATES.has(entry.supervisor.state);
}

function sameSpec(a: ServerSpec, b: ServerSpec): boolean {
  const { origin: _a, ...left } = a;
  const { origin: _b, ...right } = b;
  return JSON.stringify(left) === JSON.stringify(right);
}
