/**
 * Where the daemon meets the usage service: the few hooks its call path, ToolSearch, assembly and
 * prefetch call, each one line at its call site. Kept here, typed against small views of a session
 * and a pool, so the hooks move with the code when the call path moves.
 */
import { isDeferredTool } from "../deferral/is-deferred.ts";
import { EXECUTE_EXTRA_TOOL_NAME, TOOL_SEARCH_TOOL_NAME } from "../deferral/meta-tools.ts";
import type { ToolSearchEngine } from "../builtin/tool-search.ts";
import type { Pool } from "../pool/assemble.ts";
import type { ToolResult } from "../tool/result.ts";
import type { Tool } from "../tool/tool.ts";
import { withUsagePrior } from "./prior-engine.ts";
import { callOutcome } from "./call-outcome.ts";
import { standardTokens } from "./standard-tokens.ts";
import { firstRequestTokens, TOKEN_COUNTER } from "./token-estimate.ts";
import type { UsageSession } from "./usage-recorder.ts";
import type { UsageService } from "./usage-service.ts";
import type { WorkspacePrior } from "./workspace-prior.ts";

/** What calls of names that are no tool are counted as in the usage history. */
export const UNKNOWN_TOOL_LABEL = "(no such tool)";

/** `toolpool status --watch` measures tokens with its own session; that is not use. */
export const UNRECORDED_CLIENT_NAME = "toolpool status --watch";
/** A prefetch adds at most this many tools because they often followed the last call. */
const MAX_FOLLOWER_SUGGESTIONS = 1;

/** What the hooks read of a session. */
export interface UsageSessionView {
  readonly id: string;
  readonly settings: {
    readonly workspaceRoots: readonly string[];
    readonly cwd: string;
    readonly clientName: string;
    readonly announcements: string;
    readonly format: "anthropic" | "openai";
    readonly runtime: { readonly disabledTools: readonly string[] };
  };
}

export interface DaemonUsageDeps<S extends UsageSessionView> {
  service: UsageService;
  pool: () => Pool;
  /** Runtime flags for this session: the prior on/off, and how many tools to promote (0: none). */
  learning: (session: S) => boolean;
  promotedCount: (session: S) => number;
  /** Monotonic milliseconds, for call durations. */
  elapsed?: () => number;
}

export class DaemonUsage<S extends UsageSessionView = UsageSessionView> {
  readonly service: UsageService;
  readonly #deps: DaemonUsageDeps<S>;
  readonly #elapsed: () => number;
  /** Each tool's size in `standard`, per wire format (tools outlive pool versions). */
  readonly #toolTokens = { anthropic: new WeakMap<Tool, number>(), openai: new WeakMap<Tool, number>() };

  constructor(deps: DaemonUsageDeps<S>) {
    this.service = deps.service;
    this.#deps = deps;
    this.#elapsed = deps.elapsed ?? (() => performance.now());
  }

  /** A session's usage identity: its id and first workspace root (its cwd when it has none). */
  of(session: UsageSessionView): UsageSession {
    return { sessionId: session.id, workspace: session.settings.workspaceRoots[0] ?? session.settings.cwd };
  }

  /** The session's ToolSearch engine: the prior applied (when the flag allowed it at open), the model's searches recorded (`query`), the answer's own look-ups not (`peek`). */
  searchEngine(session: S, engine: ToolSearchEngine): ToolSearchEngine {
    const identity = this.of(session);
    const prior = this.#deps.learning(session) ? this.#prior(identity.workspace) : undefined;
    const ranked = prior ? withUsagePrior(engine, prior) : engine;
    return {
      query: (text, options) => {
        const result = ranked.query(text, options);
        this.service.search({
          ...identity,
          kind: result.kind,
          query: text,
          results: result.kind === "select" ? (result.found ?? []) : result.matches.map((match) => match.name),
          selectMisses: result.missing?.length ?? 0,
          didYouMean: (result.didYouMean?.length ?? 0) > 0,
        });
        return result;
      },
      // An answer's look-ups for its own notes: ranked alike, never recorded (not the model's search).
      peek: (text, options) => ranked.query(text, options),
    };
  }

  /**
   * The workspace's most used deferred tools, promoted to this session's core set. Asked once,
   * when the session's own tools are built, so its tools array stays the same for its whole life.
   */
  promoted(session: S, excluded?: (tool: Tool) => boolean): ReadonlySet<string> {
    const count = this.#deps.promotedCount(session);
    if (count <= 0) return new Set();
    const pool = this.#deps.pool();
    const killed = session.settings.runtime.disabledTools;
    const prior = this.service.prior(this.of(session).workspace);
    return new Set(
      prior.mostUsed(count, (name) => {
        const tool = pool.get(name);
        return tool !== undefined && tool.name === name && tool.isEnabled() && isDeferredTool(tool) && !killed.includes(name) && !(excluded?.(tool) ?? false);
      }),
    );
  }

  /** Wraps one call's execution: times it and records what came of it. */
  call(session: S, name: string, input: unknown): (run: () => Promise<ToolResult>) => Promise<ToolResult> {
    return async (run) => {
      const started = this.#elapsed();
      const result = await run();
      const target = name === EXECUTE_EXTRA_TOOL_NAME && isObject(input) && typeof input.tool_name === "string" ? input.tool_name : name;
      const tool: Tool | undefined = this.#deps.pool().get(target);
      const known = tool !== undefined || name === TOOL_SEARCH_TOOL_NAME;
      this.service.call({
        ...this.of(session),
        // A name that is no tool (`get-sum` for `mcp__everything__get-sum`, a made-up mcp__ name) is
        // counted under one label: `toolpool stats` lists tools, not every string a model typed.
        tool: known ? (tool?.name ?? target) : UNKNOWN_TOOL_LABEL,
        ...(tool?.mcpInfo && { server: tool.mcpInfo.server }),
        durationMs: this.#elapsed() - started,
        ...callOutcome(result),
        known,
      });
      return result;
    };
  }

  /**
   * After an assemble: the session's first request measured (tools array + announcement) against
   * the standard request of the same session's tools (`sessionTools`: its profile, less what the
   * kill switch removed), so a profile's own saving is not counted as deferral's.
   */
  assembled(session: S, assembled: { tools: readonly unknown[]; announcement: { text: string } | null; delivery: { delivery: string } }, sessionTools: readonly Tool[]): void {
    if (session.settings.clientName === UNRECORDED_CLIENT_NAME || !this.service.claimFirstRequest(session.id)) return;
    const format = session.settings.format;
    const standard = standardTokens(sessionTools, format, this.#toolTokens[format]);
    // In standard delivery the request is the standard array: no second count of the same bytes.
    const sent = assembled.delivery.delivery === "standard" ? standard : firstRequestTokens(assembled.tools, assembled.announcement?.text);
    this.service.firstRequest({
      ...this.of(session),
      delivery: assembled.delivery.delivery,
      announcements: session.settings.announcements,
      sentTokens: sent,
      standardTokens: standard,
      counter: TOKEN_COUNTER.label,
    });
  }

  /** What a prefetch suggested, to see later whether the session called it. */
  prefetched(session: S, result: { query: string; suggestions: readonly { name: string }[] }): void {
    this.service.prefetch({ ...this.of(session), query: result.query, suggestions: result.suggestions.map((suggestion) => suggestion.name) });
  }

  /** Prefetch's engine for a session: the prior applied when the flag allows it. */
  prefetchEngine(session: S, engine: ToolSearchEngine): ToolSearchEngine {
    if (!this.#deps.learning(session)) return engine;
    return withUsagePrior(engine, this.#prior(this.of(session).workspace));
  }

  /** Tools that often came right after the one the session just called. */
  followers(session: S): string[] {
    if (!this.#deps.learning(session)) return [];
    const last = this.service.lastTool(session.id);
    return last === null ? [] : this.service.prior(this.of(session).workspace).followers(last, MAX_FOLLOWER_SUGGESTIONS);
  }

  #prior(workspace: string): () => WorkspacePrior {
    // Read on each query: a cleared history drops the workspace's prior, and the next query reloads it.
    return () => this.service.prior(workspace);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
