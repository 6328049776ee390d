/**
 * What the supervisor needs of one live connection to one MCP server, whichever revision and
 * transport it speaks (server-connection.ts for 2025 revisions through the SDK client,
 * stateless-connection.ts for 2026-07-28), so supervision is tested with fakes and the real thing alike.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { QuestionChannel } from "../protocol/server-question.ts";
import type { ProgressUpdate } from "../tool/tool.ts";
import type { Listing } from "./list-tools.ts";

export interface CallOptions {
  signal: AbortSignal;
  /** Without progress the call fails after this long; each progress report restarts the clock. */
  timeoutMs: number;
  onProgress?: (update: ProgressUpdate) => void;
  /** The caller's channel for the server's questions (elicitation, sampling); absent: all refused. */
  questions?: QuestionChannel;
  /** The call span's W3C `traceparent` (telemetry on), sent in the request's `_meta`. */
  traceparent?: string;
}

export interface ServerConnection {
  readonly pid: number | undefined;
  /** The server's `instructions` from initialize (cut to MAX_INSTRUCTIONS_CHARS), when it gave any. */
  readonly instructions?: string | undefined;
  listTools(timeoutMs: number): Promise<Listing>;
  callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult>;
  /** Called on `notifications/tools/list_changed`. */
  onToolsChanged(listener: () => void): void;
  /** Called once if the connection ends without `close()` (the process died, the stream broke). */
  onLost(listener: (reason: string) => void): void;
  close(): Promise<void>;
}

/** A server's instructions are kept up to here: only their opening is ever shown (a summary line). */
export const MAX_INSTRUCTIONS_CHARS = 4096;
