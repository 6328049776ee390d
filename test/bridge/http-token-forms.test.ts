/**
 * The HTTP bridge's token in every form current clients can send: the path, a bearer header, and
 * `/mcp?token=` for clients that rewrite a URL's path to `/mcp` and set no headers (Inspector 0.15).
 */
import { describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { requestCarriesToken } from "../../src/bridge/bridge-token.ts";
import { DaemonBridge } from "../../src/bridge/daemon-bridge.ts";
import { startHttpBridge } from "../../src/bridge/http-bridge.ts";
import { ToolpoolClient } from "../../src/client/client.ts";
import { startBridgeDaemon } from "./fixtures.ts";

const TOKEN = "query-token-0123456789abcdefghijklmnopqrstu";
const other = `${TOKEN.slice(0, -1)}x`;

describe("token forms", () => {
  test("requestCarriesToken: path, query and bearer each pass; every form present must match; nothing else is served", () => {
    const check = (url: string, authorization: string | null = null) => requestCarriesToken(new URL(url, "http://127.0.0.1:1"), authorization, TOKEN, "/mcp");
    expect({
      path: check(`/mcp/${TOKEN}`),
      query: check(`/mcp?token=${TOKEN}`),
      bearer: check("/mcp", `Bearer ${TOKEN}`),
      queryAndBearer: check(`/mcp?token=${TOKEN}`, `Bearer ${TOKEN}`),
      none: check("/mcp"),
      wrongQuery: check(`/mcp?token=${other}`),
      prefixQuery: check(`/mcp?token=${TOKEN.slice(0, 10)}`),
      emptyQuery: check("/mcp?token="),
      repeatedQuery: check(`/mcp?token=${TOKEN}&token=${TOKEN}`),
      rightQueryWrongBearer: check(`/mcp?token=${TOKEN}`, `Bearer ${other}`),
      rightPathWrongQuery: check(`/mcp/${TOKEN}?token=${other}`),
      notBearer: check(`/mcp?token=${TOKEN}`, `Basic ${TOKEN}`),
      otherPath: check(`/other?token=${TOKEN}`),
      subPath: check(`/mcp/x/${TOKEN}`),
    }).toEqual({
      path: true,
      query: true,
      bearer: true,
      queryAndBearer: true,
      none: false,
      wrongQuery: false,
      prefixQuery: false,
      emptyQuery: false,
      repeatedQuery: false,
      rightQueryWrongBearer: false,
      rightPathWrongQuery: false,
      notBearer: false,
      otherPath: false,
      subPath: false,
    });
  });

  test("an Inspector-0.15-style client (path /mcp, token in the query, no headers) runs a whole session; a wrong query token is 401", async () => {
    await using daemon = await startBridgeDaemon();
    const logged: string[] = [];
    await using bridge = startHttpBridge({
      token: TOKEN,
      address: { hostname: "127.0.0.1", port: 0 },
      createBridge: () => new DaemonBridge({ connect: () => ToolpoolClient.connect(daemon.socketPath) }),
      version: "test",
      log: (line) => logged.push(line),
    });
    const client = new Client({ name: "inspector-0.15", version: "0.15.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${bridge.baseUrl}?token=${TOKEN}`)));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("ToolSearch");
    expect(bridge.sessionCount()).toBe(1);
    await client.close();
    const refused = await fetch(`${bridge.baseUrl}?token=${other}`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } }),
    });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain("/mcp?token=<token>");
    // The token never reaches the bridge's log.
    expect(logged.filter((line) => line.includes(TOKEN))).toEqual([]);
  });
});
