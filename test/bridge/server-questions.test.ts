/**
 * A pooled server's questions reach the host that made the call, through the bridge: the reference
 * everything server's `trigger-elicitation-request` (it sends `elicitation/create` while the call
 * runs), called by an SDK client that declares elicitation and answers it — the answer arrives in
 * the tool result; the same host without the capability gets a tool error naming the question.
 * A 2026-07-28 server's input_required reaches a 2025 host; a 2025 server's question reaches a
 * 2026-07-28 host as input_required, answered by its retry — by hand on the wire, and by the SDK v2
 * client (@modelcontextprotocol/client), which answers through its own elicitation handler.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DaemonBridge } from "../../src/bridge/daemon-bridge.ts";
import { runStdioBridge } from "../../src/bridge/stdio-bridge.ts";
import { startHttpBridge } from "../../src/bridge/http-bridge.ts";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolpoolClient } from "../../src/client/client.ts";
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { startTestDaemon } from "../helpers/daemon-harness.ts";
import { echoTool } from "../helpers/test-tools.ts";
import { linkHost, stdioPeer, textOf, waitUntil } from "./fixtures.ts";

setDefaultTimeout(60_000);

const REPO = join(import.meta.dir, "..", "..");
const everything = {
  command: join(REPO, "node_modules", ".bin", "bun"),
  args: [join(REPO, "node_modules", ".bin", "mcp-server-everything"), "stdio"],
  timeoutMs: 30_000,
};
const TOOL = "mcp__everything__trigger-elicitation-request";

async function startWithEverything() {
  const harness = await startTestDaemon({ builtins: [echoTool], config: { mcpServers: { everything } } });
  await waitUntil(() => harness.daemon.core.mcp()?.server("everything")?.state === "connected", "the everything server to connect", 30_000);
  return harness;
}

/** Through the proxy view: the search reveals the tool, ExecuteExtraTool runs it. */
async function callThroughBridge(host: Awaited<ReturnType<typeof linkHost>>) {
  const found = await host.client.callTool({ name: "ToolSearch", arguments: { query: `select:${TOOL}` } });
  expect(textOf(found)).toContain(TOOL);
  return host.client.callTool({ name: "ExecuteExtraTool", arguments: { tool_name: TOOL, params: {} } });
}

/** A host that declares form elicitation and accepts every question with `content`; `asked` keeps what it was asked. */
async function elicitingHost(socketPath: string, content: Record<string, unknown>) {
  const asked: unknown[] = [];
  const host = await linkHost(socketPath, {
    capabilities: { elicitation: { form: {} } },
    setup: (client) =>
      client.setRequestHandler(ElicitRequestSchema, (request) => {
        asked.push(request.params);
        return { action: "accept", content };
      }),
  });
  return { host, asked, [Symbol.asyncDispose]: () => host[Symbol.asyncDispose]() };
}

const FIXTURE_2026 = join(import.meta.dir, "..", "fixtures", "mcp", "revision-2026-server.ts");

describe("servers' questions through the bridge", () => {
  test("a 2026-07-28 server's input_required: the host is asked (elicitation/create), answers, and the retried call succeeds", async () => {
    await using daemon = await startTestDaemon({ builtins: [echoTool], config: { mcpServers: { moon: { command: process.execPath, args: [FIXTURE_2026], timeoutMs: 10_000 } } } });
    await waitUntil(() => daemon.daemon.core.mcp()?.server("moon")?.state === "connected", "the 2026 server to connect");
    await using answering = await elicitingHost(daemon.socketPath, { sure: true });
    const { host, asked } = answering;
    await host.client.callTool({ name: "ToolSearch", arguments: { query: "select:mcp__moon__delete_file" } });
    const result = await host.client.callTool({ name: "ExecuteExtraTool", arguments: { tool_name: "mcp__moon__delete_file", params: { path: "/srv/old.log" } } });
    expect(result).toEqual({ content: [{ type: "text", text: "deleted /srv/old.log" }], isError: false });
    expect(asked).toEqual([{ message: "Delete /srv/old.log?", requestedSchema: { type: "object", properties: { sure: { type: "boolean" } }, required: ["sure"] } }]);
  });

  test("a host that declares elicitation is asked, and its answer arrives end to end in the tool result", async () => {
    await using daemon = await startWithEverything();
    await using answering = await elicitingHost(daemon.socketPath, { name: "Ada Lovelace", check: true, integer: 7 });
    const { host, asked } = answering;
    const result = await callThroughBridge(host);
    expect(result.isError).toBe(false);
    expect(textOf(result)).toContain("User provided the requested information");
    expect(textOf(result)).toContain("- Name: Ada Lovelace");
    expect(textOf(result)).toContain("- Favorite Integer: 7");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ message: "Please provide inputs for the following fields:", requestedSchema: { type: "object", required: ["name"] } });
  });

  test("a sampling question (a 2026 server's input_required) goes to a host that declared sampling, as sampling/createMessage", async () => {
    await using daemon = await startTestDaemon({ builtins: [echoTool], config: { mcpServers: { moon: { command: process.execPath, args: [FIXTURE_2026], timeoutMs: 10_000 } } } });
    await waitUntil(() => daemon.daemon.core.mcp()?.server("moon")?.state === "connected", "the 2026 server to connect");
    const asked: unknown[] = [];
    await using host = await linkHost(daemon.socketPath, {
      capabilities: { sampling: {} },
      setup: (client) =>
        client.setRequestHandler(CreateMessageRequestSchema, (request) => {
          asked.push(request.params.messages);
          return { role: "assistant", content: { type: "text", text: "a tale, briefly" }, model: "host-model" };
        }),
    });
    await host.client.callTool({ name: "ToolSearch", arguments: { query: "select:mcp__moon__summarise" } });
    const result = await host.client.callTool({ name: "ExecuteExtraTool", arguments: { tool_name: "mcp__moon__summarise", params: { text: "a long tale" } } });
    expect(result).toEqual({ content: [{ type: "text", text: "summary: a tale, briefly" }], isError: false });
    expect(asked).toEqual([[{ role: "user", content: { type: "text", text: "Summarise: a long tale" } }]]);
  });

  test("a host that declares elicitation and declines: the server sees the decline", async () => {
    await using daemon = await startWithEverything();
    await using host = await linkHost(daemon.socketPath, {
      capabilities: { elicitation: { form: {} } },
      setup: (client) => client.setRequestHandler(ElicitRequestSchema, () => ({ action: "decline" })),
    });
    const result = await callThroughBridge(host);
    expect(textOf(result)).toContain("declined");
  });

  test("a host without the elicitation capability gets a clear tool error naming what the server asked", async () => {
    await using daemon = await startWithEverything();
    await using host = await linkHost(daemon.socketPath);
    const result = await callThroughBridge(host);
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toStartWith('toolpool: the server asked elicitation/create ("Please provide inputs for the following fields:"), but the client that made this call did not declare the elicitation capability, so nobody could answer it.');
  });
});

describe("servers' questions over the HTTP bridge (2025 sessions)", () => {
  test("the asking call's host session is asked on its call's stream; another host session, able to answer too, is never asked", async () => {
    await using daemon = await startWithEverything();
    await using http = startHttpBridge({
      token: "test-token-0123456789abcdefghijklmnopqrstuv",
      address: { hostname: "127.0.0.1", port: 0 },
      createBridge: () => new DaemonBridge({ connect: () => ToolpoolClient.connect(daemon.socketPath) }),
      version: "test",
      log: () => {},
    });
    const asked: Record<string, string[]> = { owner: [], bystander: [] };
    const host = async (name: "owner" | "bystander") => {
      const client = new Client({ name, version: "1" }, { capabilities: { elicitation: { form: {} } } });
      client.setRequestHandler(ElicitRequestSchema, (request) => {
        asked[name]!.push(request.params.message);
        return { action: "accept", content: { name: `answered by ${name}` } };
      });
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      return client;
    };
    const owner = await host("owner");
    const bystander = await host("bystander");
    try {
      await owner.callTool({ name: "ToolSearch", arguments: { query: `select:${TOOL}` } });
      const result = await owner.callTool({ name: "ExecuteExtraTool", arguments: { tool_name: TOOL, params: {} } });
      expect(textOf(result)).toContain("- Name: answered by owner");
      expect(asked).toEqual({ owner: ["Please provide inputs for the following fields:"], bystander: [] });
    } finally {
      await owner.close();
      await bystander.close();
    }
  });
});

describe("servers' questions to a 2026-07-28 host (stateless stdio face): input_required, then the retry", () => {
  const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };

  async function statelessHost(socketPath: string) {
    const peer = stdioPeer((stdin, stdout) => runStdioBridge({ bridge: new DaemonBridge({ connect: () => ToolpoolClient.connect(socketPath) }), version: "test", log: () => {}, stdin, stdout }));
    let id = 0;
    const request = async (method: string, params: Record<string, unknown>) => {
      const mine = ++id;
      peer.send({ jsonrpc: "2.0", id: mine, method, params });
      return peer.answerTo(mine, 30_000);
    };
    return { request, [Symbol.asyncDispose]: () => peer[Symbol.asyncDispose]() };
  }

  test("the everything server's elicitation reaches a host that declared elicitation in _meta, and the retry with inputResponses gets the result", async () => {
    await using daemon = await startWithEverything();
    await using host = await statelessHost(daemon.socketPath);
    await host.request("tools/call", { _meta: META, name: "ToolSearch", arguments: { query: `select:${TOOL}` } });
    const call = { name: "ExecuteExtraTool", arguments: { tool_name: TOOL, params: {} } };
    const first = (await host.request("tools/call", { _meta: META, ...call })).result as Record<string, unknown>;
    expect(first.resultType).toBe("input_required");
    const requests = Object.entries(first.inputRequests as Record<string, { method: string; params: { message: string } }>);
    expect(requests).toHaveLength(1);
    expect(requests[0]![1]).toMatchObject({ method: "elicitation/create", params: { message: "Please provide inputs for the following fields:" } });
    expect(typeof first.requestState).toBe("string");
    // Another state (made up, or of another call) is refused; the real one still works after.
    const forged = await host.request("tools/call", { _meta: META, ...call, requestState: "forged", inputResponses: {} });
    expect((forged.error as { code: number; message: string }).message).toContain("requestState names no call");
    const answer = { [requests[0]![0]]: { action: "accept", content: { name: "Grace Hopper" } } };
    const second = (await host.request("tools/call", { _meta: META, ...call, requestState: first.requestState, inputResponses: answer })).result as Record<string, unknown>;
    expect(second.resultType).toBe("complete");
    expect(textOf(second)).toContain("- Name: Grace Hopper");
    // Used once: the same state again finds nothing.
    const replay = await host.request("tools/call", { _meta: META, ...call, requestState: first.requestState, inputResponses: answer });
    expect((replay.error as { message: string }).message).toContain("requestState names no call");
  });

  test("a 2026 host that declared no elicitation gets the tool error naming the question", async () => {
    await using daemon = await startWithEverything();
    await using host = await statelessHost(daemon.socketPath);
    const meta = { ...META, "io.modelcontextprotocol/clientCapabilities": {} };
    await host.request("tools/call", { _meta: meta, name: "ToolSearch", arguments: { query: `select:${TOOL}` } });
    const result = (await host.request("tools/call", { _meta: meta, name: "ExecuteExtraTool", arguments: { tool_name: TOOL, params: {} } })).result as Record<string, unknown>;
    expect(result).toMatchObject({ resultType: "complete", isError: true });
    expect(textOf(result)).toContain("did not declare the elicitation capability");
  });
});

describe("servers' questions to a 2026-07-28 host over stateless HTTP", () => {
  test("a 2026 server's question reaches a 2026 host as input_required on HTTP; the retry with the answer completes the call", async () => {
    await using daemon = await startTestDaemon({ builtins: [echoTool], config: { mcpServers: { moon: { command: process.execPath, args: [FIXTURE_2026], timeoutMs: 10_000 } } } });
    await waitUntil(() => daemon.daemon.core.mcp()?.server("moon")?.state === "connected", "the 2026 server to connect");
    await using http = startHttpBridge({
      token: "test-token-0123456789abcdefghijklmnopqrstuv",
      address: { hostname: "127.0.0.1", port: 0 },
      createBridge: () => new DaemonBridge({ connect: () => ToolpoolClient.connect(daemon.socketPath) }),
      version: "test",
      log: () => {},
    });
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
    let id = 0;
    const post = async (params: Record<string, unknown>) => {
      const response = await fetch(http.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": String(params.name) },
        body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: { _meta: meta, ...params } }),
      });
      return (await response.json()) as { result?: Record<string, unknown>; error?: { message: string } };
    };
    await post({ name: "ToolSearch", arguments: { query: "select:mcp__moon__delete_file" } });
    const call = { name: "ExecuteExtraTool", arguments: { tool_name: "mcp__moon__delete_file", params: { path: "/srv/x" } } };
    const first = (await post(call)).result!;
    expect(first.resultType).toBe("input_required");
    const [[key, request]] = Object.entries(first.inputRequests as Record<string, unknown>) as [[string, unknown]];
    expect(request).toEqual({ method: "elicitation/create", params: { message: "Delete /srv/x?", requestedSchema: { type: "object", properties: { sure: { type: "boolean" } }, required: ["sure"] } } });
    const second = (await post({ ...call, requestState: first.requestState, inputResponses: { [key]: { action: "accept", content: { sure: true } } } })).result!;
    expect(second).toMatchObject({ resultType: "complete", isError: false, content: [{ type: "text", text: "deleted /srv/x" }] });
  });
});

describe("hostile: two 2026 hosts on HTTP that declare the same clientInfo (two windows of one app) are one caller", () => {
  const ASKING_2025 = join(import.meta.dir, "..", "fixtures", "mcp", "asking-2025-server.ts");
  test("a 2025 server's question during one host's call is never put to the other host, whose call is older", async () => {
    const log = join(mkdtempSync(join(tmpdir(), "asking-")), "calls.jsonl");
    await using daemon = await startTestDaemon({ builtins: [echoTool], config: { mcpServers: { ask: { command: process.execPath, args: [ASKING_2025], env: { FIXTURE_LOG_FILE: log }, timeoutMs: 10_000 } } } });
    await waitUntil(() => daemon.daemon.core.mcp()?.server("ask")?.state === "connected", "the 2025 server to connect");
    await using http = startHttpBridge({
      token: "test-token-0123456789abcdefghijklmnopqrstuv",
      address: { hostname: "127.0.0.1", port: 0 },
      createBridge: (session) => new DaemonBridge({ connect: () => ToolpoolClient.connect(daemon.socketPath), ...(session && { session }) }),
      version: "test",
      log: () => {},
    });
    // Both windows declare what the app declares: the same name and version, and elicitation.
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": { elicitation: {} }, "io.modelcontextprotocol/clientInfo": { name: "same-app", version: "1.0" } };
    let id = 0;
    const post = async (tool: string) => {
      const response = await fetch(http.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "ExecuteExtraTool" },
        body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: { _meta: meta, name: "ExecuteExtraTool", arguments: { tool_name: tool, params: {} } } }),
      });
      return (await response.json()) as { result: Record<string, unknown> };
    };
    // Window 1's call runs first and stays open until the server's next question is settled.
    const windowOne = post("mcp__ask__hold");
    await waitUntil(() => existsSync(log) && readFileSync(log, "utf8").includes('{"call":"hold"}'), "window one's call to run in the server");
    const windowTwo = await post("mcp__ask__confirm");
    const first = await windowOne;
    expect({ windowOne: first.result.resultType, windowOneText: first.result.content, windowTwoError: windowTwo.result.isError }).toEqual({
      windowOne: "complete",
      windowOneText: [{ type: "text", text: "released" }],
      windowTwoError: true,
    });
    expect(JSON.stringify(windowTwo.result.content)).toContain("calls of this server were in flight for 2 different callers");
  });
});

describe("servers' questions to the SDK v2 client (2026-07-28 over Streamable HTTP): input_required, answered by the client's own handler", () => {
  async function v2Host(url: string, name: string, answer?: (message: string) => Record<string, unknown>) {
    const client = new ClientV2({ name, version: "1" }, { capabilities: answer ? { elicitation: { form: {} } } : {}, versionNegotiation: { mode: { pin: "2026-07-28" } } });
    if (answer) client.setRequestHandler("elicitation/create", (request) => answer(request.params.message) as never);
    await client.connect(new HttpTransportV2(new URL(url)));
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    return client;
  }
  const bridgeOn = (socketPath: string) =>
    startHttpBridge({
      token: "test-token-0123456789abcdefghijklmnopqrstuv",
      address: { hostname: "127.0.0.1", port: 0 },
      createBridge: () => new DaemonBridge({ connect: () => ToolpoolClient.connect(socketPath) }),
      version: "test",
      log: () => {},
    });

  test("the everything server's elicitation reaches the v2 client that declared and answers it; its answer arrives in the tool result", async () => {
    await using daemon = await startWithEverything();
    await using http = bridgeOn(daemon.socketPath);
    const asked: string[] = [];
    const client = await v2Host(http.url, "v2-answering", (message) => {
      asked.push(message);
      return { action: "accept", content: { name: "Mary Somerville", check: true } };
    });
    try {
      await client.callTool({ name: "ToolSearch", arguments: { query: `select:${TOOL}` } });
      const result = await client.callTool({ name: "ExecuteExtraTool", arguments: { tool_name: TOOL, params: {} } });
      expect(result.isError).toBe(false);
      expect(textOf(result)).toContain("- Name: Mary Somerville");
      expect(asked).toEqual(["Please provide inputs for the following fields:"]);
    } finally {
      await client.close();
    }
  });

  test("a 2026 server's question (input_required through the pool) reaches the v2 client, and its retry completes the call", async () => {
    await using daemon = await startTestDaemon({ builtins: [echoTool], config: { mcpServers: { moon: { command: process.execPath, args: [FIXTURE_2026], timeoutMs: 10_000 } } } });
    await waitUntil(() => daemon.daemon.core.mcp()?.server("moon")?.state === "connected", "the 2026 server to connect");
    await using http = bridgeOn(daemon.socketPath);
    const asked: string[] = [];
    const client = await v2Host(http.url, "v2-answering", (message) => {
      asked.push(message);
      return { action: "accept", content: { sure: true } };
    });
    try {
      await client.callTool({ name: "ToolSearch", arguments: { query: "select:mcp__moon__delete_file" } });
      const result = await client.callTool({ name: "ExecuteExtraTool", arguments: { tool_name: "mcp__moon__delete_file", params: { path: "/srv/v2.log" } } });
      expect({ content: result.content, isError: result.isError }).toEqual({ content: [{ type: "text", text: "deleted /srv/v2.log" }], isError: false });
      expect(asked).toEqual(["Delete /srv/v2.log?"]);
    } finally {
      await client.close();
    }
  });

  test("a v2 client without the elicitation capability gets the tool error naming the question, and is never asked", async () => {
    await using daemon = await startWithEverything();
    await using http = bridgeOn(daemon.socketPath);
    const client = await v2Host(http.url, "v2-silent");
    try {
      await client.callTool({ name: "ToolSearch", arguments: { query: `select:${TOOL}` } });
      const result = await client.callTool({ name: "ExecuteExtraTool", arguments: { tool_name: TOOL, params: {} } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toStartWith(
        'toolpool: the server asked elicitation/create ("Please provide inputs for the following fields:"), but the client that made this call did not declare the elicitation capability, so nobody could answer it.',
      );
    } finally {
      await client.close();
    }
  });
});
