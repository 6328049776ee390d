/**
 * A session: one agent conversation's settings and caches. The transcript stays the source of
 * truth (SPEC §8): everything here except the settings can be rebuilt from the messages, so a
 * daemon restart loses nothing a client cannot give back.
 */
import type { PinnedRoot } from "../runtime/root-pins.ts";
import type { FlagAttributes } from "../flags/runtime-flags.ts";
import type { Discovery } from "../protocol/explain.ts";
import type { PermissionSettings } from "../permissions/rules.ts";
import type { Tool } from "../tool/tool.ts";
import type { ResolvedProfile } from "../pool/profile.ts";
import { CallScheduler } from "./call-scheduler.ts";
import { systemClock, type Clock } from "../runtime/clock.ts";

export type Delivery = "auto" | "native" | "proxy" | "mid-conversation" | "standard";
export type Format = "anthropic" | "openai";
export type Provider = "anthropic" | "openai" | "other";
export type AnnouncementStyle = "list" | "delta" | "servers";

export interface SessionSettings {
  model: string;
  provider: Provider;
  baseUrl: string | null;
  delivery: Delivery;
  /** mid-conversation delivery adds tools by value (the inline-tools beta); absent means false. */
  inlineTools?: true;
  /** Calls run as they come, never queued behind each other (a stateless bridge caller); absent means false. */
  concurrentCalls?: true;
  format: Format;
  /** `true`, `false`, `auto` or `auto:N`, as ENABLE_TOOL_SEARCH takes it. */
  toolSearch: string;
  contextWindow: number | null;
  workspaceRoots: string[];
  cwd: string;
  permissions: PermissionSettings;
  announcements: AnnouncementStyle;
  prefetch: boolean;
  outputSchema: Record<string, unknown> | null;
  clientName: string;
  attributes: Record<string, string | number | boolean>;
  /** Runtime-flag values fixed when the session opened, so a flip never reshapes its array. */
  runtime: RuntimeSnapshot;
  /** The tool profile the session picked, groups expanded when it opened; null: the whole pool. */
  profile: ResolvedProfile | null;
}

/** The runtime flags a session reads, as they were when it opened. */
export interface RuntimeSnapshot {
  unsupportedModels: readonly string[];
  autoPercent: number;
  searchMaxResults: number;
  /** ToolSearch answers keyword searches compactly (the `search_compact_answers` flag). */
  compactAnswers: boolean;
  /** Tools the kill switch had removed when the session opened (absent from its arrays). */
  disabledTools: readonly string[];
}

/**
 * The tools a session has beyond the pool, built once for its delivery so their bytes never change
 * mid-conversation: its ToolSearch and ExecuteExtraTool, and StructuredOutput when it has a schema.
 */
export interface SessionOwnTools {
  toolSearch: Tool;
  executeExtraTool: Tool;
  structuredOutput?: Tool;
  /** The schema `structuredOutput` was built from (a re-opened session may change it). */
  outputSchema: Record<string, unknown> | null;
  /** Deferred tools this session loads as core (its workspace's most used), decided once. */
  promoted: ReadonlySet<string>;
  /** Whether a pool tool is in the session's profile and projects (always, without a profile). */
  admits: (tool: Tool) => boolean;
  /** The session's view of the pool (profile and projects applied), kept until the pool or the settings change. */
  view: <P extends { readonly tools: readonly Tool[] }>(pool: P) => P;
}

export class Session {
  readonly scheduler = new CallScheduler();
  /** Scratch space for tools that keep per-session state (TodoWrite). */
  readonly toolState = new Map<string, unknown>();
  /** The workspace roots held open since the session opened (session-roots.ts); file tools resolve beneath them. */
  rootPins: readonly PinnedRoot[] | undefined;
  /** The client (connection) that last opened the session; per-client quotas count by it. */
  client: string | undefined;
  /** Serialized tool bytes, frozen at first use so a tool's schema never changes mid-session. */
  readonly serializedTools = new Map<string, string>();
  readonly createdAt: number;
  lastActiveAt: number;
  #discovered: ReadonlySet<string> = new Set();
  readonly #searched = new Set<string>();
  readonly #found = new Map<string, Discovery>();
  /**
   * mid-conversation delivery: the names of the session's fixed tools array, pinned at its first
   * assemble (src/assembly/mid-conversation.ts) so the array's bytes never change afterwards.
   */
  readonly fixedTools: { pinned?: { core: string[]; deferred: string[] }; loaded?: readonly string[] } = {};
  /**
   * What the last assembled request's tools array held (tools[], and mid-conversation's tools added
   * by value) and what ToolSearch answers loaded since: the room left (core/array-room.ts).
   */
  readonly toolsArray: { held?: ReadonlySet<string>; readonly added: Set<string> } = { added: new Set() };
  /** Built on first use by the core (src/core/session-tools.ts), then fixed for the session's life. */
  ownTools: SessionOwnTools | undefined;
  #settings: SessionSettings;
  #flagAttributes: FlagAttributes | undefined;

  /** Connections currently attached (a session may be resumed from a new connection). */
  attached = 0;
  calls = 0;

  constructor(
    readonly id: string,
    settings: SessionSettings,
    private readonly clock: Clock = systemClock,
  ) {
    this.#settings = settings;
    this.createdAt = clock.now();
    this.lastActiveAt = this.createdAt;
  }

  get settings(): SessionSettings {
    return this.#settings;
  }

  /** New settings (a re-opened session): what was derived from the old ones is derived again. */
  set settings(next: SessionSettings) {
    this.#settings = next;
    this.#flagAttributes = undefined;
  }

  /** The flag attributes of the current settings, made once per settings (flag reads cache by identity). */
  flagAttributes(make: (settings: SessionSettings) => FlagAttributes): FlagAttributes {
    this.#flagAttributes ??= make(this.#settings);
    return this.#flagAttributes;
  }

  /** Deferred tools the last assembled (or sent) transcript discovered (for ExecuteExtraTool). */
  get discovered(): ReadonlySet<string> {
    return this.#discovered;
  }

  /** The transcript the client sent was scanned: what it discovered replaces what the last one did. */
  rememberTranscript(discovered: ReadonlySet<string>): void {
    this.#discovered = discovered;
  }

  /**
   * Deferred tools this session saw the schema of without a transcript to show it: its own
   * ToolSearch results, proxy prefetch suggestions, and blind calls that validated. A bridge or
   * plain MCP client sends no transcript, so this is how they count as discovered.
   */
  get searched(): ReadonlySet<string> {
    return this.#searched;
  }

  /** How each name in `searched` was found (for `toolpool explain`); keys are pool names, so bounded by the pool. */
  get found(): ReadonlyMap<string, Discovery> {
    return this.#found;
  }

  /** The session saw this tool's schema (how, when known: a search and its query, a prefetch). */
  markFound(name: string, how?: Discovery): void {
    this.#searched.add(name);
    if (how) this.#found.set(name, how);
  }

  /** Whether this conversation has seen the tool's schema (its transcript or its own searches). */
  hasDiscovered(name: string): boolean {
    return this.discovered.has(name) || this.searched.has(name);
  }

  touch(): void {
    this.lastActiveAt = this.clock.now();
  }

  /** A call of this session starts: it counts, and the session is active now. */
  callStarted(): void {
    this.calls++;
    this.touch();
  }
}
