/**
 * Tasks on the bridge, which creates none. A 2025 host (SDK 1.x) that task-augments a `tools/call`
 * anyway gets the call processed normally (2025-11-25: a receiver that declares no task support
 * MUST ignore the augmentation; the SDK server alone refuses it with -32603), over the in-memory
 * link, stdio's SDK transport and Streamable HTTP alike. The task methods, on either face, get a
 * Method not found that says why. A 2026-07-28 host (the SDK v2 client) that declares the tasks
 * extension gets its call answered inline: under the extension the server decides, and this one
 * never makes a task.
 */
import { describe, expect, test } from "bun:test";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, EmptyResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { noTasksMessage, withoutTaskAugmentation } from "../../src/bridge/task-augmentation.ts";
import { BRIDGE_TOKEN as TOKEN, httpBridgeOn, linkHost, startBridgeDaemon, textOf } from "./fixtures.ts";

const ECHO_CALL = { name: "Echo", arguments: { text: "inline" }, task: { ttl: 60_000 } };
const TASK_METHODS = ["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"] as const;


/** What each task method answers: the error's code and message, or "answered". */
async function taskMethodAnswers(client: Client): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  for (const method of TASK_METHODS) {
    const params = method === "tasks/list" ? {} : { taskId: "made-up" };
    answers[method] = await client.request({ method, params } as never, EmptyResultSchema).then(
      () => "answered",
      (error: { code: number; message: string }) => ({ code: error.code, message: error.message }),
    );
  }
  return answers;
}

function refusals(): Record<string, unknown> {
  return Object.fromEntries(TASK_METHODS.map((method) => [method, { code: -32601, message: `MCP error -32601: ${noTasksMessage(method)}` }]));
}

describe("task augmentation on the 2025 face: ignored, as the revision requires", () => {
  test("withoutTaskAugmentation drops only a request's task field", () => {
    expect(withoutTaskAugmentation({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "Echo", arguments: {}, task: { ttl: 5 } } })).toEqual({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "Echo", arguments: {} },
    });
    const untouched = [
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "Echo", arguments: { task: "kept: it is the tool's input" } } },
      { jsonrpc: "2.0", method: "notifications/progress", params: { task: "a notification is not a request" } },
      { jsonrpc: "2.0", id: 2, result: { task: { taskId: "a response is not a request" } } },
      "not an object",
      null,
    ];
    for (const message of untouched) expect(withoutTaskAugmentation(message)).toBe(message);
  });

  test("an SDK 1.x host (in memory) that task-augments tools/call gets the result inline; the task methods say there is no task", async () => {
    await using daemon = await startBridgeDaemon();
    await using host = await linkHost(daemon.socketPath, { capabilities: { tasks: { requests: { elicitation: { create: {} } } } } });
    expect(host.client.getServerCapabilities()?.tasks).toBeUndefined();
    const result = await host.client.request({ method: "tools/call", params: ECHO_CALL }, CallToolResultSchema);
    expect(result).toEqual({ content: [{ type: "text", text: "inline" }], isError: false });
    expect(await taskMethodAnswers(host.client)).toEqual(refusals());
    // Other unknown methods keep the plain answer.
    const unknown = await host.client.request({ method: "widgets/spin", params: {} } as never, EmptyResultSchema).catch((error: Error) => error.message);
    expect(unknown).toBe("MCP error -32601: Method not found");
  });

  test("over Streamable HTTP too (a 2025 session): the augmented call runs once, inline", async () => {
    await using daemon = await startBridgeDaemon();
    await using bridge = httpBridgeOn(daemon.socketPath);
    const client = new Client({ name: "host-2025", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(bridge.url)));
    try {
      const result = await client.request({ method: "tools/call", params: ECHO_CALL }, CallToolResultSchema);
      expect(textOf(result)).toBe("inline");
      expect(await taskMethodAnswers(client)).toEqual(refusals());
    } finally {
      await client.close();
    }
  });
});

describe("the tasks extension on the 2026-07-28 face", () => {
  test("an SDK v2 host that declares the extension gets the call answered inline; a raw tasks/get is a 404 that says why", async () => {
    await using daemon = await startBridgeDaemon();
    await using bridge = httpBridgeOn(daemon.socketPath);
    const client = new ClientV2(
      { name: "host-2026", version: "1" },
      { capabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } }, versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    const sent: { method?: string; params?: { _meta?: Record<string, unknown> } }[] = [];
    const watching = (url: string | URL | Request, init?: RequestInit) => {
      if (typeof init?.body === "string") sent.push(JSON.parse(init.body));
      return fetch(url, init);
    };
    await client.connect(new HttpTransportV2(new URL(bridge.url), { fetch: watching }));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      const result = await client.callTool({ name: "Echo", arguments: { text: "inline" } });
      expect({ text: textOf(result), isError: result.isError }).toEqual({ text: "inline", isError: false });
      const call = sent.find((message) => message.method === "tools/call");
      expect(call?.params?._meta?.["io.modelcontextprotocol/clientCapabilities"]).toEqual({ extensions: { "io.modelcontextprotocol/tasks": {} } });
    } finally {
      await client.close();
    }
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
    };
    const response = await fetch(bridge.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tasks/get" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tasks/get", params: { _meta: meta, taskId: "made-up" } }),
    });
    expect({ status: response.status, body: await response.json() }).toEqual({
      status: 404,
      body: { jsonrpc: "2.0", id: 7, error: { code: -32601, message: noTasksMessage("tasks/get") } },
    });
  });
});
