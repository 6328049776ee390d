/** JSON-RPC 2.0 shapes and error codes, as the daemon speaks them (one object per line). */

export type RequestId = string | number;

export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: RequestId;
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcSuccess {
  jsonrpc: "2.0";
  id: RequestId;
  result: unknown;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcFailure {
  jsonrpc: "2.0";
  id: RequestId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

export const ErrorCode = {
  /** The line is not JSON. */
  ParseError: -32700,
  /** JSON, but not a JSON-RPC request (or a batch, which the daemon does not take). */
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  /** The params do not fit the method; the message names the field. */
  InvalidParams: -32602,
  /** A fault inside the daemon; logged, never blamed on the client. */
  InternalError: -32603,
  /** Too many requests in flight on this connection; retry when some have answered. */
  Overloaded: -32000,
  /** The daemon is shutting down and takes no new work. */
  ShuttingDown: -32001,
  /** The request was cancelled before it finished. */
  RequestCancelled: -32800,
} as const;

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}
