/**
 * Every method the daemon serves: its name, its params schema (validated at the door, so the error
 * names the field) and its result type. The client library imports this file for its types.
 * docs/protocol.md describes each with an example; keep the two in step.
 */
import { z } from "zod";
import { MAX_SESSION_RULES, permissionRuleProblem } from "./permission-rule-syntax.ts";
import type { ContentBlock } from "./content.ts";
import { MAX_SESSION_ATTRIBUTES } from "./limits.ts";

export const MCP_PROTOCOL_VERSION = "2025-06-18";
export const SUPPORTED_PROTOCOL_VERSIONS = ["2025-06-18", "2025-03-26", "2024-11-05", "2025-11-25"];

const sessionRef = { sessionId: z.string().min(1).max(128).optional() };

/** A rule is checked where it enters (session params, config), not at the first call it would judge. */
const permissionRule = z.string().superRefine((rule, context) => {
  const problem = permissionRuleProblem(rule);
  if (problem) context.addIssue({ code: "custom", message: problem });
});

export const permissionsSchema = z.strictObject({
  mode: z.enum(["default", "readOnly", "bypass"]).default("default"),
  allow: z.array(permissionRule).default([]),
  deny: z.array(permissionRule).default([]),
});

/**
 * What a session may ask for: nothing has a default, so an absent field keeps the config's choice
 * (src/permissions/ceiling.ts merges it under the config's rules).
 */
export const sessionPermissionsSchema = z.strictObject({
  mode: z.enum(["default", "readOnly", "bypass"]).optional(),
  allow: z.array(permissionRule).max(MAX_SESSION_RULES, `at most ${MAX_SESSION_RULES} allow rules per session`).optional(),
  deny: z.array(permissionRule).max(MAX_SESSION_RULES, `at most ${MAX_SESSION_RULES} deny rules per session`).optional(),
});

/** PATH_MAX: a longer root or cwd cannot name a directory. */
const MAX_PATH_CHARS = 4096;
const MAX_OUTPUT_SCHEMA_CHARS = 64 * 1024;

export const sessionParams = z.lazy(() =>
  z.strictObject({
    ...sessionRef,
    model: z.string().max(200).optional(),
    provider: z.enum(["anthropic", "openai", "other"]).optional(),
    baseUrl: z.string().max(2000).optional(),
    delivery: z.enum(["auto", "native", "proxy", "mid-conversation", "standard"]).optional(),
    /** mid-conversation delivery: add tools by value (the inline-tools beta); echoed only when true. */
    inlineTools: z.boolean().optional(),
    /**
     * The session's calls run side by side, each as it comes, instead of in the per-session order
     * (call-scheduler.ts): for a stateless (2026-07-28) bridge caller, whose requests are independent
     * by the protocol. Fixed when the session opens; echoed only when true.
     */
    concurrentCalls: z.boolean().optional(),
    format: z.enum(["anthropic", "openai"]).optional(),
    toolSearch: z.string().regex(/^(true|false|auto(:\d{1,3})?)$/, "expected true, false, auto or auto:N").optional(),
    contextWindow: z.number().int().positive().optional(),
    workspaceRoots: z.array(z.string().min(1).max(MAX_PATH_CHARS)).max(64).optional(),
    cwd: z.string().min(1).max(MAX_PATH_CHARS).optional(),
    permissions: sessionPermissionsSchema.optional(),
    announcements: z.enum(["list", "delta", "servers"]).optional(),
    prefetch: z.boolean().optional(),
    outputSchema: z
      .record(z.string(), z.unknown())
      .refine((schema) => JSON.stringify(schema).length <= MAX_OUTPUT_SCHEMA_CHARS, `an outputSchema is at most ${MAX_OUTPUT_SCHEMA_CHARS / 1024} KB of JSON`)
      .optional(),
    clientName: z.string().max(200).optional(),
    /** Kept with the session for its life, and read by flag rules: a few short values, not a store. */
    attributes: z
      .record(z.string().max(100), z.union([z.string().max(1000), z.number(), z.boolean()]))
      .refine((attributes) => Object.keys(attributes).length <= MAX_SESSION_ATTRIBUTES, `at most ${MAX_SESSION_ATTRIBUTES} attributes`)
      .optional(),
    /**
     * Of the connection, not the session (never in `settings`): this client acknowledges cron firings
     * itself with `toolpool/cronAck`. Omitted keeps what the connection said before (false at first).
     */
    cronAcks: z.boolean().optional(),
    /** A tool profile from the config: the session's pool is only its tools (see docs/operations.md). */
    profile: z.string().min(1).max(64).optional(),
  }),
);

export const assembleParams = z.lazy(() =>
  z.strictObject({
    ...sessionRef,
    messages: z.array(z.unknown()).default([]),
    /** Anthropic's top-level `system`, when the client keeps summaries or attachments there. */
    system: z.unknown().optional(),
  }),
);

export const callParams = z.lazy(() =>
  z.strictObject({
    ...sessionRef,
    name: z.string().min(1).max(256),
    input: z.record(z.string(), z.unknown()).default({}),
    toolUseId: z.string().max(256).optional(),
    /** The transcript so far; when given, ExecuteExtraTool judges "discovered" from it directly. */
    messages: z.array(z.unknown()).optional(),
  }),
);

export const searchParams = z.lazy(() =>
  z.strictObject({
    ...sessionRef,
    query: z.string().max(10_000),
    maxResults: z.number().int().min(1).max(100).optional(),
  }),
);

export const emptyParams = z.lazy(() => z.looseObject({}));
/** For `toolpool/*` methods that take nothing: an unknown field is an error, as everywhere else. */
export const noParams = z.lazy(() => z.strictObject({}));

export const mcpToolsListParams = z.lazy(() => z.looseObject({ cursor: z.string().optional() }));

export const mcpToolsCallParams = z.lazy(() =>
  z.looseObject({
    name: z.string().min(1),
    arguments: z.record(z.string(), z.unknown()).optional(),
  }),
);

export const subscriptionsListenParams = z.lazy(() =>
  z.looseObject({ notifications: z.looseObject({ toolsListChanged: z.boolean().optional() }) }),
);

export const cancelledParams = z.lazy(() =>
  z.looseObject({
    requestId: z.union([z.string(), z.number()]),
    reason: z.string().optional(),
  }),
);

export const initializeParams = z.lazy(() =>
  z.looseObject({
    protocolVersion: z.string(),
    capabilities: z.record(z.string(), z.unknown()).default({}),
    clientInfo: z.looseObject({ name: z.string(), version: z.string().optional() }).optional(),
  }),
);

/** `toolpool/turnStarted` and `toolpool/prefetch`. */
export const prefetchParams = z.lazy(() =>
  z.strictObject({
    ...sessionRef,
    messages: z.array(z.unknown()).default([]),
  }),
);

/** `toolpool/flags`: the values for one session's attributes, or the daemon's. */
export const flagsParams = z.lazy(() => z.strictObject(sessionRef));

/** `toolpool/status`, `tools`, `servers`: like every `toolpool/*` method they take an optional `sessionId` (it must exist). */
export const sessionRefParams = z.lazy(() => z.strictObject(sessionRef));

/** `toolpool/tools`: also the pool one profile of the config leaves (`toolpool tools --profile NAME`). */
export const toolsParams = z.lazy(() => z.strictObject({ ...sessionRef, profile: z.string().min(1).max(64).optional(), cursor: z.string().max(1024).optional() }));

export const cronSubscribeParams = z.lazy(() =>
  z.strictObject({
    ...sessionRef,
    jobId: z.string().min(1).max(128),
  }),
);

/** Firing ids per `toolpool/cronAck`: a client acknowledges what it was sent, in batches at most this long. */
export const MAX_ACK_IDS = 500;

export const cronAckParams = z.lazy(() =>
  z.strictObject({
    ...sessionRef,
    firingIds: z.array(z.string().min(1).max(128)).min(1).max(MAX_ACK_IDS),
  }),
);

/** `toolpool/servers/logs` and `toolpool/servers/restart`: one configured MCP server. */
export const serverNameParams = z.lazy(() => z.strictObject({ name: z.string().min(1).max(200) }));

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
    inlineTools?: boolean;
    concurrentCalls?: boolean;
    format: string;
    toolSearch: string;
    contextWindow: number | null;
    workspaceRoots: string[];
    cwd: string;
    /** The effective rules: the config's, narrowed by the session's (`sessionAllow` is its own allow list). */
    permissions: { mode: string; allow: readonly string[]; deny: readonly string[]; sessionAllow?: readonly string[]; sessionDeny?: readonly string[]; sessionMode?: string };
    announcements: string;
    prefetch: boolean;
    outputSchema: Record<string, unknown> | null;
    clientName: string;
    attributes: Record<string, string | number | boolean>;
    /** Runtime-flag values fixed when the session opened. */
    runtime: { unsupportedModels: readonly string[]; autoPercent: number; searchMaxResults: number; compactAnswers: boolean; disabledTools: readonly string[] };
    /** The session's tool profile (groups expanded), or null for the whole pool. */
    profile: { name: string; include: string[]; exclude: string[] } | null;
  };
}

export interface CallResult {
  content: ContentBlock[];
  isError: boolean;
  structuredContent?: Record<string, unknown>;
  /** The result in the session's provider format, ready to append to the transcript. */
  toolResult: Record<string, unknown>;
}

/** What `toolpool/assemble` decided for the next request (docs/protocol.md has every field). */
export interface AssembleResult {
  sessionId: string;
  format: "anthropic" | "openai";
  /** The request's tools array, in the session's provider format. */
  tools: unknown[];
  announcement: { style: string; text: string; persist: boolean; added: string[]; removed: string[]; changed: { name: string; fingerprint: string }[] } | null;
  betas: string[];
  deferring: boolean;
  /** `auto`: tst-auto's measurement (the deferred tools' tokens against the threshold). */
  mode: { mode: string; deferring: boolean; reason: string; auto?: { tokens: number; threshold: number; above: boolean; counter: string } };
  delivery: { delivery: string; reason: string };
  discovered: string[];
  counts: { core: number; deferred: number; discovered: number; toolTokens: number; toolTokenCounter: string };
  warnings: string[];
  /** mid-conversation delivery only: the system message to insert at `index` and keep (null: none). */
  toolChanges?: { index: number; message: { role: "system"; content: unknown[] }; added: string[]; removed: string[] } | null;
}

export interface CompactResult {
  sessionId: string;
  /** Put this in the summary message (nothing when null). */
  block: string | null;
  discovered: string[];
}

export interface SearchResultMatch {
  name: string;
  score: number;
  description: string;
  deferred: boolean;
  server?: string;
}

export interface SearchResult {
  kind: "select" | "discover" | "keyword";
  matches: SearchResultMatch[];
  found?: string[];
  missing?: string[];
  exactName?: string;
  server?: string;
  [detail: string]: unknown;
}

export type PrefetchParams = z.input<typeof prefetchParams>;

export interface PrefetchResult {
  sessionId: string;
  suggestions: { name: string; description: string; server?: string }[];
  /** A `<tool-discovery>` block to insert before the next request, or null. */
  attachment: string | null;
  query: string;
  precomputed: boolean;
  skipped?: string;
}

/** `toolpool/flags`: every runtime flag with its value and where it came from (src/flags/runtime-flags.ts). */
export interface FlagsResult {
  implementation: "static" | "growthbook";
  attributes: { readonly [name: string]: string | number | boolean | readonly string[] | null | undefined };
  flags: {
    key: string;
    type: string;
    description: string;
    value: unknown;
    defaultValue: unknown;
    source: "default" | "static" | "file" | "remote" | "cached";
    ageMs: number | null;
    requires: string | null;
    compiled: boolean;
  }[];
  payloads: {
    source: "file" | "remote";
    location: string;
    state: "waiting" | "loaded" | "cached" | "failed";
    ageMs: number | null;
    features: number;
    lastError: string | null;
  }[];
}

export interface InitializeResult {
  protocolVersion: string;
  capabilities: { tools: { listChanged: boolean } };
  serverInfo: { name: string; version: string };
  instructions: string;
}

/** One tool as MCP hosts see it. */
export interface McpTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown> & { type: "object" };
  outputSchema?: Record<string, unknown> & { type: "object" };
  icons?: { src: string; mimeType?: string; sizes?: string[]; theme?: "light" | "dark" }[];
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; openWorldHint?: boolean };
}

/** What a 2026-07-28 result adds (absent for clients of 2025 revisions). */
export interface RevisionResultFields {
  resultType?: "complete";
  _meta?: Record<string, unknown>;
}

export interface CachingHints {
  ttlMs?: number;
  cacheScope?: "public" | "private";
}

export interface McpToolsListResult extends RevisionResultFields, CachingHints {
  tools: McpTool[];
  nextCursor?: string;
}

export interface McpToolsCallResult extends RevisionResultFields {
  content: ContentBlock[];
  isError: boolean;
  structuredContent?: Record<string, unknown>;
}

export interface DiscoverResult extends RevisionResultFields, CachingHints {
  supportedVersions: string[];
  capabilities: { tools: { listChanged: boolean } };
  instructions?: string;
}

/** `toolpool/auth/*`: OAuth for HTTP MCP servers (docs/protocol.md). */
export const MAX_LOGIN_TIMEOUT_MS = 30 * 60_000;
const serverName = z.string().min(1).max(200);
export const authLoginParams = z.lazy(() => z.strictObject({ name: serverName, timeoutMs: z.number().int().min(1_000).max(MAX_LOGIN_TIMEOUT_MS).optional() }));
export const authNameParams = z.lazy(() => z.strictObject({ name: serverName }));
export const authStatusParams = z.lazy(() => z.strictObject({ name: serverName.optional() }));

// The operator's results live in admin-results.ts; named here too for the modules that import them from this file.
export type {
  AuthLoginResult,
  AuthStatusSummary,
  ProjectSummaryResult,
  ServerLogsResult,
  ServerRestartResult,
  ServersResult,
  ServerSummary,
  StatusResult,
  ToolSummary,
  ToolsResult,
} from "./admin-results.ts";

/** `toolpool/answer` (docs/protocol.md "Questions from servers"): a client's answer to a server's question. */
export const answerParams = z.lazy(() =>
  z.strictObject({
    questionId: z.string().min(1).max(64),
    /** The request's result, as MCP defines it (an ElicitResult, a CreateMessageResult). */
    result: z.record(z.string(), z.unknown()).optional(),
    /** Or: the client could not answer (the server gets this error). */
    error: z.strictObject({ code: z.number().int(), message: z.string().max(4096) }).optional(),
  }).refine((params) => (params.result === undefined) !== (params.error === undefined), { message: "give exactly one of result and error" }),
);
