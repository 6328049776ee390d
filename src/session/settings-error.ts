/**
 * A session setting that cannot be used: a wire error (InvalidParams) naming the field, so the
 * dispatcher answers it like any other request error. There is one error family: wire errors
 * (`RpcError`, each with its JSON-RPC code), internal faults (anything else: logged, answered
 * -32603), and tool failures (a result with `isError`, never thrown).
 */
import { ErrorCode, RpcError } from "../protocol/jsonrpc.ts";

export class SettingsError extends RpcError {
  constructor(
    readonly field: string,
    detail: string,
  ) {
    super(ErrorCode.InvalidParams, `Invalid params: field "${field}": ${detail}`);
    this.name = "SettingsError";
  }
}
