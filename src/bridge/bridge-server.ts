/**
 * The MCP server a host talks to, over any SDK transport (stdio, Streamable HTTP, in-memory):
 * `tools/list` and `tools/call` answered by a DaemonBridge, progress and cancellation passed
 * through, a pooled server's questions asked of the host that made the call (when it declared it
 * answers them), and the daemon's `notifications/tools/list_changed` relayed to the host.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  CreateMessageResultSchema,
  ElicitResultSchema,
  type CallToolResult,
  type ServerNotification,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { DaemonError, type AnswerableKind, type QuestionAnswerer } from "../client/client.ts";
import { ErrorCode, RpcError } from "../protocol/jsonrpc.ts";
import type { DaemonBridge } from "./daemon-bridge.ts";
import { ignoreTaskAugmentation } from "./task-augmentation.ts";

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
  ignoreTaskAugmentation(server);

  server.setRequestHandler(asSent("tools/list"), async (sent) => {
    const cursor = isObject(sent.params) ? sent.params.cursor : undefined;
    if (cursor !== undefined && typeof cursor !== "string") throw new RpcError(ErrorCode.InvalidParams, "Invalid params: cursor must be a string");
    try {
      return await bridge.listTools(cursor);
    } catch (error) {
      throw daemonFault(error, options.log);
    }
  });

  server.setRequestHandler(asSent("tools/call"), async (sent, extra): Promise<CallToolResult> => {
    // The SDK's tools/call wrapper has checked it (-32602 when it is not a call): typed here.
    const request = CallToolRequestSchema.parse(sent);
    const token = request.params._meta?.progressToken;
    const sendProgress = (notification: ServerNotification) => extra.sendNotification(notification).catch(() => {});
    try {
      return await bridge.callTool(request.params.name, request.params.arguments ?? {}, {
        signal: extra.signal,
        ...(token !== undefined && {
          onProgress: (update) => void sendProgress({ method: "notifications/progress", params: { progressToken: token, ...update } }),
        }),
        ...hostAnswers(server, extra.sendRequest),
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
 * A request of `method` with any params: the SDK parses a handler's schema before the handler runs
 * and answers a mismatch with -32603 and a zod dump ({cursor: 500} on tools/list, {name: 42} on
 * tools/call), where MCP says -32602. The handlers check the params themselves.
 */
function asSent<M extends string>(method: M) {
  return z.object({ method: z.literal(method), params: z.unknown().optional() });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** How long the bridge lets a host take over one question; the daemon's call deadline usually ends it first. */
const MAX_HOST_ANSWER_MS = 30 * 60 * 1000;

type SendRequest = Parameters<Parameters<Server["setRequestHandler"]>[1]>[1]["sendRequest"];

/**
 * The servers' questions go to the host that made the call, as requests of the host's own MCP
 * session related to its `tools/call` (over HTTP: on that call's stream), and only the kinds the host
 * declared at initialize; the daemon refuses the others with a tool error naming the question.
 */
function hostAnswers(server: Server, sendRequest: SendRequest): { answers?: QuestionAnswerer } {
  const capabilities = server.getClientCapabilities() ?? {};
  const kinds: AnswerableKind[] = [...(capabilities.elicitation ? ["elicitation" as const] : []), ...(capabilities.sampling ? ["sampling" as const] : [])];
  if (kinds.length === 0) return {};
  return {
    answers: {
      kinds,
      answer: async (question, signal) => {
        const options = { signal, timeout: MAX_HOST_ANSWER_MS };
        if (question.kind === "elicitation") return (await sendRequest({ method: "elicitation/create", params: question.params } as never, ElicitResultSchema, options)) as Record<string, unknown>;
        // Sampling with tools never gets here: the pool does not declare it (server-question.ts).
        return (await sendRequest({ method: "sampling/createMessage", params: question.params } as never, CreateMessageResultSchema, options)) as Record<string, unknown>;
      },
    },
  };
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
