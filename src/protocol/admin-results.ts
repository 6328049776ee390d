/**
 * The results of the operator's methods — `toolpool/status`, `tools`, `servers` (+ logs, restart),
 * `auth/*`, `projects` — each defined once here; src/protocol/method-table.ts types both ends with
 * them (docs/protocol.md describes each field).
 */
export interface ToolSummary {
  name: string;
  description: string;
  source: "builtin" | "mcp";
  server?: string;
  deferred: boolean;
  /** The tool's own switch (an MCP tool: always); a disabled tool is never sent. */
  enabled: boolean;
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
  /** More tools follow: ask again with this `cursor` (a page ends before 4 MiB of JSON). Collisions come with the first page. */
  nextCursor?: string;
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
  /** Tools the tool-count guard deferred (config maxToolsInArray): they would have been eager. Absent when none. */
  guard?: { maxToolsInArray: number; deferred: string[] };
  /** Assembled requests the tools array limit changed (assembly/array-guard.ts) since the daemon started, and the last warning. Absent when none. */
  arrayLimit?: { maxToolsInArray: number; requests: number; last: string };
  calls: { total: number; inFlight: number };
  memory: { rssBytes: number; heapUsedBytes: number };
  /** Servers by state, plus `total`. */
  mcpServers: Record<string, number>;
  /** The kernel sandbox Bash runs in (absent from daemons embedded without one). */
  sandbox?: {
    mode: string;
    network: string;
    backend: string;
    confined: boolean;
    summary: string;
    reason?: string;
    landlockAbi?: number;
    userNamespaces: boolean | "unknown";
    probeMs: number;
  };
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

/** One HTTP MCP server's login, never its tokens. */
export interface AuthStatusSummary {
  name: string;
  url: string;
  loggedIn: boolean;
  expiresAt?: string;
  refreshable: boolean;
  /** How the login's client got its id: configured, a Client ID Metadata Document URL, a dynamic registration. */
  client: "configured" | "metadata-document" | "registered" | "none";
  /** The authorization server (its issuer) the last login discovered; tokens are kept per issuer. */
  issuer?: string;
  loginInProgress: boolean;
  staticAuthorization: boolean;
  tokenFile: string;
}

export interface AuthLoginResult {
  name: string;
  authorizationUrl: string;
  redirectUrl: string;
  expiresAt: string;
}

/** A project root with a `.toolpool.json` (or `.mcp.json`), and whether it is trusted. */
export interface ProjectSummaryResult {
  root: string;
  file?: string;
  trusted: boolean;
  servers: string[];
  defaultProfile?: string;
  error?: string;
}
