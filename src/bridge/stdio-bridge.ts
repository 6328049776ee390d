/**
 * `toolpool mcp` on stdio: the host starts the bridge as a child process and speaks MCP (2026-07-28
 * stateless requests, or a 2025 session opened by initialize, per peer) over its
 * stdin/stdout. stdout carries nothing but MCP messages; everything else goes to stderr. When the
 * host closes stdin the bridge closes its daemon connection and returns (the daemon keeps running).
 */
import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createBridgeServer } from "./bridge-server.ts";
import type { DaemonBridge } from "./daemon-bridge.ts";
import { routeStatelessMessages } from "./stateless-stdio.ts";

export interface StdioBridgeOptions {
  bridge: DaemonBridge;
  /**
   * The daemon link for a 2026-07-28 host's stateless requests (its session runs calls as they
   * come); made on the first such request. Default: `bridge` (calls in the session's order).
   */
  createStatelessBridge?: () => DaemonBridge;
  version: string;
  log: (message: string) => void;
  stdin?: Readable;
  stdout?: Writable;
  /**
   * Something the host's user should know about how the bridge reached the daemon (it had to start
   * one): hosts hide the bridge's stderr, so it also goes into the initialize instructions and, once
   * the host is initialized, into an MCP log message (`notifications/message`), which hosts show.
   */
  notice?: () => string | undefined;
}

/** Serves until the host closes stdin. Throws before serving when the daemon cannot be reached. */
export async function runStdioBridge(options: StdioBridgeOptions): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  // Reach the daemon before answering initialize: a host shows a server that fails here as failed,
  // with this message in its log, instead of one whose every call fails.
  let instructions: string;
  try {
    instructions = await options.bridge.instructions();
  } catch (error) {
    // A host shows a server that exits before answering as "disconnected", with no reason: answer
    // its initialize with the reason as a JSON-RPC error, then stop.
    await refuseInitialize(stdin, stdout, `toolpool mcp could not start: ${(error as Error).message}`);
    throw error;
  }
  const notice = options.notice?.();
  const server = createBridgeServer(options.bridge, { version: options.version, instructions: notice ? `${notice}\n\n${instructions}` : instructions, log: options.log });
  if (notice) {
    server.registerCapabilities({ logging: {} });
    const initialized = server.oninitialized;
    server.oninitialized = () => {
      initialized?.();
      void server.sendLoggingMessage({ level: "warning", logger: "toolpool", data: notice }).catch(() => {});
    };
  }
  const transport = new StdioServerTransport(stdin, stdout);
  const ended = Promise.withResolvers<void>();
  stdin.once("end", () => ended.resolve());
  stdin.once("close", () => ended.resolve());
  server.onclose = () => ended.resolve();
  await server.connect(transport);
  // Per peer: a 2026-07-28 host sends no initialize; its requests carry their version in _meta.
  let statelessBridge: DaemonBridge | undefined;
  const stateless = routeStatelessMessages(transport, {
    bridge: () => (statelessBridge ??= options.createStatelessBridge?.() ?? options.bridge),
    version: options.version,
    log: options.log,
  });
  // The SDK's transport drops a line that is not JSON, or not one JSON-RPC message (a batch), and
  // the host waits for an answer that never comes. JSON-RPC says to answer it, with a null id.
  const reported = server.onerror;
  server.onerror = (error) => {
    const code = error instanceof SyntaxError ? -32700 : error.name === "ZodError" ? -32600 : undefined;
    if (code !== undefined) {
      const message = code === -32700 ? "Parse error: the line is not valid JSON" : "Invalid request: expected one JSON-RPC 2.0 message per line (batches are not supported)";
      stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } })}\n`);
    }
    reported?.(error);
  };
  await ended.promise;
  stateless.close();
  options.bridge.close();
  statelessBridge?.close();
  await server.close().catch(() => {});
}

/** Bounds the wait for the host's first request when the bridge cannot start (a host sends it at once). */
const REFUSE_WAIT_MS = 10_000;
const MAX_FIRST_LINE_BYTES = 1 << 20;

/** Answers the host's first request (its initialize) with `message` as an error, or gives up after REFUSE_WAIT_MS. */
async function refuseInitialize(stdin: Readable, stdout: Writable, message: string): Promise<void> {
  const done = Promise.withResolvers<void>();
  let buffered = "";
  const timer = setTimeout(() => done.resolve(), REFUSE_WAIT_MS);
  const onData = (chunk: Buffer | string) => {
    buffered += chunk.toString();
    const end = buffered.indexOf("\n");
    if (end === -1) {
      if (buffered.length > MAX_FIRST_LINE_BYTES) done.resolve();
      return;
    }
    let id: unknown = null;
    try {
      const parsed = JSON.parse(buffered.slice(0, end)) as { id?: unknown };
      if (typeof parsed.id === "string" || typeof parsed.id === "number") id = parsed.id;
    } catch {}
    stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32603, message } })}\n`, () => done.resolve());
  };
  stdin.on("data", onData);
  stdin.once("end", () => done.resolve());
  stdin.once("close", () => done.resolve());
  await done.promise;
  clearTimeout(timer);
  stdin.off("data", onData);
  stdin.pause();
}
