/**
 * What the model (and the operator) reads when an MCP call or connect fails: the server named,
 * what happened, and what to do next. A tool failure is a result, never a protocol error.
 */
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

export interface CallFailure {
  server: string;
  tool: string;
  error: unknown;
  /** Why the connection ended, if it ended under the call. */
  lostReason: string | undefined;
  timeoutMs: number;
}

export function describeCallFailure(failure: CallFailure): string {
  const { server, tool, error } = failure;
  const subject = `MCP server "${server}"`;
  if (failure.lostReason !== undefined || (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)) {
    return `${subject} stopped while running ${tool} (${failure.lostReason ?? "the connection closed"}). The call did not finish; it is being restarted, so retry in a few seconds.`;
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return `${subject} did not answer ${tool} within ${seconds(failure.timeoutMs)} (and reported no progress meanwhile), so the call was cancelled.`;
  }
  if (error instanceof McpError) return `${subject} returned an error for ${tool}: ${error.message}`;
  if (isZodError(error)) return `${subject} returned a malformed result for ${tool} (it does not match the MCP result shape).`;
  return `${subject} could not run ${tool}: ${messageOf(error)}`;
}

/** Why a call cannot even start: the server is failed (and when it is tried next), parked, disabled or gone. */
export function describeUnavailable(server: string, state: string, reason: string | undefined, retryInMs: number | undefined): string {
  const subject = `MCP server "${server}"`;
  switch (state) {
    case "failed": {
      const retry = retryInMs === undefined ? "" : ` The next attempt is in ${Math.max(1, Math.ceil(retryInMs / 1000))} s.`;
      return `${subject} is not connected: ${reason ?? "it failed"}.${retry}`;
    }
    case "parked":
      return `${subject} is parked: ${reason ?? "it failed repeatedly"}`;
    case "disabled":
      return `${subject} is disabled in the config.`;
    case "untrusted":
      return `${subject} is ${reason ?? "waiting for its project file to be trusted"}`;
    case "needs-auth":
      return reason ?? `${subject} needs a login; run \`toolpool auth login ${server}\``;
    default:
      return `${subject} is not configured any more (or the daemon is stopping).`;
  }
}

export function describeConnectFailure(error: unknown, connectTimeoutMs: number, stderrTail: string): string {
  let reason = messageOf(error);
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) reason = `it did not finish initializing within ${seconds(connectTimeoutMs)}`;
  else if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) reason = "it closed the connection while starting";
  return withStderr(reason, stderrTail);
}

/** Appends the last stderr lines (bounded) to a reason: usually they say why a server died. */
export function withStderr(reason: string, stderrTail: string): string {
  if (stderrTail.trim() === "") return reason;
  const tail = stderrTail.length > 600 ? `…${stderrTail.slice(-600)}` : stderrTail;
  return `${reason}; stderr: ${tail.replace(/\s*\n\s*/g, " | ")}`;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isZodError(error: unknown): boolean {
  return error instanceof Error && (error.name === "ZodError" || error.name === "$ZodError");
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
