import { describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { BRIDGE_TOKEN as TOKEN, httpBridgeOn, startBridgeDaemon, textOf, waitUntil } from "./fixtures.ts";


const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};


function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
}

describe("toolpool mcp --http (Streamable HTTP on loopback)", () => {
  test("an SDK client lists, searches, runs a deferred tool and gets progress; sessions are separate", async () => {
    await using daemon = await startBridgeDaemon();
    await using bridge = httpBridgeOn(daemon.socketPath);
    expect(bridge.url).toBe(`http://127.0.0.1:${bridge.port}/mcp/${TOKEN}`);
    const client = new Client({ name: "http-host", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(bridge.url)));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["Echo", "Gate", "Progress", "ToolSearch", "ExecuteExtraTool"]);
    await client.callTool({ name: "ToolSearch", arguments: { query: "select:TranslateText" } });
    const ran = await client.callTool({ name: "ExecuteExtraTool", arguments: { tool_name: "TranslateText", params: { text: "hi", target: "de" } } });
    expect(textOf(ran)).toBe("[de] hi");
    const updates: number[] = [];
    await client.callTool({ name: "Progress", arguments: {} }, undefined, { onprogress: (update) => updates.push(update.progress) });
    expect(updates).toEqual([1, 2, 3]);
    expect(bridge.sessionCount()).toBe(1);

    const second = new Client({ name: "http-host-2", version: "1" });
    await second.connect(new StreamableHTTPClientTransport(new URL(bridge.url)));
    const refused = await second.callTool({ name: "ExecuteExtraTool", arguments: { tool_name: "TranslateText", params: { text: "hi" } } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("The input schema of TranslateText");
    expect(bridge.sessionCount()).toBe(2);
    await second.close();
    await client.close();
  });

  test("DNS-rebinding guard: a foreign Host or Origin is refused with 403; loopback names pass", async () => {
    await using daemon = await startBridgeDaemon();
    await using bridge = httpBridgeOn(daemon.socketPath);
    const evilHost = await post(bridge.url, INITIALIZE, { host: "evil.example.com", origin: "http://evil.example.com" });
    expect(evilHost.status).toBe(403);
    expect(await evilHost.json()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32000, message: 'Forbidden: Host "evil.example.com" is not a loopback host' } });
    const evilOrigin = await post(bridge.url, INITIALIZE, { origin: "http://evil.example.com" });
    expect(evilOrigin.status).toBe(403);
    const nullOrigin = await post(bridge.url, INITIALIZE, { origin: "null" });
    expect(nullOrigin.status).toBe(403);
    for (const host of [`localhost:${bridge.port}`, `127.0.0.1:${bridge.port}`, `[::1]:${bridge.port}`]) {
      const accepted = await post(bridge.url, INITIALIZE, { host, origin: `http://${host}` });
      expect({ host, status: accepted.status }).toEqual({ host, status: 200 });
      await accepted.body?.cancel();
    }
    expect(bridge.sessionCount()).toBe(3);
  });

  test("the token is required: in the path or as a bearer token; a missing, wrong or partial one is 401", async () => {
    await using daemon = await startBridgeDaemon();
    await using bridge = httpBridgeOn(daemon.socketPath);
    const base = bridge.baseUrl;
    expect(base).toBe(`http://127.0.0.1:${bridge.port}/mcp`);
    for (const [url, headers] of [
      [base, {}],
      [`${base}/${TOKEN.slice(0, -1)}`, {}],
      [`${base}/${TOKEN}x`, {}],
      [`${base}/`, {}],
      [base, { authorization: `Bearer ${TOKEN.slice(1)}` }],
      [base, { authorization: TOKEN }],
      [`http://127.0.0.1:${bridge.port}/other/${TOKEN}`, {}],
    ] as [string, Record<string, string>][]) {
      const refused = await post(url, INITIALIZE, headers);
      expect([url, headers, refused.status]).toEqual([url, headers, 401]);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toContain("Unauthorized: this bridge needs its token");
    }
    const byHeader = await post(base, INITIALIZE, { authorization: `Bearer ${TOKEN}` });
    expect(byHeader.status).toBe(200);
    await byHeader.body?.cancel();
    const byPath = await post(bridge.url, INITIALIZE);
    expect(byPath.status).toBe(200);
    await byPath.body?.cancel();
    // The loopback guard still comes first: a foreign Origin with the right token is 403.
    expect((await post(bridge.url, INITIALIZE, { origin: "http://evil.example.com" })).status).toBe(403);
  });

  test("wrong path 401, unknown session 404, no session 400, not JSON 400, over the session cap 503", async () => {
    await using daemon = await startBridgeDaemon();
    await using bridge = httpBridgeOn(daemon.socketPath, { maxSessions: 1 });
    expect((await post(bridge.url.replace("/mcp", "/other"), INITIALIZE)).status).toBe(401);
    const unknown = await post(bridge.url, { jsonrpc: "2.0", id: 2, method: "tools/list" }, { "mcp-session-id": "nope" });
    expect(unknown.status).toBe(404);
    expect((await post(bridge.url, { jsonrpc: "2.0", id: 2, method: "tools/list" })).status).toBe(400);
    expect((await fetch(bridge.url)).status).toBe(400);
    const notJson = await fetch(bridge.url, { method: "POST", headers: { "content-type": "application/json" }, body: "{oops" });
    expect({ status: notJson.status, body: await notJson.json() }).toEqual({
      status: 400,
      body: { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the body is not JSON" } },
    });
    const first = await post(bridge.url, INITIALIZE);
    expect(first.status).toBe(200);
    const sessionId = first.headers.get("mcp-session-id")!;
    await first.body?.cancel();
    // The one session has a tool call in flight: it is active, never evicted.
    const session = { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" };
    (await post(bridge.url, { jsonrpc: "2.0", method: "notifications/initialized" }, session)).body?.cancel();
    const busy = post(bridge.url, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "Gate", arguments: {} } }, session);
    await waitUntil(() => daemon.gate.running === 1, "the gated call to start");
    const over = await post(bridge.url, INITIALIZE);
    expect({ status: over.status, body: await over.json() }).toEqual({
      status: 503,
      body: { jsonrpc: "2.0", id: null, error: { code: -32000, message: "Too many MCP sessions (limit 1, all busy); retry shortly" } },
    });
    expect({ sessions: bridge.sessionCount(), evictions: bridge.evictions() }).toEqual({ sessions: 1, evictions: 0 });
    daemon.gate.release.resolve();
    expect(await (await busy).text()).toContain("released");
  });

  test("DELETE ends a session and closes its daemon connection", async () => {
    await using daemon = await startBridgeDaemon();
    await using bridge = httpBridgeOn(daemon.socketPath);
    const client = new Client({ name: "closer", version: "1" });
    const transport = new StreamableHTTPClientTransport(new URL(bridge.url));
    await client.connect(transport);
    await client.listTools();
    expect(daemon.daemon.connections.size).toBe(1);
    await transport.terminateSession();
    expect(bridge.sessionCount()).toBe(0);
    await waitUntil(() => daemon.daemon.connections.size === 0, "the daemon connection to close");
    await client.close();
  });
});
