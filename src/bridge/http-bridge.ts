/**
 * `toolpool mcp --http HOST:PORT`: the bridge over MCP Streamable HTTP, on loopback only. Each MCP
 * session (an `initialize` without a session id) gets its own SDK transport, MCP server and daemon
 * session, so two hosts never share what their searches discovered. Every request passes the
 * DNS-rebinding guard first (loopback Host and Origin, else 403).
 *
 * Bounded: at most `maxSessions` sessions (503 past it), request bodies of 8 MiB, and a session
 * unused for `idleMs` is closed (its client gets 404 and, as MCP requires, initializes again).
 */
import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { MAX_LINE_BYTES } from "../protocol/limits.ts";
import { createBridgeServer } from "./bridge-server.ts";
import type { DaemonBridge } from "./daemon-bridge.ts";
import { checkLoopbackRequest, forbiddenResponse } from "./host-guard.ts";
import { endpointUrl, type ListenAddress } from "./listen-address.ts";

export const MCP_HTTP_PATH = "/mcp";

export interface HttpBridgeOptions {
  address: ListenAddress;
  createBridge: () => DaemonBridge;
  version: string;
  log: (message: string) => void;
  maxSessions?: number;
  idleMs?: number;
}

export interface HttpBridge extends AsyncDisposable {
  url: string;
  port: number;
  sessionCount(): number;
  stop(): Promise<void>;
}

interface Entry {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  bridge: DaemonBridge;
  lastUsed: number;
}

export function startHttpBridge(options: HttpBridgeOptions): HttpBridge {
  const maxSessions = options.maxSessions ?? 64;
  const idleMs = options.idleMs ?? 30 * 60 * 1000;
  const sessions = new Map<string, Entry>();

  const drop = (id: string) => {
    const entry = sessions.get(id);
    if (!entry) return;
    sessions.delete(id);
    entry.bridge.close();
    void entry.server.close().catch(() => {});
  };

  const open = async (request: Request, body: unknown): Promise<Response> => {
    if (sessions.size >= maxSessions) return rpcError(503, `Too many MCP sessions (limit ${maxSessions}); close one (DELETE) and retry`);
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
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => void sessions.set(id, { transport, server, bridge, lastUsed: Date.now() }),
      onsessionclosed: (id) => drop(id),
      // Under Bun's idle timeout below, so a long quiet tool call keeps its stream.
      keepAliveMs: 5_000,
    });
    await server.connect(transport);
    const response = await transport.handleRequest(request, { parsedBody: body });
    // An initialize the transport refused opened no session: nothing may stay linked to the daemon.
    if (transport.sessionId === undefined || !sessions.has(transport.sessionId)) {
      bridge.close();
      void server.close().catch(() => {});
    }
    return response;
  };

  const handle = async (request: Request): Promise<Response> => {
    const verdict = checkLoopbackRequest(request.headers);
    if (!verdict.allowed) return forbiddenResponse(verdict.reason ?? "not a loopback request");
    if (new URL(request.url).pathname !== MCP_HTTP_PATH) return new Response(`Not found: the MCP endpoint is ${MCP_HTTP_PATH}\n`, { status: 404 });
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId) {
      const entry = sessions.get(sessionId);
      if (!entry) return rpcError(404, "Session not found: initialize a new session");
      entry.lastUsed = Date.now();
      return entry.transport.handleRequest(request);
    }
    if (request.method !== "POST") return rpcError(400, "Bad Request: no mcp-session-id header; send initialize first");
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return rpcError(400, "Parse error: the body is not JSON", -32700);
    }
    if (!isInitializeRequest(body)) return rpcError(400, "Bad Request: no mcp-session-id header; send initialize first");
    return open(request, body);
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
    const cutoff = Date.now() - idleMs;
    for (const [id, entry] of sessions) if (entry.lastUsed < cutoff) drop(id);
  }, Math.min(idleMs, 60_000));
  sweep.unref();

  const port = httpServer.port ?? options.address.port;
  const stop = async () => {
    clearInterval(sweep);
    for (const id of [...sessions.keys()]) drop(id);
    await httpServer.stop(true);
  };
  return {
    url: endpointUrl(options.address.hostname, port, MCP_HTTP_PATH),
    port,
    sessionCount: () => sessions.size,
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

function rpcError(status: number, message: string, code = -32000): Response {
  return Response.json({ jsonrpc: "2.0", id: null, error: { code, message } }, { status });
}
