/**
 * Tasks on the bridge's 2025 face. The bridge declares no `tasks` capability: every `tools/call` is
 * answered inline (the daemon bounds and cancels its calls itself). MCP 2025-11-25 says a receiver
 * that declares no task support for a request type MUST process such a request normally, ignoring
 * its task augmentation; the SDK server instead refuses it with an internal error, so the `task`
 * field is dropped before the SDK sees the request. The task methods (`tasks/get`, `tasks/result`,
 * `tasks/list`, `tasks/cancel`) name no task the bridge could have made: they get a Method not found
 * that says why, instead of a bare one.
 * The 2026-07-28 face (stateless-face.ts) needs neither: there a server decides whether to create a
 * task, and the bridge never does.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ErrorCode, RpcError } from "../protocol/jsonrpc.ts";

/** Why a task method finds nothing: the same sentence on both faces. */
export function noTasksMessage(method: string): string {
  return (
    `Method not found: ${method.slice(0, 100)} — toolpool creates no tasks (neither the 2025-11-25 tasks capability nor the ` +
    `io.modelcontextprotocol/tasks extension): every tools/call is answered inline, so there is no task to poll or cancel; ` +
    `cancel a running call with notifications/cancelled`
  );
}

export function isTaskMethod(method: string): boolean {
  return method.startsWith("tasks/");
}

/** The request without its `task` field; anything else is returned as it is. */
export function withoutTaskAugmentation(message: unknown): unknown {
  if (typeof message !== "object" || message === null || !("id" in message) || !("method" in message)) return message;
  const params = (message as { params?: unknown }).params;
  if (typeof params !== "object" || params === null || !("task" in params)) return message;
  const { task: _ignored, ...rest } = params as Record<string, unknown>;
  return { ...message, params: rest };
}

/**
 * Makes `server` ignore task augmentation and explain the task methods. Wraps `connect`, so it holds
 * for every transport the server is connected to (stdio, Streamable HTTP, in memory).
 */
export function ignoreTaskAugmentation(server: Server): void {
  const connect = server.connect.bind(server);
  server.connect = async (transport) => {
    await connect(transport);
    const deliver = transport.onmessage;
    if (deliver) transport.onmessage = (message, extra) => deliver(withoutTaskAugmentation(message) as typeof message, extra);
  };
  const fallback = server.fallbackRequestHandler;
  server.fallbackRequestHandler = async (request, extra) => {
    if (isTaskMethod(request.method)) throw new RpcError(ErrorCode.MethodNotFound, noTasksMessage(request.method));
    if (fallback) return fallback(request, extra);
    throw new RpcError(ErrorCode.MethodNotFound, "Method not found");
  };
}
