import { describe, expect, test } from "bun:test";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { revisionHeaders } from "../../src/mcp/revision-headers.ts";
import { MIN_TTL_RELIST_MS, probeRevision, statelessConnection } from "../../src/mcp/stateless-connection.ts";

type Handler = (message: Record<string, unknown>) => Record<string, unknown> | undefined;

/** A scripted server on the other end of an in-memory pair: answers each request with `handler`. */
async function scripted(handler: Handler) {
  const [client, server] = InMemoryTransport.createLinkedPair();
  server.onmessage = (message) => {
    const reply = handler(message as unknown as Record<string, unknown>);
    if (reply) void server.send(reply as unknown as JSONRPCMessage);
  };
  await server.start();
  return client;
}

const OPTIONS = { timeoutMs: 2_000, signal: new AbortController().signal, clientInfo: { name: "toolpool", version: "test" } };

describe("probing a server's revision", () => {
  test("a server that does not know server/discover is handed over for initialize, on the same transport", async () => {
    const seen: string[] = [];
    const transport = await scripted((message) => {
      seen.push(String(message.method));
      return { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } };
    });
    const probe = await probeRevision(transport, OPTIONS);
    expect(probe.kind).toBe("legacy");
    expect(seen).toEqual(["server/discover"]);
  });

  test("a server listing 2026-07-28 is spoken to statelessly; one listing only 2025 revisions is not", async () => {
    const discover = (versions: string[]) => (message: Record<string, unknown>) => ({ jsonrpc: "2.0", id: message.id, result: { supportedVersions: versions, capabilities: {}, resultType: "complete", ttlMs: 0, cacheScope: "public" } });
    expect((await probeRevision(await scripted(discover(["2026-07-28"])), OPTIONS)).kind).toBe("stateless");
    expect((await probeRevision(await scripted(discover(["2025-11-25"])), OPTIONS)).kind).toBe("legacy");
  });

  test("without subscriptions, the listing's ttlMs (floored) says when to list again; with them, no timer", async () => {
    const timers: { ms: number; fire: () => void }[] = [];
    const fakeTimers = {
      setTimeout: ((fire: () => void, ms: number) => {
        timers.push({ ms, fire });
        return timers.length as unknown as ReturnType<typeof setTimeout>;
      }) as unknown as typeof setTimeout,
      clearTimeout: (() => {}) as unknown as typeof clearTimeout,
    };
    const server = (ttlMs: number, listChanged: boolean) =>
      scripted((message) => {
        if (message.method === "server/discover") return { jsonrpc: "2.0", id: message.id, result: { supportedVersions: ["2026-07-28"], capabilities: { tools: listChanged ? { listChanged: true } : {} }, resultType: "complete", ttlMs: 0, cacheScope: "public" } };
        if (message.method === "tools/list") return { jsonrpc: "2.0", id: message.id, result: { tools: [{ name: "t", inputSchema: { type: "object" } }], ttlMs, cacheScope: "private", resultType: "complete" } };
        return undefined;
      });
    for (const [ttl, listChanged, expected] of [[5_000, false, [MIN_TTL_RELIST_MS]], [90_000, false, [90_000]], [90_000, true, []]] as const) {
      timers.length = 0;
      const transport = await server(ttl, listChanged);
      const probe = await probeRevision(transport, OPTIONS);
      if (probe.kind !== "stateless") throw new Error("expected stateless");
      const connection = statelessConnection({ client: probe.client, discovered: probe.discovered, pid: () => undefined, onTransportLost: () => {}, close: () => transport.close(), timers: fakeTimers });
      let changes = 0;
      connection.onToolsChanged(() => changes++);
      const listing = await connection.listTools(2_000);
      expect({ names: listing.tools.map((tool) => tool.name), ttlMs: listing.ttlMs, cacheScope: listing.cacheScope }).toEqual({ names: ["t"], ttlMs: ttl, cacheScope: "private" });
      expect(timers.map((timer) => timer.ms)).toEqual([...expected]);
      timers[0]?.fire();
      expect(changes).toBe(expected.length);
      await connection.close();
    }
  });

  test("an input_required result whose caller answers nothing is a clear tool error, not an answer made up by the daemon", async () => {
    const transport = await scripted((message) => {
      if (message.method === "server/discover") return { jsonrpc: "2.0", id: message.id, result: { supportedVersions: ["2026-07-28"], capabilities: {}, resultType: "complete", ttlMs: 0, cacheScope: "public" } };
      return { jsonrpc: "2.0", id: message.id, result: { resultType: "input_required", inputRequests: { q: { method: "elicitation/create", params: {} } } } };
    });
    const probe = await probeRevision(transport, OPTIONS);
    if (probe.kind !== "stateless") throw new Error("expected stateless");
    const connection = statelessConnection({ client: probe.client, discovered: probe.discovered, pid: () => undefined, onTransportLost: () => {}, close: () => transport.close() });
    const result = await connection.callTool("ask", {}, { signal: new AbortController().signal, timeoutMs: 2_000 });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: "text", text: "The call to ask was not completed: the server asked elicitation/create, but the client that made this call did not declare the elicitation capability, so nobody could answer it." }]);
    await connection.close();
  });
});

describe("the 2026-07-28 HTTP headers the pool's requests carry", () => {
  test("derived from the body for requests naming the revision; 2025 bodies and unsafe names untouched", () => {
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    expect(revisionHeaders(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "a.b", _meta: meta } }))).toEqual({ "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "a.b" });
    expect(revisionHeaders(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta } }))).toEqual({ "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" });
    expect(revisionHeaders(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x\r\ny", _meta: meta } }))).toEqual({ "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call" });
    expect(revisionHeaders(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }))).toBeUndefined();
    expect(revisionHeaders("not json")).toBeUndefined();
  });
});
