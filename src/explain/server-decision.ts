/** What an MCP server's state means for its tools, worded for `toolpool explain`. */

export interface ServerFacts {
  name: string;
  state: string;
  startup?: string;
  reason?: string;
  /** The command that logs in to a server waiting for an OAuth login. */
  login?: string;
}

export function describeServerState(server: ServerFacts): { ready: boolean; reason: string } {
  const why = server.reason ? `: ${server.reason}` : "";
  switch (server.state) {
    case "connected":
      return { ready: true, reason: `MCP server ${server.name} is connected` };
    case "disabled":
      return { ready: false, reason: `MCP server ${server.name} is disabled in the config ("disabled": true)` };
    case "parked":
      return { ready: false, reason: `MCP server ${server.name} is parked after repeated failures${why}` };
    case "failed":
      return { ready: false, reason: `MCP server ${server.name} failed and will retry${why}` };
    case "pending":
      return { ready: false, reason: `MCP server ${server.name} is connecting` };
    case "idle":
      return server.startup === "lazy"
        ? { ready: false, reason: `MCP server ${server.name} starts lazily and has not started yet (a select: of one of its tools, or a call, starts it)` }
        : { ready: false, reason: `MCP server ${server.name} is idle${why}` };
    case "needs-auth":
      return { ready: false, reason: `MCP server ${server.name} waits for an OAuth login${why}` };
    case "stopped":
      return { ready: false, reason: `MCP server ${server.name} is stopped` };
    default:
      return { ready: false, reason: `MCP server ${server.name} is ${server.state}${why}` };
  }
}
