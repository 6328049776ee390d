/**
 * The 2026-07-28 face over Streamable HTTP: one POST, one answer, no session. The standard headers
 * must agree with the body (`MCP-Protocol-Version` with `_meta`, `Mcp-Method` with the method,
 * `Mcp-Name` with the tool's name): a proxy routes on them, so a request whose headers say one
 * thing and whose body another is refused (400, HeaderMismatch) before anything runs.
 * `subscriptions/listen` answers with an SSE stream that stays open until the client goes.
 */
import type { RequestId } from "../protocol/jsonrpc.ts";
import type { DaemonBridge } from "./daemon-bridge.ts";
import {
  acknowledgement,
  answerStateless,
  asStatelessRequest,
  checkProtocolVersion,
  checkRequestMeta,
  failure,
  META_PROTOCOL_VERSION,
  StatelessErrorCode,
  toolsChangedOn,
  type FaceError,
  type FaceOutcome,
  type StatelessRequest,
  type SubscriptionFilter,
} from "./stateless-face.ts";

export interface StatelessHttpOptions {
  /** The daemon link every stateless request shares (there is no session to give each its own). */
  bridge: () => DaemonBridge;
  version: string;
  log: (message: string) => void;
  /** Open `subscriptions/listen` streams at most (default 32); past it, a clear 503. */
  maxListeners?: number;
  /** SSE comment interval that keeps a quiet listen stream open through idle timeouts. */
  keepAliveMs?: number;
}

export interface StatelessHttp {
  handle(request: Request, body: unknown): Promise<Response>;
  listeners(): number;
  close(): void;
}

export function createStatelessHttp(options: StatelessHttpOptions): StatelessHttp {
  const maxListeners = options.maxListeners ?? 32;
  const keepAliveMs = options.keepAliveMs ?? 5_000;
  const streams = new Set<() => void>();

  const listen = (request: Request, id: RequestId, accepted: SubscriptionFilter): Response => {
    if (streams.size >= maxListeners) {
      return Response.json(failure(id, 400, -32000, `Too many open subscriptions/listen streams (limit ${maxListeners}); close one first`).message as object, { status: 503 });
    }
    const bridge = options.bridge();
    const encoder = new TextEncoder();
    let stop = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const send = (message: object) => controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`));
        send(acknowledgement(id, accepted));
        const unsubscribe = accepted.toolsListChanged ? bridge.onToolsChanged(() => send(toolsChangedOn(id))) : () => {};
        const keepAlive = setInterval(() => controller.enqueue(encoder.encode(": keep-alive\n\n")), keepAliveMs);
        let stopped = false;
        stop = () => {
          if (stopped) return;
          stopped = true;
          clearInterval(keepAlive);
          unsubscribe();
          streams.delete(stop);
          try {
            controller.close();
          } catch {}
        };
        streams.add(stop);
        request.signal.addEventListener("abort", stop, { once: true });
        // The daemon tells a link of changes only once it is open.
        void bridge.open().catch((error: Error) => options.log(`toolpool mcp: listen stream cannot reach the daemon: ${error.message}`));
      },
      cancel() {
        stop();
      },
    });
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
  };

  return {
    async handle(request, body) {
      if (!isRequestShaped(body)) {
        // A notification (cancellation of a request whose HTTP exchange the client aborts anyway): accepted.
        if (isObject(body) && typeof body.method === "string" && !("id" in body)) return new Response(null, { status: 202 });
        return toResponse(asStatelessRequestOutcome(body));
      }
      const parsed = asStatelessRequest(body);
      if ("kind" in parsed) return toResponse(parsed);
      const refused = checkRequestMeta(parsed) ?? checkHeaders(request.headers, parsed) ?? checkProtocolVersion(parsed);
      if (refused) return toResponse(refused);
      const outcome = await answerStateless(parsed, { bridge: options.bridge(), version: options.version, signal: request.signal, log: options.log });
      if (outcome.kind === "listen") return listen(request, outcome.id, outcome.accepted);
      return toResponse(outcome);
    },
    listeners: () => streams.size,
    close() {
      for (const stop of [...streams]) stop();
    },
  };
}

/**
 * The headers against the body. A missing `MCP-Protocol-Version` or `Mcp-Method` is a mismatch too:
 * 2026-07-28 clients always send them, and an intermediary may have routed on their absence.
 */
export function checkHeaders(headers: Headers, request: StatelessRequest): FaceError | undefined {
  const mismatch = (message: string) => failure(request.id, 400, StatelessErrorCode.HeaderMismatch, `Header mismatch: ${message}`);
  const version = (request.params._meta as Record<string, unknown>)[META_PROTOCOL_VERSION];
  const headerVersion = headers.get("mcp-protocol-version")?.trim();
  if (headerVersion !== version) return mismatch(`MCP-Protocol-Version ${describe(headerVersion)} does not match _meta's ${describe(version)}`);
  const method = headers.get("mcp-method")?.trim();
  if (method !== request.method) return mismatch(`Mcp-Method ${describe(method)} does not match the body's method ${describe(request.method)}`);
  const named = nameOf(request);
  if (named !== undefined) {
    const name = headers.get("mcp-name")?.trim();
    if (name !== named) return mismatch(`Mcp-Name ${describe(name)} does not match the body's ${describe(named)}`);
  }
  return undefined;
}

function nameOf(request: StatelessRequest): string | undefined {
  if (request.method === "tools/call" || request.method === "prompts/get") return typeof request.params.name === "string" ? request.params.name : undefined;
  if (request.method === "resources/read") return typeof request.params.uri === "string" ? request.params.uri : undefined;
  return undefined;
}

function describe(value: unknown): string {
  return value === undefined || value === null ? "(absent)" : JSON.stringify(String(value).slice(0, 200));
}

function isRequestShaped(body: unknown): boolean {
  return isObject(body) && "id" in body;
}

function asStatelessRequestOutcome(body: unknown): FaceOutcome {
  const parsed = asStatelessRequest(body);
  return "kind" in parsed ? parsed : failure(null, 400, -32600, "Invalid request");
}

function toResponse(outcome: FaceOutcome): Response {
  if (outcome.kind === "result") return Response.json(outcome.message, { status: 200 });
  if (outcome.kind === "error") return Response.json(outcome.message, { status: outcome.status });
  return Response.json(failure(outcome.id, 500, -32603, "Internal error: a stream outcome outside listen").message as object, { status: 500 });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
