/**
 * The bridge's MCP face at revision 2026-07-28 (stateless): no `initialize`, every request names
 * its protocol version and the client's capabilities in `_meta`, `server/discover` says what the
 * server speaks, results carry `resultType` (and list results `ttlMs`/`cacheScope`), and
 * `subscriptions/listen` opens the stream on which list changes arrive. Transport-agnostic: the
 * HTTP and stdio bridges route a message here when `isStatelessMessage` says so, and every other
 * message to the SDK server, which keeps `initialize` and sessions for clients of 2025 revisions.
 * A host whose capabilities include elicitation or sampling is asked a pooled server's questions
 * through `input_required` results (host-rounds.ts).
 */
import { DaemonError, type AnswerableKind } from "../client/client.ts";
import { ErrorCode, RpcError, type RequestId } from "../protocol/jsonrpc.ts";
import {
  LIST_TTL_MS,
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_PROTOCOL_VERSION,
  META_SERVER_INFO,
  META_SUBSCRIPTION_ID,
  RevisionErrorCode,
  STATELESS_REVISION,
  SUPPORTED_REVISIONS,
  unsupportedRevision,
} from "../protocol/mcp-revisions.ts";
import type { DaemonBridge } from "./daemon-bridge.ts";
import { isTaskMethod, noTasksMessage } from "./task-augmentation.ts";

export {
  LIST_TTL_MS,
  META_CLIENT_CAPABILITIES,
  META_PROTOCOL_VERSION,
  META_SERVER_INFO,
  META_SUBSCRIPTION_ID,
  RevisionErrorCode as StatelessErrorCode,
  STATELESS_REVISION,
  SUPPORTED_REVISIONS,
};

export interface StatelessRequest {
  id: RequestId;
  method: string;
  params: Record<string, unknown>;
}

export interface FaceContext {
  bridge: DaemonBridge;
  version: string;
  signal?: AbortSignal;
  /** Where progress for a `tools/call` goes, when the transport can carry it. */
  onProgress?: (params: Record<string, unknown>) => void;
  log?: (message: string) => void;
  /** Each call answers only its own questions (host-rounds.ts `askerPerCall`): set where one link serves hosts it cannot tell apart. */
  askerPerCall?: boolean;
}

/** What the transport sends: a result, an error (with the HTTP status it goes with), or a stream to open. */
export type FaceOutcome =
  | { kind: "result"; message: { jsonrpc: "2.0"; id: RequestId; result: Record<string, unknown> } }
  | { kind: "error"; status: 400 | 404 | 500; message: { jsonrpc: "2.0"; id: RequestId | null; error: { code: number; message: string; data?: unknown } } }
  | { kind: "listen"; id: RequestId; accepted: SubscriptionFilter };

export type FaceError = Extract<FaceOutcome, { kind: "error" }>;

export interface SubscriptionFilter {
  toolsListChanged?: boolean;
}

/** Methods of earlier revisions that 2026-07-28 removed: a stateless request for them is not found. */
const REMOVED: ReadonlySet<string> = new Set(["initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"]);

/**
 * A message for this face: a request whose `_meta` names a protocol version, or `server/discover`.
 * On HTTP, every request without a session id that is not a 2025 `initialize` is one too (the
 * transport decides that; see http-bridge.ts).
 */
export function isStatelessMessage(message: unknown): boolean {
  if (!isObject(message) || typeof message.method !== "string" || !("id" in message)) return false;
  if (message.method === "server/discover") return true;
  const params = message.params;
  return isObject(params) && isObject(params._meta) && META_PROTOCOL_VERSION in params._meta;
}

/** The request's own fields, or an Invalid Request error when it is not one JSON-RPC request. */
export function asStatelessRequest(message: unknown): StatelessRequest | FaceError {
  if (!isObject(message) || message.jsonrpc !== "2.0" || typeof message.method !== "string") {
    return failure(null, 400, ErrorCode.InvalidRequest, "Invalid request: expected one JSON-RPC 2.0 request");
  }
  const id = message.id;
  if (typeof id !== "string" && typeof id !== "number") {
    return failure(null, 400, ErrorCode.InvalidRequest, "Invalid request: a request needs a string or number id");
  }
  if (message.params !== undefined && !isObject(message.params)) {
    return failure(id, 400, ErrorCode.InvalidParams, "Invalid params: params must be an object");
  }
  return { id, method: message.method, params: (message.params as Record<string, unknown> | undefined) ?? {} };
}

/** The `_meta` checks every stateless request passes: its shape first, then the version. */
export function checkRequestMeta(request: StatelessRequest): FaceError | undefined {
  const meta = request.params._meta;
  const hint = `(protocol ${STATELESS_REVISION}; clients of earlier revisions send initialize first)`;
  if (!isObject(meta)) return failure(request.id, 400, ErrorCode.InvalidParams, `Invalid params: _meta is required on every request ${hint}`);
  const version = meta[META_PROTOCOL_VERSION];
  if (typeof version !== "string" || version === "") {
    return failure(request.id, 400, ErrorCode.InvalidParams, `Invalid params: _meta["${META_PROTOCOL_VERSION}"] is required ${hint}`);
  }
  if (!isObject(meta[META_CLIENT_CAPABILITIES])) {
    return failure(request.id, 400, ErrorCode.InvalidParams, `Invalid params: _meta["${META_CLIENT_CAPABILITIES}"] must be an object ${hint}`);
  }
  return undefined;
}

export function checkProtocolVersion(request: StatelessRequest): FaceError | undefined {
  const version = (request.params._meta as Record<string, unknown>)[META_PROTOCOL_VERSION] as string;
  if (version === STATELESS_REVISION) return undefined;
  const refused = unsupportedRevision(version);
  return failure(request.id, 400, refused.code, refused.message, refused.data);
}

/** Answers one validated stateless request (the transport has checked `_meta` and headers). */
export async function answerStateless(request: StatelessRequest, context: FaceContext): Promise<FaceOutcome> {
  const { bridge, version } = context;
  const serverMeta = { [META_SERVER_INFO]: { name: "toolpool", version } };
  const complete = (result: Record<string, unknown>): FaceOutcome => ({
    kind: "result",
    message: { jsonrpc: "2.0", id: request.id, result: { ...result, resultType: "complete", _meta: { ...(isObject(result._meta) ? result._meta : {}), ...serverMeta } } },
  });
  const meta = request.params._meta as Record<string, unknown>;
  const clientInfo = meta[META_CLIENT_INFO];
  if (isObject(clientInfo) && typeof clientInfo.name === "string") bridge.setClientName(clientInfo.name.slice(0, 200));
  try {
    switch (request.method) {
      case "server/discover":
        return complete({
          supportedVersions: [...SUPPORTED_REVISIONS],
          capabilities: { tools: { listChanged: true } },
          instructions: await bridge.instructions(),
          ttlMs: LIST_TTL_MS,
          cacheScope: "private",
        });
      case "tools/list": {
        const cursor = request.params.cursor;
        if (cursor !== undefined && typeof cursor !== "string") return failure(request.id, 400, ErrorCode.InvalidParams, "Invalid params: cursor must be a string");
        const listed = await bridge.listTools(cursor);
        return complete({ ...listed, ttlMs: LIST_TTL_MS, cacheScope: "private" });
      }
      case "tools/call": {
        const { name, arguments: input } = request.params;
        if (typeof name !== "string") return failure(request.id, 400, ErrorCode.InvalidParams, "Invalid params: name must be a string");
        if (input !== undefined && !isObject(input)) return failure(request.id, 400, ErrorCode.InvalidParams, "Invalid params: arguments must be an object");
        const token = meta.progressToken;
        const kinds = hostKinds(meta[META_CLIENT_CAPABILITIES]);
        if (kinds.length > 0 || request.params.requestState !== undefined) {
          // The host can be asked: a server's question comes back as input_required, the answer with the retry.
          const outcome = await bridge.rounds.run({
            name,
            input: input ?? {},
            kinds,
            requestState: request.params.requestState,
            inputResponses: request.params.inputResponses,
            ...(context.signal && { signal: context.signal }),
            ...(context.askerPerCall && { askerPerCall: true }),
          });
          if (outcome.kind === "refused") return failure(request.id, 400, ErrorCode.InvalidParams, outcome.message);
          if (outcome.kind === "complete") return complete(outcome.result as Record<string, unknown>);
          const { inputRequests, requestState } = outcome;
          return { kind: "result", message: { jsonrpc: "2.0", id: request.id, result: { resultType: "input_required", inputRequests, requestState, _meta: serverMeta } } };
        }
        const result = await bridge.callTool(name, input ?? {}, {
          ...(context.signal && { signal: context.signal }),
          ...((typeof token === "string" || typeof token === "number") && context.onProgress && {
            onProgress: (update) => context.onProgress?.({ progressToken: token, ...update }),
          }),
        });
        return complete(result as Record<string, unknown>);
      }
      case "subscriptions/listen": {
        const wanted = request.params.notifications;
        if (!isObject(wanted)) return failure(request.id, 400, ErrorCode.InvalidParams, "Invalid params: notifications must be an object (a subscription filter)");
        // Only what this server sends is acknowledged: it has tools, and no prompts or resources.
        return { kind: "listen", id: request.id, accepted: wanted.toolsListChanged === true ? { toolsListChanged: true } : {} };
      }
      default:
        if (isTaskMethod(request.method)) return failure(request.id, 404, ErrorCode.MethodNotFound, noTasksMessage(request.method));
        return failure(
          request.id,
          404,
          ErrorCode.MethodNotFound,
          REMOVED.has(request.method) ? `Method not found: ${request.method} is not part of protocol ${STATELESS_REVISION}` : `Method not found: ${request.method.slice(0, 100)}`,
        );
    }
  } catch (error) {
    if (error instanceof RpcError || error instanceof DaemonError) {
      const status = error.code === ErrorCode.MethodNotFound ? 404 : error.code === ErrorCode.InternalError ? 500 : 400;
      return failure(request.id, status, error.code, error.message, error.data);
    }
    const message = error instanceof Error ? error.message : String(error);
    context.log?.(`toolpool mcp: the daemon could not serve the request: ${message}`);
    return failure(request.id, 500, ErrorCode.InternalError, `toolpool daemon unavailable: ${message}`);
  }
}

/** The first message on a listen stream: which of the requested notifications will come. */
export function acknowledgement(id: RequestId, accepted: SubscriptionFilter): Record<string, unknown> {
  return { jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: accepted, _meta: { [META_SUBSCRIPTION_ID]: id } } };
}

export function toolsChangedOn(id: RequestId): Record<string, unknown> {
  return { jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { [META_SUBSCRIPTION_ID]: id } } };
}

export function failure(id: RequestId | null, status: 400 | 404 | 500, code: number, message: string, data?: unknown): FaceError {
  return { kind: "error", status, message: { jsonrpc: "2.0", id, error: { code, message, ...(data !== undefined && { data }) } } };
}

/** The kinds of question a 2026 host said (in `_meta` clientCapabilities) it answers. */
function hostKinds(capabilities: unknown): AnswerableKind[] {
  if (!isObject(capabilities)) return [];
  return [...(isObject(capabilities.elicitation) ? ["elicitation" as const] : []), ...(isObject(capabilities.sampling) ? ["sampling" as const] : [])];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
