/**
 * The conformance suite drives servers over HTTP only. To run it against the stdio bridge, this
 * relay fronts `runStdioBridge` (in process, over pipes) with HTTP and adds nothing of its own but
 * framing: the HTTP-only rules (loopback guard, the 2026 header check) are the bridge's own
 * functions, and an answer's HTTP status follows its JSON-RPC error code as the HTTP bridge's does.
 * A 2025 client gets one stdio bridge per session (initialize … through the SDK's HTTP transport);
 * 2026 requests share one stdio bridge, with ids renumbered so concurrent requests never collide.
 */
import { randomUUID } from "node:crypto";
import { PassThrough } from "node:stream";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isInitializeRequest, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { DaemonBridge } from "../../src/bridge/daemon-bridge.ts";
import { checkLoopbackRequest, forbiddenResponse } from "../../src/bridge/host-guard.ts";
import { asStatelessRequest, checkRequestMeta, META_SUBSCRIPTION_ID } from "../../src/bridge/stateless-face.ts";
import { checkHeaders } from "../../src/bridge/stateless-http.ts";
import { runStdioBridge } from "../../src/bridge/stdio-bridge.ts";
import { ToolpoolClient } from "../../src/client/client.ts";

interface Pipe {
  write(message: object): void;
  onLine(listener: (message: Record<string, unknown>) => void): () => void;
  close(): void;
}

function stdioPipe(socketPath: string): Pipe {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const listeners = new Set<(message: Record<string, unknown>) => void>();
  let buffer = "";
  stdout.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    for (const line of lines) if (line.trim()) for (const listener of listeners) listener(JSON.parse(line) as Record<string, unknown>);
  });
  const bridge = new DaemonBridge({ connect: () => ToolpoolClient.connect(socketPath) });
  void runStdioBridge({ bridge, version: "test", log: () => {}, stdin, stdout });
  return {
    write: (message) => stdin.write(`${JSON.stringify(message)}\n`),
    onLine: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => stdin.end(),
  };
}

const STATUS: Record<number, number> = { [-32601]: 404, [-32602]: 400, [-32600]: 400, [-32020]: 400, [-32021]: 400, [-32022]: 400 };

export function startStdioRelay(socketPath: string): { url: string } & AsyncDisposable {
  const sessions = new Map<string, { transport: WebStandardStreamableHTTPServerTransport; pipe: Pipe }>();
  const shared = stdioPipe(socketPath);
  let next = 1;

  const stateless = async (request: Request, body: Record<string, unknown>): Promise<Response> => {
    if (!("id" in body)) return new Response(null, { status: 202 });
    const parsed = asStatelessRequest(body);
    if ("kind" in parsed) return Response.json(parsed.message, { status: parsed.status });
    const refused = checkRequestMeta(parsed) ?? checkHeaders(request.headers, parsed);
    if (refused) return Response.json(refused.message, { status: refused.status });
    const inner = `relay-${next++}`;
    const outer = parsed.id;
    const restore = (message: Record<string, unknown>): Record<string, unknown> => ({ ...message, ...("id" in message && { id: outer }) });
    if (parsed.method === "subscriptions/listen") {
      const encoder = new TextEncoder();
      let stop = () => {};
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          stop = shared.onLine((message) => {
            const params = message.params as { _meta?: Record<string, unknown> } | undefined;
            if (message.id === inner && "error" in message) {
              controller.enqueue(encoder.encode(`data: ${JSON.stringify(restore(message))}\n\n`));
              return;
            }
            if (params?._meta?.[META_SUBSCRIPTION_ID] !== inner) return;
            const tagged = { ...message, params: { ...params, _meta: { ...params._meta, [META_SUBSCRIPTION_ID]: outer } } };
            controller.enqueue(encoder.encode(`data: ${JSON.stringify(tagged)}\n\n`));
          });
          request.signal.addEventListener("abort", () => {
            stop();
            shared.write({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: inner } });
          });
        },
        cancel: () => stop(),
      });
      shared.write({ ...body, id: inner });
      return new Response(stream, { headers: { "content-type": "text/event-stream" } });
    }
    const answered = Promise.withResolvers<Record<string, unknown>>();
    const stop = shared.onLine((message) => {
      if (message.id === inner && ("result" in message || "error" in message)) answered.resolve(message);
    });
    shared.write({ ...body, id: inner });
    const message = restore(await answered.promise.finally(stop));
    const code = (message.error as { code?: number } | undefined)?.code;
    return Response.json(message, { status: code === undefined ? 200 : (STATUS[code] ?? 500) });
  };

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (request) => {
      const verdict = checkLoopbackRequest(request.headers);
      if (!verdict.allowed) return forbiddenResponse(verdict.reason ?? "not a loopback request");
      const id = request.headers.get("mcp-session-id");
      if (id) {
        const session = sessions.get(id);
        return session ? session.transport.handleRequest(request) : Response.json({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Session not found" } }, { status: 404 });
      }
      if (request.method !== "POST") return new Response(null, { status: 400 });
      const body = (await request.json()) as Record<string, unknown>;
      const claims2026 = (request.headers.get("mcp-protocol-version") ?? "") >= "2026";
      if (!isInitializeRequest(body) || claims2026) return stateless(request, body);
      const pipe = stdioPipe(socketPath);
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (sessionId) => void sessions.set(sessionId, { transport, pipe }),
        onsessionclosed: (sessionId) => {
          sessions.get(sessionId)?.pipe.close();
          sessions.delete(sessionId);
        },
      });
      transport.onmessage = (message) => pipe.write(message);
      pipe.onLine((message) => void transport.send(message as JSONRPCMessage).catch(() => {}));
      await transport.start();
      return transport.handleRequest(request, { parsedBody: body });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/mcp`,
    async [Symbol.asyncDispose]() {
      for (const session of sessions.values()) session.pipe.close();
      shared.close();
      await server.stop(true);
    },
  };
}
