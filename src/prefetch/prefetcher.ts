/**
 * Between-turn prefetch (SPEC §9). When the assistant turn starts, the client says so and the
 * daemon searches the deferred pool with the last user text while the model is busy; when the turn
 * ends, `toolpool/prefetch` answers from that precomputed result. Suggestions are the top few
 * deferred tools not suggested before in the session and not already discovered; a lazily started
 * MCP server that holds one is started now, so its schemas are ready before the model asks.
 */
import { renderToolDiscovery } from "../assembly/tool-discovery-attachment.ts";
import { isDeferredTool } from "../deferral/is-deferred.ts";
import type { ToolSearchEngine } from "../builtin/tool-search.ts";
import type { Tool } from "../tool/tool.ts";
import { SuggestedSet } from "./suggested-set.ts";
import { hasAssistantTurn, lastUserText } from "./user-query.ts";

export const DEFAULT_PREFETCH_RESULTS = 3;
/**
 * Sessions whose prefetch state is kept, least recently used dropped first. Nothing tells the
 * prefetcher when a session ends, so without a bound every session the daemon ever served would
 * keep its suggested names and last precomputed attachment (schemas, in proxy delivery) for good.
 * Above the session store's own bound on detached sessions, so a live session is not dropped.
 */
export const MAX_PREFETCH_SESSIONS = 2_048;

export interface PrefetchSuggestion {
  name: string;
  description: string;
  server?: string;
}

export interface PrefetchResult {
  /** Why there is nothing, when there is nothing. */
  skipped?: "turn_zero" | "disabled" | "no_user_text" | "nothing_new";
  query: string;
  suggestions: PrefetchSuggestion[];
  /** The `tool_discovery` block for the client to insert before the next request, or null. */
  attachment: string | null;
  /** Whether the answer was computed at turn start (true) or on demand (false). */
  precomputed: boolean;
}

export interface PrefetchSession {
  readonly id: string;
  /** `proxy` attachments carry schemas (ExecuteExtraTool may run them at once); `native` only names. */
  delivery: "native" | "proxy";
  enabled: boolean;
  discovered: ReadonlySet<string>;
  /** Whether the tool is in the session's pool at all (its profile, its projects); default: every tool. */
  admits?: (tool: Tool) => boolean;
}

export interface PrefetcherDeps {
  engine: ToolSearchEngine;
  lookup: (name: string) => Tool | undefined;
  /** Starts a lazy MCP server in the background (no-op for a running one). */
  warmServer?: (server: string) => void;
  maxResults?: () => number;
  /** The session's engine (its workspace's usage prior applied); `engine` when absent. */
  engineFor?: (sessionId: string) => ToolSearchEngine;
  /** Tools that often followed the session's last call: a candidate even when the query missed it. */
  followers?: (sessionId: string) => readonly string[];
}

interface SessionPrefetch {
  suggested: SuggestedSet;
  /** Computed at turn start, keyed by the query it answers. */
  pending?: { query: string; result: PrefetchResult };
}

export class Prefetcher {
  readonly #sessions = new Map<string, SessionPrefetch>();

  constructor(private readonly deps: PrefetcherDeps) {}

  /** The assistant turn began: compute now, so the answer is ready when the turn ends. */
  turnStarted(session: PrefetchSession, messages: readonly unknown[]): void {
    const state = this.#state(session.id);
    const result = this.#compute(session, messages, true, state);
    state.pending = { query: result.query, result };
  }

  /** The suggestions for the turn that just ran; precomputed when `turnStarted` came first. */
  prefetch(session: PrefetchSession, messages: readonly unknown[]): PrefetchResult {
    const state = this.#state(session.id);
    const pending = state.pending;
    state.pending = undefined;
    if (pending && pending.query === lastUserText(messages)) return pending.result;
    // Turn zero (the first user message, no assistant turn begun): suggesting tools while the
    // user is still typing proved intrusive in the design this follows, so it is not done.
    if (!hasAssistantTurn(messages)) return empty("turn_zero", "");
    return this.#compute(session, messages, false, state);
  }

  forget(sessionId: string): void {
    this.#sessions.delete(sessionId);
  }

  suggestedNames(sessionId: string): string[] {
    return this.#sessions.get(sessionId)?.suggested.names() ?? [];
  }

  get sessionCount(): number {
    return this.#sessions.size;
  }

  #state(sessionId: string): SessionPrefetch {
    let state = this.#sessions.get(sessionId);
    // Re-inserted on every use: the Map's order is then least recently used first.
    if (state) this.#sessions.delete(sessionId);
    else state = { suggested: new SuggestedSet() };
    this.#sessions.set(sessionId, state);
    if (this.#sessions.size > MAX_PREFETCH_SESSIONS) this.#sessions.delete(this.#sessions.keys().next().value!);
    return state;
  }

  #compute(session: PrefetchSession, messages: readonly unknown[], precomputed: boolean, state: SessionPrefetch): PrefetchResult {
    if (!session.enabled) return empty("disabled", "", precomputed);
    const query = lastUserText(messages);
    if (!query) return empty("no_user_text", query, precomputed);
    const limit = this.deps.maxResults?.() ?? DEFAULT_PREFETCH_RESULTS;
    const eligible = (name: string) => {
      if (state.suggested.has(name) || session.discovered.has(name)) return false;
      const tool = this.deps.lookup(name);
      return tool !== undefined && tool.isEnabled() && isDeferredTool(tool) && (session.admits?.(tool) ?? true);
    };
    const engine = this.deps.engineFor?.(session.id) ?? this.deps.engine;
    const found = engine.query(query, { maxResults: limit, filter: eligible });
    // A query that is itself a name or a select: resolves outside the filter; keep only eligible tools.
    const matched = found.matches.map((match) => this.deps.lookup(match.name)).filter((tool): tool is Tool => tool !== undefined && eligible(tool.name));
    // A follower takes the last slot: the query's best matches come first.
    const follower = (this.deps.followers?.(session.id) ?? [])
      .map((name) => this.deps.lookup(name))
      .find((tool): tool is Tool => tool !== undefined && eligible(tool.name) && !matched.includes(tool));
    const tools = follower ? [...matched.slice(0, limit - 1), follower] : matched.slice(0, limit);
    if (tools.length === 0) return empty("nothing_new", query, precomputed);
    for (const tool of tools) {
      state.suggested.add(tool.name);
      if (tool.mcpInfo) this.deps.warmServer?.(tool.mcpInfo.server);
    }
    return {
      query,
      precomputed,
      suggestions: tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        ...(tool.mcpInfo && { server: tool.mcpInfo.server }),
      })),
      attachment: renderToolDiscovery(tools, session.delivery),
    };
  }
}

function empty(skipped: NonNullable<PrefetchResult["skipped"]>, query: string, precomputed = false): PrefetchResult {
  return { skipped, query, suggestions: [], attachment: null, precomputed };
}
