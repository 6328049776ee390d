/**
 * A session: one agent conversation's settings and caches. The transcript stays the source of
 * truth (SPEC §8): everything here except the settings can be rebuilt from the messages, so a
 * daemon restart loses nothing a client cannot give back.
 */
import type { PermissionSettings } from "../permissions/rules.ts";
import type { ResolvedProfile } from "../pool/profile.ts";
import { CallScheduler } from "./call-scheduler.ts";

export type Delivery = "auto" | "native" | "proxy" | "standard";
export type Format = "anthropic" | "openai";
export type Provider = "anthropic" | "openai" | "other";
export type AnnouncementStyle = "list" | "delta";

export interface SessionSettings {
  model: string;
  provider: Provider;
  baseUrl: string | null;
  delivery: Delivery;
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
  /** Tools the kill switch had removed when the session opened (absent from its arrays). */
  disabledTools: readonly string[];
}

export class Session {
  readonly scheduler = new CallScheduler();
  /** Scratch space for tools that keep per-session state (TodoWrite). */
  readonly toolState = new Map<string, unknown>();
  /** Serialized tool bytes, frozen at first use so a tool's schema never changes mid-session. */
  readonly serializedTools = new Map<string, string>();
  readonly createdAt = Date.now();
  lastActiveAt = Date.now();
  /** Deferred tools the last assembled transcript discovered (for ExecuteExtraTool). */
  discovered: ReadonlySet<string> = new Set();

  /** Connections currently attached (a session may be resumed from a new connection). */
  attached = 0;
  calls = 0;

  constructor(
    readonly id: string,
    public settings: SessionSettings,
  ) {}

  touch(): void {
    this.lastActiveAt = Date.now();
  }
}
