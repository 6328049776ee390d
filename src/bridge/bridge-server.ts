/**
 * The MCP server a host talks to, over any SDK transport (stdio, Streamable HTTP, in-memory):
 * `tools/list` and `tools/call` answered by a DaemonBridge, progress and cancellation passed
 * through, and the daemon's `notifications/tools/list_changed` relayed to the host.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type ServerNotification,
} from "@modelcontextprotocol/sdk/types.js";
import { DaemonError } from "../client/client.ts";
import { ErrorCode, RpcError } from "../protocol/jsonrpc.ts";
import type { DaemonBridge } from "./daemon-bridge.ts";

export interface BridgeServerOptions {
  version: string;
  /** Shown to the host's model at initialize (how to use ToolSearch / ExecuteExtraTool). */
  instructions?: string;
  /** Where the bridge reports faults; never stdout (stdout is the MCP channel in stdio mode). */
  log?: (message: string) => void;
}

export function createBridgeServer(bridge: DaemonBridge, options: BridgeServerOptions): Server {
  const server = new Server(
    { name: "toolpool", version: options.version },
    {
      capabilities: { tools: { listChanged: true } },
      ...(options.instructions && { instructions: options.instructions }),
    },
  );
  server.oninitialized = () => bridge.setClientName(server.getClientVersion()?.name ?? "");

  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    try {
      return await bridge.listTools(request.params?.cursor);
    } catch (error) {
      throw daemonFault(error, options.log);
    }
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const token = request.params._meta?.progressToken;
    const sendProgress = (notification: ServerNotification) => extra.sendNotification(notification).catch(() => {});
    try {
      return await bridge.callTool(request.params.name, request.params.arguments ?? {}, {
        signal: extra.signal,
        ...(token !== undefined && {
          onProgress: (update) => void sendProgress({ method: "notifications/progress", params: { progressToken: token, ...update } }),
        }),
      });
    } catch (error) {
      throw daemonFault(error, options.log);
    }
  });

  bridge.onToolsChanged(() => {
    // Before initialization there is nobody to tell; the host lists the tools anyway.
    if (server.getClientVersion()) void server.sendToolListChanged().catch(() => {});
  });
  return server;
}

/**
 * A request the bridge could not serve: refused by the bridge or the daemon (code and message pass
 * through as they are; the SDK sends an error's `code` and `message`) or the daemon could not be
 * reached (an internal error, with the reason for the host's log).
 */
function daemonFault(error: unknown, log?: (message: string) => void): RpcError {
  if (error instanceof RpcError) return error;
  if (error instanceof DaemonError) return new RpcError(error.code, error.message, error.data);
  const message = error instanceof Error ? error.message : String(error);
  log?.(`toolpool mcp: the daemon could not serve the request: ${message}`);
  return new RpcError(ErrorCode.InternalError, `toolpool daemon unavailable: ${message}`);
}
