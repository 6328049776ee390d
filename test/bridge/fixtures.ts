/** Tools and a linked bridge for bridge tests: a daemon in process, a DaemonBridge, an SDK client. */
import { PassThrough } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { createBridgeServer } from "../../src/bridge/bridge-server.ts";
import { DaemonBridge } from "../../src/bridge/daemon-bridge.ts";
import { startHttpBridge, type HttpBridgeOptions } from "../../src/bridge/http-bridge.ts";
import { ToolpoolClient } from "../../src/client/client.ts";
import { buildTool } from "../../src/tool/build-tool.ts";
import { textResult } from "../../src/tool/result.ts";
import { startTestDaemon, type TestDaemon } from "../helpers/daemon-harness.ts";
import { waitFor } from "../helpers/wait.ts";
import { echoTool, gateTool, progressTool } from "../helpers/test-tools.ts";

/** A deferred tool: only ToolSearch reveals it, only ExecuteExtraTool runs it in proxy delivery. */
export const translateTool = buildTool({
  name: "TranslateText",
  description: "Translate text from one language into another language.",
  inputSchema: z.strictObject({ text: z.string(), target: z.string().describe("language code, e.g. fr") }),
  shouldDefer: true,
  isReadOnly: true,
  isConcurrencySafe: () => true,
  call: async ({ text, target }) => textResult(`[${target}] ${text}`),
});

export async function startBridgeDaemon(): Promise<TestDaemon & { gate: ReturnType<typeof gateTool>["state"] }> {
  const gate = gateTool();
  const harness = await startTestDaemon({ builtins: [echoTool, progressTool, gate.tool, translateTool] });
  return Object.assign(harness, { gate: gate.state });
}

export interface LinkedHost extends AsyncDisposable {
  client: Client;
  bridge: DaemonBridge;
}

/** An MCP host (the SDK client) linked in memory to a bridge server on the daemon's socket. */
export async function linkHost(socketPath: string, host: { capabilities?: ClientCapabilities; setup?: (client: Client) => void } = {}): Promise<LinkedHost> {
  const bridge = new DaemonBridge({ connect: () => ToolpoolClient.connect(socketPath) });
  const server = createBridgeServer(bridge, { version: "test", instructions: await bridge.instructions() });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "test-host", version: "1.0.0" }, { capabilities: host.capabilities ?? {} });
  host.setup?.(client);
  await client.connect(clientTransport);
  return {
    client,
    bridge,
    async [Symbol.asyncDispose]() {
      await client.close();
      bridge.close();
    },
  };
}

/** The text of a tools/call result's blocks. */
export function textOf(result: object): string {
  const content = (result as { content?: unknown }).content;
  const blocks = Array.isArray(content) ? (content as { type: string; text?: string }[]) : [];
  return blocks.map((block) => (block.type === "text" ? (block.text ?? "") : `[${block.type}]`)).join("");
}

// The one wait (test/helpers/wait.ts), under the name these tests import it by.
export { waitFor as waitUntil } from "../helpers/wait.ts";

/** A daemon on a given socket path (to restart one in place). */
export async function startDaemonAt(socketPath: string): Promise<import("../../src/daemon/daemon.ts").Daemon> {
  const { Daemon } = await import("../../src/daemon/daemon.ts");
  const { parseConfig } = await import("../../src/config/load.ts");
  const { silentLogger } = await import("../../src/runtime/logger.ts");
  const daemon = new Daemon({
    usageDatabasePath: ":memory:",
    socketPath,
    config: parseConfig({}, "test"),
    configSource: { path: null, explicit: false },
    builtins: [echoTool, translateTool],
    logger: silentLogger,
  });
  await daemon.start();
  return daemon;
}

/**
 * A host on the stdio bridge's pipes, in memory: `start` runs the bridge on them. Every line the
 * bridge writes is kept, parsed; `answerTo` waits for the answer to an id; disposing ends stdin and
 * waits for the bridge to finish.
 */
export function stdioPeer(start: (stdin: PassThrough, stdout: PassThrough) => Promise<void>) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  let buffer = "";
  stdout.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
    const parts = buffer.split("\n");
    buffer = parts.pop() ?? "";
    for (const part of parts) if (part) lines.push(JSON.parse(part) as Record<string, unknown>);
  });
  const served = start(stdin, stdout);
  return {
    lines,
    send: (message: object) => stdin.write(`${JSON.stringify(message)}\n`),
    async answerTo(id: number, timeoutMs?: number) {
      await waitFor(() => lines.some((line) => line.id === id), `the answer to ${id}`, timeoutMs);
      return lines.find((line) => line.id === id)!;
    },
    async [Symbol.asyncDispose]() {
      stdin.end();
      await served;
    },
  };
}

/** The bridge token of the HTTP bridge tests (the bridge requires one; any 32+ characters do). */
export const BRIDGE_TOKEN = "test-token-0123456789abcdefghijklmnopqrstuv";

/** An HTTP bridge on loopback whose sessions link to the daemon on `socketPath`, as `toolpool mcp --http` makes them. */
export function httpBridgeOn(socketPath: string, extra: Partial<HttpBridgeOptions> = {}) {
  return startHttpBridge({
    token: BRIDGE_TOKEN,
    address: { hostname: "127.0.0.1", port: 0 },
    createBridge: (session) => new DaemonBridge({ connect: () => ToolpoolClient.connect(socketPath), ...(session && { session }) }),
    version: "test",
    log: () => {},
    ...extra,
  });
}
