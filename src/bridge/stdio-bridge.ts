/**
 * `toolpool mcp` on stdio: the host starts the bridge as a child process and speaks MCP over its
 * stdin/stdout. stdout carries nothing but MCP messages; everything else goes to stderr. When the
 * host closes stdin the bridge closes its daemon connection and returns (the daemon keeps running).
 */
import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createBridgeServer } from "./bridge-server.ts";
import type { DaemonBridge } from "./daemon-bridge.ts";

export interface StdioBridgeOptions {
  bridge: DaemonBridge;
  version: string;
  log: (message: string) => void;
  stdin?: Readable;
  stdout?: Writable;
}

/** Serves until the host closes stdin. Throws before serving when the daemon cannot be reached. */
export async function runStdioBridge(options: StdioBridgeOptions): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  // Reach the daemon before answering initialize: a host shows a server that fails here as failed,
  // with this message in its log, instead of one whose every call fails.
  const instructions = await options.bridge.instructions();
  const server = createBridgeServer(options.bridge, { version: options.version, instructions, log: options.log });
  const transport = new StdioServerTransport(stdin, stdout);
  const ended = Promise.withResolvers<void>();
  stdin.once("end", () => ended.resolve());
  stdin.once("close", () => ended.resolve());
  server.onclose = () => ended.resolve();
  await server.connect(transport);
  await ended.promise;
  options.bridge.close();
  await server.close().catch(() => {});
}
