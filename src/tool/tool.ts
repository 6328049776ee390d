/**
 * The tool contract: every tool in the pool, built-in or MCP, is one of these plain objects.
 * Built by `buildTool()` (built-ins, zod) or `buildMcpTool()` (MCP, JSON Schema), never by hand,
 * so that every capability a tool does not declare falls back to the safe answer.
 */
import type { ProgressUpdate } from "../protocol/progress.ts";
import type { QuestionChannel } from "../protocol/server-question.ts";
import type { ContentBlock, ToolResult } from "./result.ts";
import type { PathDenyRule } from "../permissions/path-deny-rule.ts";
import type { ShellFacts } from "../permissions/shell-facts.ts";
import type { Validator } from "../validate/validator.ts";
import type { PinnedRoot } from "../runtime/root-pins.ts";

export type JsonSchema = Record<string, unknown>;
export type ToolInput = Record<string, unknown>;

export interface McpInfo {
  /** The server's name as configured. */
  server: string;
  /** The tool's own name on that server, before sanitizing. */
  tool: string;
  /** The server's groups this tool is in (the MCP grouping extension, nesting followed; src/mcp/server-groups.ts). */
  groups?: readonly string[];
  /** What the server says of the tool for hosts, passed on by the MCP faces (src/mcp/tool-presentation.ts). */
  presentation?: McpPresentation;
  /** The title and description of each of `groups` that has one (one line each, bounded; src/mcp/group-text.ts). */
  groupInfo?: Readonly<Record<string, GroupText>>;
  /** Who asked for the tool to be eager, as its config entry and server said (src/mcp/pool-tool.ts); the eager policy reads it. */
  load?: McpLoad;
}

/**
 * The pieces `alwaysLoad` was made of when the tool was built: the usual rule's reason (the config
 * entry's `alwaysLoad` list, or the server's own `_meta["anthropic/alwaysLoad"]`) and the entry's
 * `defer` when it is not auto. A tool's own `defer: auto` goes back to the usual rule, and the
 * tool-count guard keeps the operator's choices before a server's own (src/deferral/eager-policy.ts).
 */
export interface McpLoad {
  alwaysLoad?: "config" | "server";
  entryDefer?: "always" | "never";
}

/** A server group's own words (the grouping extension), checked: untrusted text, one line, bounded. */
export interface GroupText {
  title?: string;
  description?: string;
}

/** An icon as MCP describes one (bounded and checked on the way in). */
export interface McpIcon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: "light" | "dark";
}

export interface McpPresentation {
  title?: string;
  icons?: readonly McpIcon[];
  /** The input schema's `$schema`, which the provider-facing copy drops. */
  schemaDialect?: string;
}

/** The wire's shape (src/protocol/progress.ts): a tool reports what the client is sent. */
export type { ProgressUpdate };

/** What a permission check decides. `passthrough` leaves the call to the session's general rules. */
export type PermissionDecision =
  | { behavior: "allow" }
  | { behavior: "deny"; message: string }
  | { behavior: "passthrough" };

/**
 * What one call reads and writes, as its tool declares it for a validated input, so that path rules
 * (`Read(**\/.env)`, `Edit(src/**)`) govern every tool that touches a path, not only the one named.
 */
export interface CallAccess {
  /** Real absolute paths whose contents the call reads or shows. */
  readonly reads: readonly string[];
  /** Real absolute paths the call creates, changes or deletes. */
  readonly writes: readonly string[];
  /** Set when the tool cannot say which paths it touches: every path rule then refuses the call. */
  readonly unknown?: string;
  /** A shell tool's command as read from its parse: what it runs and the paths its words name. */
  readonly shell?: ShellFacts;
  /**
   * Set when the call's processes run in the kernel sandbox, which hides or write-protects what the
   * path deny rules cover (src/sandbox/). Path rules then refuse the paths that must match and the
   * ones the call names outright; what only may match (a glob, a variable, an unreadable command)
   * is the kernel's to stop. Without it every such doubt refuses the call.
   */
  readonly kernelEnforcesPaths?: true;
}

/** Everything a call may use besides its input; passed in, never reached for. */
export interface ToolContext {
  signal: AbortSignal;
  sessionId: string;
  /** The client (connection) whose session made the call; quotas per client count by it. */
  clientId?: string;
  /** Real paths of the directories file tools may touch. */
  workspaceRoots: readonly string[];
  /**
   * The same roots held open since the session opened (runtime/root-pins.ts): file tools resolve
   * beneath these and refuse a root that was moved or replaced. Absent: roots are looked up by name.
   */
  rootPins?: readonly PinnedRoot[];
  /** The directory relative paths resolve against (the first root unless the session says otherwise). */
  cwd: string;
  onProgress?: (update: ProgressUpdate) => void;
  /**
   * Where a server's questions (elicitation, sampling) go while this call runs: to the caller that
   * made it, and only when it said it can answer. Absent: every question is refused with a clear error.
   */
  questions?: QuestionChannel;
  /**
   * The W3C `traceparent` of the call's telemetry span, when telemetry is on: the requests an MCP
   * tool sends its server for this call carry it in `_meta` (telemetry/trace-context.ts).
   */
  traceparent?: string;
  /** Per-session scratch space for tools that keep state within a session (e.g. TodoWrite). */
  sessionState: Map<string, unknown>;
  /**
   * Whether the session's path rules let this call show `path` (Grep and Glob filter their results
   * with it). The pipeline sets it; a context without it comes from a caller that runs no rules.
   */
  pathAllowed?: (path: string, kind: "read" | "write") => boolean;
  /**
   * The session's deny rules that govern paths, and where their relative patterns are read from:
   * a sandboxed tool hides what they cover from the programs it runs. Set by the pipeline.
   */
  pathDeny?: { rules: readonly PathDenyRule[]; bases: readonly string[] };
}

/**
 * MCP tool annotations a host may act on (auto-approving read-only tools, say), so each is present
 * only when it is true of every input the tool accepts.
 */
export interface ToolHints {
  readonly readOnlyHint?: true;
  readonly destructiveHint?: boolean;
  readonly openWorldHint?: boolean;
}

export interface Tool {
  readonly name: string;
  readonly aliases: readonly string[];
  /** What the model reads. */
  readonly description: string;
  /** 3–10 words of capability not already in the name; indexed by search, never shown. */
  readonly searchHint?: string;
  /** The input schema as it goes on the wire (JSON Schema, no `$schema` key). */
  readonly inputJSONSchema: JsonSchema;
  readonly outputSchema?: JsonSchema;
  readonly isMcp: boolean;
  readonly mcpInfo?: McpInfo;
  readonly shouldDefer: boolean;
  readonly alwaysLoad: boolean;
  readonly maxResultSizeChars: number;
  /** Per-call time limit; the pipeline's default applies when absent. */
  readonly timeoutMs?: number;
  /** The one validation seam: zod for built-ins, Ajv for JSON Schemas. */
  readonly validator: Validator;
  isEnabled(): boolean;
  isConcurrencySafe(input: ToolInput): boolean;
  isReadOnly(input: ToolInput): boolean;
  /** What holds for every input, as MCP annotations; absent means the cautious default. */
  readonly hints: ToolHints;
  /** Checks beyond the schema (e.g. "old_string must differ from new_string"); a message for the model. */
  validateInput(input: ToolInput, context: ToolContext): Promise<string | undefined>;
  checkPermissions(input: ToolInput, context: ToolContext): Promise<PermissionDecision>;
  /**
   * The string permission rules match against, e.g. Bash's command or Read's file path. File tools
   * need `cwd` to turn a relative `file_path` into the absolute path a rule like `Read(**\/.env)` is
   * written against; without it `.env` would slip past that rule.
   */
  permissionSubject(input: ToolInput, cwd: string): string | undefined;
  /** The paths this call reads and writes (see CallAccess); a tool that declares none is `unknown`. */
  access(input: ToolInput, cwd: string): Promise<CallAccess>;
  call(input: ToolInput, context: ToolContext): Promise<ToolResult>;
  /**
   * Routers only (ExecuteExtraTool): the tool that really runs, given this tool's validated input.
   * The pipeline then resolves, validates, permits, schedules, times and caps that target, so
   * nothing about the router itself (its hints, its limits) stands in for the target's.
   */
  readonly redirect?: (input: ToolInput) => ToolRedirect;
}

export type ToolRedirect = { ok: true; tool: Tool; input: unknown } | { ok: false; message: string };

export type { ContentBlock, ToolResult };
