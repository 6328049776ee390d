/**
 * Every method the daemon serves: its name, its params schema (validated at the door, so the error
 * names the field) and its result type. The client library imports this file for its types.
 * docs/protocol.md describes each with an example; keep the two in step.
 */
import { z } from "zod";
import { parseRule } from "../permissions/rules.ts";

export const MCP_PROTOCOL_VERSION = "2025-06-18";
export const SUPPORTED_PROTOCOL_VERSIONS = ["2025-06-18", "2025-03-26", "2024-11-05", "2025-11-25"];

const sessionRef = { sessionId: z.string().min(1).max(128).optional() };

/** A rule is checked where it enters (session params, config), not at the first call it would judge. */
const permissionRule = z.string().superRefine((rule, context) => {
  try {
    parseRule(rule);
  } catch (error) {
    context.addIssue({ code: "custom", message: (error as Error).message });
  }
});

export const permissionsSchema = z.strictObject({
  mode: z.enum(["default", "readOnly", "bypass"]).default("default"),
  allow: z.array(permissionRule).default([]),
  deny: z.array(permissionRule).default([]),
});

export const sessionParams = z.strictObject({
  ...sessionRef,
  model: z.string().max(200).optional(),
  provider: z.enum(["anthropic", "openai", "other"]).optional(),
  baseUrl: z.string().max(2000).optional(),
  delivery: z.enum(["auto", "native", "proxy", "standard"]).optional(),
  format: z.enum(["anthropic", "openai"]).optional(),
  toolSearch: z.string().regex(/^(true|false|auto(:\d{1,3})?)$/, "expected true, false, auto or auto:N").optional(),
  contextWindow: z.number().int().positive().optional(),
  workspaceRoots: z.array(z.string().min(1)).max(64).optional(),
  cwd: z.string().min(1).optional(),
  permissions: permissionsSchema.optional(),
  announcements: z.enum(["list", "delta"]).optional(),
  prefetch: z.boolean().optional(),
  outputSchema: z.record(z.string(), z.unknown()).optional(),
  clientName: z.string().max(200).optional(),
  attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  /**
   * Of the connection, not the session (never in `settings`): this client acknowledges cron firings
   * itself with `toolpool/cronAck`. Omitted keeps what the connection said before (false at first).
   */
  cronAcks: z.boolean().optional(),
  /** A tool profile from the config: the session's pool is only its tools (see docs/operations.md). */
  profile: z.string().min(1).max(64).optional(),
});

export const assembleParams = z.strictObject({
  ...sessionRef,
  messages: z.array(z.unknown()).default([]),
  /** Anthropic's top-level `system`, when the client keeps summaries or attachments there. */
  system: z.unknown().optional(),
});

export const callParams = z.strictObject({
  ...sessionRef,
  name: z.string().min(1).max(256),
  input: z.record(z.string(), z.unknown()).default({}),
  toolUseId: z.string().max(256).optional(),
  /** The transcript so far; when given, ExecuteExtraTool judges "discovered" from it directly. */
  messages: z.array(z.unknown()).optional(),
});

export const searchParams = z.strictObject({
  ...sessionRef,
  query: z.string().max(10_000),
  maxResults: z.number().int().min(1).max(100).optional(),
});

export const emptyParams = z.looseObject({});
/** For `toolpool/*` methods that take nothing: an unknown field is an error, as everywhere else. */
export const noParams = z.strictObject({});

export const mcpToolsListParams = z.looseObject({ cursor: z.string().optional() });

export const mcpToolsCallParams = z.looseObject({
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).optional(),
});

export const cancelledParams = z.looseObject({
  requestId: z.union([z.string(), z.number()]),
  reason: z.string().optional(),
});

/** `toolpool/servers/logs` and `toolpool/servers/restart`: one configured MCP server. */
export const serverNameParams = z.strictObject({ name: z.string().min(1).max(200) });

export type SessionParams = z.input<typeof sessionParams>;
export type AssembleParams = z.input<typeof assembleParams>;
export type CallParams = z.input<typeof callParams>;
export type SearchParams = z.input<typeof searchParams>;


/** What `toolpool/session` decided for the session. */
export interface SessionResult {
  sessionId: string;
  resumed: boolean;
  settings: {
    model: string;
    provider: string;
    baseUrl: string | null;
    delivery: string;
    format: string;
    toolSearch: string;
    contextWindow: number | null;
    workspaceRoots: string[];
    cwd: string;
    permissions: { mode: string; allow: readonly string[]; deny: readonly string[] };
    announcements: string;
    prefetch: boolean;
    outputSchema: Record<string, unknown> | null;
    clientName: string;
    attributes: Record<string, string | number | boolean>;
    /** Runtime-flag values fixed when the session opened. */
    runtime: { unsupportedModels: readonly string[]; autoPercent: number; searchMaxResults: number; disabledTools: readonly string[] };
    /** The session's tool profile (groups expanded), or null for the whole pool. */
    profile: { name: string; include: string[]; exclude: string[] } | null;
  };
}

export interface ToolSummary {
  name: string;
  description: string;
  source: "builtin" | "mcp";
  server?: string;
  deferred: boolean;
  readOnly: boolean;
  concurrencySafe: boolean;
  destructive: boolean;
  openWorld: boolean;
  alwaysLoad: boolean;
  /** MCP tools: listed from the catalog cache or an earlier connection, not the live server. */
  stale?: boolean;
  /** MCP tools: description or schema differs from the first version seen. */
  changed?: boolean;
  /** MCP tools: the server waits for `toolpool auth login` (the tool is listed, calls fail until then). */
  needsAuth?: boolean;
}

export interface ToolsResult {
  tools: ToolSummary[];
  collisions: { name: string; kept: string; dropped: string[] }[];
}

export interface CallResult {
  content: unknown[];
  isError: boolean;
  structuredContent?: Record<string, unknown>;
  /** The result in the session's provider format, ready to append to the transcript. */
  toolResult: Record<string, unknown>;
}

export interface AssembleResult {
  tools: unknown[];
  [key: string]: unknown;
}

export interface StatusResult {
  version: string;
  tier: string;
  features: string[];
  compiled: boolean;
  pid: number;
  socket: string;
  uptimeMs: number;
  sessions: { active: number; detached: number };
  connections: number;
  tools: { total: number; builtin: number; mcp: number };
  calls: { total: number; inFlight: number };
  memory: { rssBytes: number; heapUsedBytes: number };
  [key: string]: unknown;
}

/** One configured MCP server as `toolpool/servers` reports it. */
export interface ServerSummary {
  name: string;
  /** idle (lazy, not needed yet), pending, connected, failed, parked, disabled, stopped, needs-auth. */
  state: string;
  /** needs-auth: the exact command that logs in (its cached tools stay searchable meanwhile). */
  login?: string;
  /** Why it is failed or parked, with the tail of its stderr. */
  reason?: string;
  transport: "stdio" | "http" | "sse";
  startup: "eager" | "lazy";
  toolCount: number;
  /** Its tools come from the catalog cache or an earlier connection, not the live server. */
  stale: boolean;
  /** Raw names of tools whose description or schema changed since first seen. */
  changedTools: string[];
  pid?: number;
  restarts: number;
  inFlight: number;
  nextRetryAt?: string;
  listedAt?: string;
}

export interface ServersResult {
  servers: ServerSummary[];
}

export interface ServerLogsResult {
  name: string;
  /** Recent stderr lines, oldest first (bounded). */
  lines: string[];
}

export interface ServerRestartResult {
  server: ServerSummary;
}
