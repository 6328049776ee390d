/** What `toolpool servers` shows of one MCP server: state and why, tools, process, restarts. */
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { ServerSummary } from "../protocol/methods.ts";
import { loginCommand } from "../protocol/login-command.ts";
import type { ServerState } from "./server-life.ts";
import type { ServerSupervisor } from "./server-supervisor.ts";

/** The wire shape (protocol/methods.ts), with the state narrowed to the supervisor's states. */
export interface ServerStatus extends ServerSummary {
  state: ServerState;
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
  if (supervisor.state === "needs-auth") status.login = loginCommand(spec.name);
  if (supervisor.pid !== undefined) status.pid = supervisor.pid;
  if (supervisor.nextRetryAt !== undefined) status.nextRetryAt = new Date(supervisor.nextRetryAt).toISOString();
  if (catalog) status.listedAt = new Date(catalog.listedAt).toISOString();
  return status;
}
