/**
 * The tools a session has beyond the pool: its ToolSearch and ExecuteExtraTool, built for the
 * session's delivery (fixed for the session's life, so their bytes never change mid-conversation),
 * and StructuredOutput when its settings give an output schema. The session holds them.
 * `sessionLookup` is what the session's calls resolve names with: its own tools first, then the pool.
 */
import { createExecuteExtraTool } from "../builtin/execute-extra-tool.ts";
import { createToolSearchTool, type ToolSearchEngine } from "../builtin/tool-search.ts";
import { deliveryOf } from "./session-delivery.ts";
import type { Pool } from "../pool/assemble.ts";
import type { Session, SessionOwnTools } from "../session/session.ts";
import type { GroupText, Tool } from "../tool/tool.ts";
import { createStructuredOutputTool } from "../builtin/structured-output.ts";
import type { JsonSchemaCompiler } from "../validate/ajv.ts";
import type { Metrics } from "../telemetry/metrics.ts";
import { filterPool, followProfile } from "../pool/profile.ts";
import type { DaemonUsage } from "../usage/daemon-usage.ts";
import { isDeferredTool } from "../deferral/is-deferred.ts";
import type { QueryResult } from "../search/types.ts";
import { isMetaToolName } from "../deferral/meta-tools.ts";
import { DEFAULT_MAX_TOOLS_IN_ARRAY } from "../deferral/eager-policy.ts";
import { arrayRoom, loadedIntoArray } from "./array-room.ts";

export interface SessionToolDeps {
  pool: () => Pool;
  engine: ToolSearchEngine;
  pendingServers: () => readonly string[];
  /** Connecting servers whose cached tools are searchable (marked stale); MCP servers' instructions. */
  cachedServers?: () => readonly string[];
  /** MCP servers waiting for an OAuth login (their cached tools are found but cannot run yet). */
  loginServers?: () => readonly string[];
  serverInstructions?: () => ReadonlyMap<string, string>;
  /** Counters for OpenTelemetry (a no-op unless telemetry is on). */
  metrics?: Metrics;
  /** Usage history: records searches, ranks with the workspace's prior, promotes its most used tools. */
  usage?: DaemonUsage<Session>;
  /** The project root an MCP server came from (a project's `.toolpool.json`), if it did. */
  serverProject?: (server: string) => string | undefined;
  /** Starts a lazily started MCP server in the background (a `select:` of one of its tools). */
  warmServer?: (server: string) => void;
  /**
   * Which tools the operator's config defers always (`defer`, per tool or per server), read per
   * request: they are never promoted, and a request that would send every tool defers instead.
   */
  operatorDeferred?: () => (tool: Tool) => boolean;
  /** The config's `maxToolsInArray`, read when an answer loads tools (core/array-room.ts). */
  maxToolsInArray?: () => number;
  /** Shared by every session's StructuredOutput: one compilation per distinct schema. */
  compiler: JsonSchemaCompiler;
}

export function sessionTools(session: Session, deps: SessionToolDeps): SessionOwnTools {
  const own = session.ownTools;
  if (own) {
    if (own.outputSchema !== session.settings.outputSchema) withStructuredOutput(own, session.settings.outputSchema, deps);
    return own;
  }
  const decided = deliveryOf(session);
  const delivery = decided === "standard" ? "proxy" : decided;
  const base = deps.usage ? deps.usage.searchEngine(session, deps.engine) : deps.engine;
  // The operator's "always" holds against the workspace's habits too: such a tool is never promoted.
  const promoted = decided !== "standard" && deps.usage ? deps.usage.promoted(session, deps.operatorDeferred?.()) : new Set<string>();
  const stillDeferred = (tool: Tool) => isDeferredTool(tool) && !promoted.has(tool.name);
  const inProfile = followProfile(() => session.settings.profile);
  const admits = (tool: Tool) => inProfile(tool) && inProject(tool, session, deps);
  // Called per search candidate: a plain lookup and a check, no view object.
  const lookup = (name: string) => {
    const tool = deps.pool().get(name);
    return tool && admits(tool) ? tool : undefined;
  };
  const compact = session.settings.runtime.compactAnswers;
  const markFound = (names: readonly string[], text: string): void => {
    for (const name of names) session.markFound(name, { via: "search", query: text.slice(0, 200) });
    // What native and mid-conversation answers load takes room in the tools array until the next request shows it there.
    if (delivery !== "proxy") loadedIntoArray(session, names);
  };
  const inSession = (name: string) => lookup(name) !== undefined;
  // The model's query goes through the usage wrapper's `query` (recorded as a search); the answer's
  // own look-ups through its `peek` (not recorded, nothing learned from them).
  const ask = (search: NonNullable<ToolSearchEngine["peek"]>): NonNullable<ToolSearchEngine["peek"]> => (text, options) =>
    withinSession(
      search(text, { ...options, filter: (name) => inSession(name) && (options?.filter?.(name) ?? true), scope: (name) => inSession(name) && (options?.scope?.(name) ?? true) }),
      lookup,
    );
  const searched = ask((text, options) => base.query(text, options));
  const peek = ask((text, options) => (base.peek ? base.peek(text, options) : base.query(text, options)));
  const engine: ToolSearchEngine = {
    ready: () => deps.engine.ready?.() ?? Promise.resolve(),
    peek,
    query(text, options) {
      const result = searched(text, options);
      deps.metrics?.search({ kind: result.kind, results: result.matches.length, source: "tool_search", delivery: decided });
      // What is found is what ToolSearch says it delivered (onDelivered), so a bridge or harness that
      // sends no transcript still gets what its own searches found: not what a listing only named
      // (it loads nothing), nor a discover:'s schemas (SPEC §7), nor a compact answer's one-line
      // signatures (a wrong blind call then gets the schema), nor what an answer looked up for its notes.
      // Selecting a tool means a call is coming: start its server now if it starts lazily.
      if (result.kind === "select") {
        for (const name of result.found ?? []) {
          const server = deps.pool().get(name)?.mcpInfo?.server;
          if (server) deps.warmServer?.(server);
        }
      }
      return result;
    },
  };
  // Filtering a large pool costs milliseconds; an assemble per turn should not pay it each time.
  let lastView: { pool: unknown; settings: Session["settings"]; view: unknown } | undefined;
  const view = <P extends { readonly tools: readonly Tool[] }>(pool: P): P => {
    if (lastView?.pool !== pool || lastView.settings !== session.settings) lastView = { pool, settings: session.settings, view: filterPool(pool as unknown as Pool, admits) };
    return lastView.view as P;
  };
  // Before its first request a session's array is taken to hold its core tools (core/array-room.ts).
  const coreNames = () => view(deps.pool()).tools.filter((tool) => tool.isEnabled() && !isMetaToolName(tool.name) && !stillDeferred(tool)).map((tool) => tool.name);
  const tools: SessionOwnTools = {
    outputSchema: null,
    promoted,
    admits,
    view,
    toolSearch: createToolSearchTool({
      engine,
      lookup,
      delivery,
      ...(promoted.size > 0 && { isDeferred: stillDeferred }),
      pendingServers: deps.pendingServers,
      ...(deps.cachedServers && { cachedServers: deps.cachedServers }),
      ...(deps.loginServers && { loginServers: deps.loginServers }),
      groupInfo: (server) => groupInfoOf(view(deps.pool()).tools, server),
      announcements: session.settings.announcements,
      defaultMaxResults: session.settings.runtime.searchMaxResults,
      ...(compact && { compact }),
      onDelivered: markFound,
      ...(delivery !== "proxy" && { addable: (names: readonly string[]) => arrayRoom({ session, delivery, limit: deps.maxToolsInArray?.() ?? DEFAULT_MAX_TOOLS_IN_ARRAY, coreNames }, names) }),
    }),
    executeExtraTool: createExecuteExtraTool({ lookup, ...(promoted.size > 0 && { isDeferred: stillDeferred }) }),
  };
  withStructuredOutput(tools, session.settings.outputSchema, deps);
  session.ownTools = tools;
  return tools;
}

/** Throws OutputSchemaError for a schema that does not compile (the session handler reports it). */
function withStructuredOutput(tools: SessionOwnTools, schema: Record<string, unknown> | null, deps: SessionToolDeps): void {
  if (schema) tools.structuredOutput = createStructuredOutputTool(schema, deps.compiler);
  else delete tools.structuredOutput;
  tools.outputSchema = schema;
}

export function sessionLookup(session: Session, deps: SessionToolDeps): (name: string) => Tool | undefined {
  const own = sessionTools(session, deps);
  return (name) => {
    if (name === own.toolSearch.name) return own.toolSearch;
    if (name === own.executeExtraTool.name) return own.executeExtraTool;
    if (own.structuredOutput && name === own.structuredOutput.name) return own.structuredOutput;
    const tool = deps.pool().get(name);
    return tool && own.admits(tool) ? tool : undefined;
  };
}

/** Another project's servers are not in this session's pool (their names could collide in meaning, not in text). */
function inProject(tool: Tool, session: Session, deps: SessionToolDeps): boolean {
  const project = tool.mcpInfo && deps.serverProject?.(tool.mcpInfo.server);
  return project === undefined || session.settings.workspaceRoots.includes(project);
}

/**
 * A tool outside the session (its profile, another project) is not in its pool: no select, no exact
 * name, no suggestion names it. ToolSearch and `toolpool/search` both answer through this.
 */
export function withinSession(result: QueryResult, lookup: (name: string) => Tool | undefined): QueryResult {
  if (result.kind !== "select" && result.exactName === undefined && !result.didYouMean) return result;
  const inside = (name: string) => lookup(name) !== undefined;
  const next: QueryResult = { ...result, matches: result.matches.filter((match) => inside(match.name)) };
  if (result.found) next.found = result.found.filter(inside);
  if (result.found && next.found) next.missing = [...(result.missing ?? []), ...result.found.filter((name) => !inside(name))];
  if (result.exactName !== undefined && !inside(result.exactName)) delete next.exactName;
  // A server's or group's spelling (`mcp__<server>`, `mcp__<server>/<group>`: a bare server name's or
  // an ambiguous bare group's suggestions) is no tool name: the index offered it only when the unit
  // has a tool in the asker's scope (QueryOptions.scope).
  if (result.didYouMean) next.didYouMean = result.didYouMean.filter((name) => inside(name) || UNIT_SPELLING.test(name));
  return next;
}

/** `mcp__<server>` or `mcp__<server>/<group>`: a server name holds no `__` and no slash, an MCP tool's pool name holds `__` after the server's. */
const UNIT_SPELLING = /^mcp__(?:(?!__)[^/])+(?:\/[^/]+)?$/;

/** A server's groups' titles and descriptions, from the tools of the session's view (any member carries its groups'). */
function groupInfoOf(tools: readonly Tool[], server: string): Map<string, GroupText> {
  const found = new Map<string, GroupText>();
  for (const tool of tools) {
    const info = tool.mcpInfo?.server === server ? tool.mcpInfo.groupInfo : undefined;
    if (info === undefined) continue;
    for (const [group, text] of Object.entries(info)) if (!found.has(group)) found.set(group, text);
  }
  return found;
}
