/**
 * The 2026-07-28 face over Streamable HTTP: one POST, one answer, no session. The standard headers
 * must agree with the body (`MCP-Protocol-Version` with `_meta`, `Mcp-Method` with the method,
 * `Mcp-Name` with the tool's name): a proxy routes on them, so a request whose headers say one
 * thing and whose body another is refused (400, HeaderMismatch) before anything runs.
 * `subscriptions/listen` answers with an SSE stream that stays open until the client goes.
 *
 * Each caller (stateless-callers.ts) has its own daemon link: its calls, questions and discoveries
 * are its own. Listen streams are bounded per caller and in total, so one caller cannot take them all.
 */
import { decodeHeaderValue } from "../protocol/header-value.ts";
import type { RequestId } from "../protocol/jsonrpc.ts";
import { trackResponse } from "./http-sessions.ts";
import type { CallerAdmission } from "./stateless-callers.ts";
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
  /** The caller's own daemon link, by what its request's `_meta` declares (stateless-callers.ts). */
  admit: (meta: unknown) => Promise<CallerAdmission>;
  version: string;
  log: (message: string) => void;
  /** Open `subscriptions/listen` streams at most (default 32); past it, a clear 503. */
  maxListeners?: number;
  /** Open `subscriptions/listen` streams of one caller at most (default 4); past it, a clear 429. */
  maxListenersPerCaller?: number;
  /** SSE comment interval that keeps a quiet listen stream open through idle timeouts. */
  keepAliveMs?: number;
}

export interface StatelessHttp {
  handle(request: Request, body: unknown): Promise<Response>;
  listeners(): number;
  close(): void;
}

export function createStatelessHttp(options: StatelessHttpOptions): StatelessHttp {
  const maxListeners = options.maxListeners ?? DEFAULT_MAX_LISTENERS;
  const maxPerCaller = Math.min(options.maxListenersPerCaller ?? DEFAULT_MAX_LISTENERS_PER_CALLER, maxListeners);
  const keepAliveMs = options.keepAliveMs ?? 5_000;
  const streams = new Set<() => void>();
  /** Open streams by caller key. */
  const perCaller = new Map<string, number>();

  const listen = (request: Request, id: RequestId, accepted: SubscriptionFilter, caller: CallerLink): Response => {
    const own = perCaller.get(caller.key) ?? 0;
    if (own >= maxPerCaller) {
      return refuse(id, 429, `Too many subscriptions/listen streams for this caller: it has ${own} open (the limit per caller is ${maxPerCaller}, so other callers keep room); close one first`, { limit: maxPerCaller, open: own, scope: "caller" });
    }
    if (streams.size >= maxListeners) {
      return refuse(id, 503, `Too many subscriptions/listen streams on this bridge: ${streams.size} are open (the limit for all callers together is ${maxListeners}); retry after one closes`, { limit: maxListeners, open: streams.size, scope: "bridge" });
    }
    const { bridge } = caller;
    perCaller.set(caller.key, own + 1);
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
          const left = (perCaller.get(caller.key) ?? 1) - 1;
          if (left > 0) perCaller.set(caller.key, left);
          else perCaller.delete(caller.key);
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
      const caller = await options.admit(parsed.params._meta);
      if ("refused" in caller) return refuse(parsed.id, 503, caller.refused);
      try {
        // Two hosts declaring the same clientInfo share this caller's link: each call answers only its own questions.
        const outcome = await answerStateless(parsed, { bridge: caller.bridge, version: options.version, signal: request.signal, log: options.log, askerPerCall: true });
        // The caller stays in use (never evicted) until its answer, or its listen stream, has ended.
        return trackResponse(outcome.kind === "listen" ? listen(request, outcome.id, outcome.accepted, caller) : toResponse(outcome), caller.done);
      } catch (error) {
        caller.done();
        throw error;
      }
    },
    listeners: () => streams.size,
    close() {
      for (const stop of [...streams]) stop();
    },
  };
}

export const DEFAULT_MAX_LISTENERS = 32;
export const DEFAULT_MAX_LISTENERS_PER_CALLER = 4;

type CallerLink = Extract<CallerAdmission, { key: string }>;

/** A refusal the client can act on: JSON-RPC error -32000 with the limit in `data`, and its HTTP status. */
function refuse(id: RequestId, status: 429 | 503, message: string, data?: Record<string, unknown>): Response {
  return Response.json({ jsonrpc: "2.0", id, error: { code: -32000, message, ...(data && { data }) } }, { status });
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
    // A name that is not plain ASCII travels Base64-encoded (`=?base64?…?=`); compare what it says.
    const raw = headers.get("mcp-name")?.trim();
    const name = raw === undefined ? undefined : decodeHeaderValue(raw);
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
