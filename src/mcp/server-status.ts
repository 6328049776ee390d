/** What `toolpool servers` shows of one MCP server: state and why, tools, process, restarts. */
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { ServerState, ServerSupervisor } from "./server-supervisor.ts";

export interface ServerStatus {
  name: string;
  state: ServerState;
  /** Why it is failed or parked (with the tail of its stderr). */
  reason?: string;
  transport: "stdio" | "http" | "sse";
  startup: "eager" | "lazy";
  toolCount: number;
  /** The tools offered come from the cache or an earlier connection, not the live server. */
  stale: boolean;
  /** Raw names of tools whose description or schema differs from the first version seen. */
  changedTools: string[];
  pid?: number;
  restarts: number;
  inFlight: number;
  /** ISO time of the next reconnect attempt while failed. */
  nextRetryAt?: string;
  /** ISO time of the tool list in use. */
  listedAt?: string;
}

export function describeServer(
  supervisor: ServerSupervisor,
  catalog: { definitions: readonly McpTool[]; changed: ReadonlySet<string>; listedAt: number } | undefined,
): ServerStatus {
  const { spec } = supervisor;
  const status: ServerStatus = {
    name: spec.name,
    state: supervisor.state,
    transport: spec.transport,
    startup: spec.startup,
    toolCount: catalog?.definitions.length ?? 0,
    stale: catalog !== undefined && supervisor.state !== "connected",
    changedTools: catalog ? [...catalog.changed].sort() : [],
    restarts: supervisor.restarts,
    inFlight: supervisor.inFlight,
  };
  if (supervisor.reason !== undefined) status.reason = supervisor.reason;
  if (supervisor.pid !== undefined) status.pid = supervisor.pid;
  if (supervisor.nextRetryAt !== undefined) status.nextRetryAt = new Date(supervisor.nextRetryAt).toISOString();
  if (catalog) status.listedAt = new Date(catalog.listedAt).toISOString();
  return status;
}
