/**
 * The daemon's refusals in the user's words. On the wire a refusal is a JSON-RPC error ("-32602:
 * Invalid params: field \"profile\": unknown profile …"); on a terminal the code and the protocol's
 * framing say nothing to a person, so they are dropped and what is left is said as a sentence.
 * (`--json` callers get the code; see withClient.)
 */
import { ErrorCode } from "../protocol/jsonrpc.ts";

export function plainDaemonError(code: number, message: string): string {
  switch (code) {
    case ErrorCode.InvalidParams:
      // "Invalid params: field "x": what is wrong" → "what is wrong" (the field is named in it, or obvious).
      return message.replace(/^Invalid params:\s*/i, "").replace(/^field "[^"]*":\s*/, "") || "the request's options were not accepted";
    case ErrorCode.MethodNotFound:
      return "the running daemon does not know this command (is it an older version? `toolpool status` shows its version; restart it to run this binary's)";
    case ErrorCode.InternalError:
      return "the daemon failed while answering; its log has the details (toolpool servers --logs, or the daemon's stderr)";
    case ErrorCode.RequestCancelled:
      return "the request was cancelled";
    default:
      return message;
  }
}
