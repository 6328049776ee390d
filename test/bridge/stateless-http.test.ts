import { describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Method } from "../../src/protocol/method-names.ts";
import { BRIDGE_TOKEN as TOKEN, httpBridgeOn, startBridgeDaemon, textOf, waitUntil } from "./fixtures.ts";

const REVISION = "2026-07-28";
const META = {
  "io.modelcontextprotocol/protocolVersion": REVISION,
  "io.modelcontextprotocol/clientInfo": { name: "host-2026", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};


/** A 2026-07-28 request as a current client sends it: standard headers agreeing with the body. */
function call(url: string, id: number, method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}, signal?: AbortSignal) {
  const name: Record<string, string> = typeof params.name === "string" ? { "mcp-name": params.name } : {};
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": REVISION, "mcp-method": method, ...name, ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { _meta: META, ...params } }),
    ...(signal && { signal }),
  });
}

async function answer(response: Response): Promise<{ status: number; body: Record<string, unknown> }> {
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const SERVER_META = { "io.modelcontextprotocol/serverInfo": { name: "toolpool", version: "test" } };

describe("the HTTP bridge at 2026-07-28 (stateless), beside 2025 sessions", () => {
  test("server/discover says what the bridge speaks, with caching hints and the server's identity", async () => {
    await using daemon = await startBridgeDaemon();
    await using bridge = httpBridgeOn(daemon.socketPath);
    const { status, body } = await answer(await call(bridge.url, 1, "server/discover"));
    const result = body.result as Record<string, unknown>;
    expect(status).toBe(200);
    expect(typeof result.instructions).toBe("string");
    expect({ ...result, instructions: "…" } as Record<string, unknown>).toEqual({
      supportedVersions: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"],
      capabilities: { tools: { listChanged: true } },
      instructions: "…",
      ttlMs: 60_000,
      cacheScope: "private",
      resultType: "complete",
      _meta: SERVER_META,
    });
    expect(bridge.sessionCount()).toBe(0);
  });

  test("tools/list carries resultType and caching hints, in the same order every time; ToolSearch then ExecuteExtraTool works without a session", async () => {
    await using daemon = await startBridgeDaemon();
    await using bridge = httpBridgeOn(daemon.socketPath);
    const first = await answer(await call(bridge.url, 1, "tools/list"));
    const second = await answer(await call(bridge.url, 2, "tools/list"));
    const names = (first.body.result as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    expect(names).toEqual(["Echo", "Gate", "Progress", "ToolSearch", "ExecuteExtraTool"]);
    expect(second.body.result).toEqual(first.body.result);
    expect(first.body.result).toMatchObject({ ttlMs: 60_000, cacheScope: "private", resultType: "complete", _meta: SERVER_META });
    const found = await answer(await call(bridge.url, 3, "tools/call", { name: "ToolSearch", arguments: { query: "select:TranslateText" } }));
    expect(textOf(found.body.result as object)).toContain("TranslateText");
    const ran = await answer(await call(bridge.url, 4, "tools/call", { name: "ExecuteExtraTool", arguments: { tool_name: "TranslateText", params: { text: "ok", target: "it" } } }));
    expect(ran.body).toEqual({ jsonrpc: "2.0", id: 4, result: { content: [{ type: "text", text: "[it] ok" }], isError: false, resultType: "complete", _meta: SERVER_META } });
  });

  test("every malformed or mismatched request is refused with its own code and status, echoing the id", async () => {
    await using daemon = await startBridgeDaemon();
    await using bridge = httpBridgeOn(daemon.socketPath);
    const raw = (id: number, method: string, params: unknown, headers: Record<string, string>) =>
      fetch(bridge.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
      }).then(answer);
    const std = { "mcp-protocol-version": REVISION, "mcp-method": "server/discover" };
    const codeOf = (reply: { status: number; body: Record<string, unknown> }) => ({ status: reply.status, id: reply.body.id, code: (reply.body.error as { code: number }).code });

    expect(codeOf(await raw(1, "server/discover", {}, std))).toEqual({ status: 400, id: 1, code: -32602 });
    expect(codeOf(await raw(2, "server/discover", { _meta: { "io.modelcontextprotocol/protocolVersion": REVISION } }, std))).toEqual({ status: 400, id: 2, code: -32602 });
    // The header and the body disagree on the version: HeaderMismatch, before the version is judged.
    const skewed = { ...META, "io.modelcontextprotocol/protocolVersion": "v999" };
    expect(codeOf(await raw(3, "server/discover", { _meta: skewed }, std))).toEqual({ status: 400, id: 3, code: -32020 });
    const unsupported = await raw(4, "server/discover", { _meta: skewed }, { ...std, "mcp-protocol-version": "v999" });
    expect(unsupported).toEqual({
      status: 400,
      body: {
        jsonrpc: "2.0",
        id: 4,
        error: { code: -32022, message: 'Unsupported protocol version "v999"; this server speaks 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26', data: { supported: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"], requested: "v999" } },
      },
    });
    expect(codeOf(await raw(5, "tools/list", { _meta: META }, std))).toEqual({ status: 400, id: 5, code: -32020 });
    expect(codeOf(await raw(6, "tools/call", { _meta: META, name: "Echo", arguments: {} }, { ...std, "mcp-method": "tools/call", "mcp-name": "Gate" }))).toEqual({ status: 400, id: 6, code: -32020 });
    expect(codeOf(await raw(7, "tools/call", { _meta: META, name: "Echo", arguments: {} }, { ...std, "mcp-method": "tools/call" }))).toEqual({ status: 400, id: 7, code: -32020 });
    // Whitespace around a header value is not part of it (RFC 9110).
    expect((await raw(8, "tools/call", { _meta: META, name: "Echo", arguments: { text: "x" } }, { ...std, "mcp-method": "tools/call", "mcp-name": "  Echo " })).status).toBe(200);
    // A name may travel Base64-encoded; the bridge compares what it says, and refuses a broken encoding.
    expect((await raw(8, "tools/call", { _meta: META, name: "Echo", arguments: { text: "x" } }, { ...std, "mcp-method": "tools/call", "mcp-name": "=?base64?RWNobw==?=" })).status).toBe(200);
    expect(codeOf(await raw(8, "tools/call", { _meta: META, name: "Echo", arguments: {} }, { ...std, "mcp-method": "tools/call", "mcp-name": "=?base64?R2F0ZQ==?=" }))).toEqual({ status: 400, id: 8, code: -32020 });
    expect(codeOf(await raw(8, "tools/call", { _meta: META, name: "Echo", arguments: {} }, { ...std, "mcp-method": "tools/call", "mcp-name": "=?base64?RWNob?=" }))).toEqual({ status: 400, id: 8, code: -32020 });
    for (const removed of ["initialize", "ping", "logging/setLevel", "no/such"]) {
      expect(codeOf(await answer(await call(bridge.url, 9, removed)))).toEqual({ status: 404, id: 9, code: -32601 });
    }
    expect(codeOf(await answer(await call(bridge.url, 10, "tools/call", { name: "NoSuchTool", arguments: {} })))).toEqual({ status: 400, id: 10, code: -32602 });
    expect(bridge.sessionCount()).toBe(0);
  });

  test("a stateless request passes the same gates as a session's: no token 401, a foreign Host 403, nothing reaches the daemon", async () => {
    await using daemon = await startBridgeDaemon();
    await using bridge = httpBridgeOn(daemon.socketPath);
    const tokenless = await call(bridge.baseUrl, 1, "tools/call", { name: "Echo", arguments: { text: "x" } });
    expect(tokenless.status).toBe(401);
    const wrongToken = await call(bridge.url.replace(TOKEN, "x".repeat(TOKEN.length)), 2, "tools/list");
    expect(wrongToken.status).toBe(401);
    const rebound = await call(bridge.url, 3, "tools/list", {}, { host: "attacker.example" });
    expect(rebound.status).toBe(403);
    expect(daemon.daemon.connections.size).toBe(0);
  });

  test("subscriptions/listen: the acknowledgement first, then list changes tagged with the listen id; only what was asked for", async () => {
    await using daemon = await startBridgeDaemon();
    await using bridge = httpBridgeOn(daemon.socketPath);
    // The shared daemon link opens with the first stateless request.
    await call(bridge.url, 1, "tools/list").then(answer);
    const stop = new AbortController();
    const response = await call(bridge.url, 77, "subscriptions/listen", { notifications: { toolsListChanged: true, promptsListChanged: true } }, {}, stop.signal);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const frames: unknown[] = [];
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const reading = (async () => {
      let buffer = "";
      for (;;) {
        const chunk = await reader.read().catch(() => ({ done: true, value: "" }));
        if (chunk.done) return;
        buffer += chunk.value;
        const lines = buffer.split("\n");
        buffer = lines.pop() ?? "";
        for (const line of lines) if (line.startsWith("data: ")) frames.push(JSON.parse(line.slice(6)));
      }
    })();
    await waitUntil(() => frames.length === 1, "the acknowledgement");
    for (const connection of daemon.daemon.connections) connection.send({ jsonrpc: "2.0", method: Method.ToolsListChanged });
    await waitUntil(() => frames.length === 2, "list_changed on the stream");
    expect(frames).toEqual([
      { jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: { toolsListChanged: true }, _meta: { "io.modelcontextprotocol/subscriptionId": 77 } } },
      { jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { "io.modelcontextprotocol/subscriptionId": 77 } } },
    ]);
    stop.abort();
    await reading;
  });

  test("a 2025 SDK client (initialize, session) and a 2026 client use the same bridge at the same time", async () => {
    await using daemon = await startBridgeDaemon();
    await using bridge = httpBridgeOn(daemon.socketPath);
    const client = new Client({ name: "host-2025", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(bridge.url)));
    try {
      const [old, current] = await Promise.all([client.listTools(), call(bridge.url, 1, "tools/list").then(answer)]);
      expect(old.tools.map((tool) => tool.name)).toEqual((current.body.result as { tools: { name: string }[] }).tools.map((tool) => tool.name));
      expect(bridge.sessionCount()).toBe(1);
      expect(textOf(await client.callTool({ name: "Echo", arguments: { text: "hi" } }))).toContain("hi");
    } finally {
      await client.close();
    }
  });
});
