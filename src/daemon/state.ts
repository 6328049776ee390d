/**
 * What request handlers may use of the daemon. Handlers get this, not the Daemon, so each handler
 * file can be read (and tested) against a small surface.
 */
import type { BuildInfo } from "../build-info.ts";
import type { Config } from "../config/schema.ts";
import type { Pool } from "../pool/assemble.ts";
import type { Session } from "../session/session.ts";
import type { SessionStore } from "../session/session-store.ts";
import type { SettingsDefaults } from "../session/settings.ts";
import type { ToolResult } from "../tool/result.ts";
import type { ProgressUpdate } from "../tool/tool.ts";
import type { Connection } from "./connection.ts";
import type { Logger } from "../runtime/logger.ts";
import type { McpPool } from "../mcp/mcp-pool.ts";
import type { SearchSync } from "./search-sync.ts";
import type { FlagAttributes, RuntimeFlags } from "../flags/runtime-flags.ts";
import type { SessionToolDeps } from "./session-tools.ts";
import type { DaemonUsage } from "../usage/daemon-usage.ts";

export interface DaemonStats {
  callsTotal: number;
  callsInFlight: number;
}

export interface DaemonState {
  readonly info: BuildInfo;
  readonly socketPath: string;
  readonly startedAt: number;
  readonly logger: Logger;
  readonly sessions: SessionStore;
  readonly stats: DaemonStats;
  readonly connections: ReadonlySet<Connection>;
  readonly search: SearchSync;
  /** Usage history and the prior ranking learns from (absent in harnesses that do not record). */
  readonly usage?: DaemonUsage<Session>;
  config(): Config;
  /** What a session's own tools (ToolSearch, ExecuteExtraTool) are built from. */
  sessionToolDeps(): SessionToolDeps;
  settingsDefaults(): SettingsDefaults;
  pool(): Pool;
  /** The session a request means: the one it names, else its connection's (opened on first use). */
  sessionFor(connection: Connection, sessionId: string | undefined): Session;
  /** Runs a tool through the pipeline under the session's ordering rules. */
  runTool(
    session: Session,
    name: string,
    input: unknown,
    signal: AbortSignal,
    onProgress?: (update: ProgressUpdate) => void,
  ): Promise<ToolResult>;
  requestShutdown(reason: string): void;
  /** A connection now speaks for this session (opened or resumed): deliver what waits for it. */
  sessionAttached(session: Session): void;
  /** A connection moved to another session: what it held for the old one goes back to that session. */
  sessionLeft(connection: Connection): void;
  flags(): RuntimeFlags;
  /** The session's flag attributes (one object per settings, so flag reads hit their cache). */
  flagAttributes(session: Session): FlagAttributes;
  /** Starts a lazily started MCP server in the background; nothing for a running or unknown one. */
  ensureServerStarted(server: string): void;
  /** The MCP client pool, once the daemon is listening (undefined before). */
  mcp(): McpPool | undefined;
  /** Runtime switches for prefetch (flags), beyond the session's own setting. */
  prefetchEnabled(session: Session): boolean;
  prefetchMaxResults(): number;
}
