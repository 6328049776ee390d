/**
 * `toolpool mcp --http HOST:PORT`: the bridge over MCP Streamable HTTP, on loopback only. Each MCP
 * session (an `initialize` without a session id) gets its own SDK transport, MCP server and daemon
 * session, so two hosts never share what their searches discovered. Every request passes the
 * DNS-rebinding guard first (loopback Host and Origin, else 403), then must carry the bridge's
 * token (bridge-token.ts: in the path, `/mcp/<token>`, or as a bearer token; else 401).
 *
 * Bounded: at most `maxSessions` sessions, request bodies of 8 MiB, and a session unused for
 * `idleMs` is closed (its client gets 404 and, as MCP requires, initializes again). At the cap the
 * least-recently-used idle session is evicted (logged and counted); only when every session has a
 * request in flight is a new client refused with 503.
 *
 * A 2026-07-28 request carries no session: each stateless caller (its credential and declared
 * `clientInfo`, stateless-callers.ts) gets its own daemon link and session, bounded the same way.
 */
import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { MAX_LINE_BYTES } from "../protocol/limits.ts";
import { createBridgeServer } from "./bridge-server.ts";
import type { DaemonBridge } from "./daemon-bridge.ts";
import { requestCarriesToken } from "./bridge-token.ts";
import { createEvictionLog } from "./eviction-log.ts";
import { checkLoopbackRequest, forbiddenResponse } from "./host-guard.ts";
import { SessionTable, trackResponse } from "./http-sessions.ts";
import { endpointUrl, type ListenAddress } from "./listen-address.ts";
import { META_PROTOCOL_VERSION } from "./stateless-face.ts";
import { createStatelessCallers } from "./stateless-callers.ts";
import { createStatelessHttp } from "./stateless-http.ts";

export const MCP_HTTP_PATH = "/mcp";

export interface HttpBridgeOptions {
  address: ListenAddress;
  /** The secret every request must carry (bridge-token.ts). */
  token: string;
  /** A fresh daemon link; a stateless caller's asks for a session whose calls run concurrently. */
  createBridge: (session?: { concurrentCalls?: boolean }) => DaemonBridge;
  version: string;
  log: (message: string) => void;
  maxSessions?: number;
  idleMs?: number;
  /** At the cap, a session idle at least this long may be evicted for a new one (default 100 ms). */
  evictAfterIdleMs?: number;
  /** Called after each eviction, with the running count. */
  onEvict?: (evictions: number) => void;
  /** Stateless (2026-07-28) callers with a daemon link at most (default 32). */
  maxCallers?: number;
  /** `subscriptions/listen` streams at most, in total and per caller (defaults 32 and 4). */
  maxListeners?: number;
  maxListenersPerCaller?: number;
}

export interface HttpBridge extends AsyncDisposable {
  /** The endpoint with the token in its path: what a host is given. */
  url: string;
  /** The endpoint without the token, for hosts that send it as `Authorization: Bearer`. */
  baseUrl: string;
  port: number;
  sessionCount(): number;
  /** Stateless callers that have a daemon link now. */
  callerCount(): number;
  /** Sessions evicted to make room for new clients since start. */
  evictions(): number;
  stop(): Promise<void>;
}

interface Entry {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  bridge: DaemonBridge;
  close(): void;
}

/** The longest a new client waits for an idle session to become evictable. */
const MAX_ADMISSION_WAIT_MS = 1_000;

export function startHttpBridge(options: HttpBridgeOptions): HttpBridge {
  const maxSessions = options.maxSessions ?? 64;
  const idleMs = options.idleMs ?? 30 * 60 * 1000;
  // Short: a real host pauses seconds between requests (the model is thinking); one exchange's
  // requests (initialize, initialized, tools/list) follow each other within milliseconds.
  const evictAfterIdleMs = Math.min(options.evictAfterIdleMs ?? 100, MAX_ADMISSION_WAIT_MS);
  const evictionLog = createEvictionLog(options.log, maxSessions);
  const sessions: SessionTable<Entry> = new SessionTable<Entry>({
    maxSessions,
    evictAfterIdleMs,
    onEvict: (id, idle) => {
      evictionLog.evicted(id, idle);
      options.onEvict?.(sessions.evictions());
    },
  });

  const admit = (): Promise<boolean> => sessions.admitWithin(MAX_ADMISSION_WAIT_MS);

  const open = async (request: Request, body: unknown): Promise<Response> => {
    if (!(await admit())) {
      options.log(`toolpool mcp: refused a new HTTP session: all ${maxSessions} sessions have a request in flight`);
      return rpcError(503, `Too many MCP sessions (limit ${maxSessions}, all busy); retry shortly`);
    }
    let registered = false;
    let initialized: () => void = () => {};
    try {
      const bridge = options.createBridge();
      let instructions: string;
      try {
        instructions = await bridge.instructions();
      } catch (error) {
        bridge.close();
        options.log(`toolpool mcp: cannot reach the daemon: ${(error as Error).message}`);
        return rpcError(502, `toolpool daemon unavailable: ${(error as Error).message}`);
      }
      const server = createBridgeServer(bridge, { version: options.version, instructions, log: options.log });
      const close = () => {
        bridge.close();
        void server.close().catch(() => {});
      };
      const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (id) => {
          registered = true;
          initialized = sessions.opened(id, { transport, server, bridge, close });
        },
        onsessionclosed: (id) => sessions.delete(id),
        // Under Bun's idle timeout below, so a long quiet tool call keeps its stream.
        keepAliveMs: 5_000,
      });
      await server.connect(transport);
      let response: Response;
      try {
        response = await transport.handleRequest(request, { parsedBody: body });
      } catch (error) {
        initialized();
        throw error;
      }
      // An initialize the transport refused opened no session: nothing may stay linked to the daemon.
      if (!registered) {
        close();
        return response;
      }
      return trackResponse(response, initialized);
    } finally {
      if (!registered) sessions.abandoned();
    }
  };

  // Stateless (2026-07-28) requests carry no session: each caller gets a daemon link of its own.
  const callers = createStatelessCallers({
    createBridge: () => options.createBridge({ concurrentCalls: true }),
    ...(options.maxCallers !== undefined && { maxCallers: options.maxCallers }),
    idleMs,
    evictAfterIdleMs,
    log: options.log,
  });
  const stateless = createStatelessHttp({
    // Every form of the credential is the bridge's one token (requestCarriesToken checked it).
    admit: (meta) => callers.admit(options.token, meta),
    version: options.version,
    log: options.log,
    ...(options.maxListeners !== undefined && { maxListeners: options.maxListeners }),
    ...(options.maxListenersPerCaller !== undefined && { maxListenersPerCaller: options.maxListenersPerCaller }),
  });

  const handle = async (request: Request): Promise<Response> => {
    const verdict = checkLoopbackRequest(request.headers);
    if (!verdict.allowed) return forbiddenResponse(verdict.reason ?? "not a loopback request", verdict.status);
    if (!requestCarriesToken(new URL(request.url), request.headers.get("authorization"), options.token, MCP_HTTP_PATH)) {
      return rpcError(401, "Unauthorized: this bridge needs its token, in the path (/mcp/<token>), as /mcp?token=<token>, or as Authorization: Bearer <token>; `toolpool mcp --http` prints the URL");
    }
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId) {
      const entry = sessions.get(sessionId);
      const done = sessions.begin(sessionId);
      if (!entry || !done) return rpcError(404, "Session not found: initialize a new session");
      try {
        return trackResponse(await entry.transport.handleRequest(request), done);
      } catch (error) {
        done();
        throw error;
      }
    }
    if (request.method !== "POST") return rpcError(400, "Bad Request: no mcp-session-id header; send initialize first (protocol 2025) or POST a request with _meta (protocol 2026-07-28)");
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return rpcError(400, "Parse error: the body is not JSON", -32700);
    }
    // Per peer: a 2025 client opens a session with initialize; anything else without a session
    // is a 2026-07-28 request (and an initialize that says it is one is answered as such: not found).
    if (isInitializeRequest(body) && !claimsStatelessRevision(request.headers, body)) return open(request, body);
    return stateless.handle(request, body);
  };

  const httpServer = Bun.serve({
    hostname: options.address.hostname,
    port: options.address.port,
    maxRequestBodySize: MAX_LINE_BYTES,
    idleTimeout: 30,
    fetch: async (request) => {
      try {
        return await handle(request);
      } catch (error) {
        options.log(`toolpool mcp: internal error serving HTTP: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        return rpcError(500, "Internal error (details are in the bridge's log)", -32603);
      }
    },
  });
  const sweep = setInterval(() => {
    sessions.sweep(idleMs);
    callers.sweep();
  }, Math.min(idleMs, 60_000));
  sweep.unref();

  const port = httpServer.port ?? options.address.port;
  const stop = async () => {
    clearInterval(sweep);
    evictionLog.flush();
    sessions.clear();
    stateless.close();
    callers.close();
    await httpServer.stop(true);
  };
  return {
    url: endpointUrl(options.address.hostname, port, `${MCP_HTTP_PATH}/${options.token}`),
    baseUrl: endpointUrl(options.address.hostname, port, MCP_HTTP_PATH),
    port,
    sessionCount: () => sessions.size,
    callerCount: () => callers.size(),
    evictions: () => sessions.evictions(),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

/** A 2026 header or `_meta` version: a 2025 client's initialize carries neither. */
function claimsStatelessRevision(headers: Headers, body: unknown): boolean {
  const version = headers.get("mcp-protocol-version");
  if (version !== null && version.trim() >= "2026") return true;
  const meta = (body as { params?: { _meta?: unknown } }).params?._meta;
  return typeof meta === "object" && meta !== null && META_PROTOCOL_VERSION in meta;
}

function rpcError(status: number, message: string, code = -32000): Response {
  return Response.json({ jsonrpc: "2.0", id: null, error: { code, message } }, { status });
}
