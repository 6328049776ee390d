import { describe, expect, test } from "bun:test";
import { startTestDaemon } from "../helpers/daemon-harness.ts";
import { RawClient } from "../helpers/raw-client.ts";
import { echoTool } from "../helpers/test-tools.ts";
import { waitUntil } from "../bridge/fixtures.ts";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
const SERVER_META = { "io.modelcontextprotocol/serverInfo": { name: "toolpool", version: expect.any(String) } };

describe("the socket's MCP face at 2026-07-28 (no initialize), beside 2025 clients", () => {
  test("server/discover, tools/list and tools/call carry the revision's fields; a 2025 request on the same socket does not", async () => {
    await using harness = await startTestDaemon({ builtins: [echoTool] });
    using client = await RawClient.open(harness.socketPath);
    const discovered = (await client.request("server/discover", { _meta: META })).result as Record<string, unknown>;
    expect(discovered).toEqual({
      supportedVersions: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"],
      capabilities: { tools: { listChanged: true } },
      instructions: expect.any(String),
      ttlMs: 60_000,
      cacheScope: "private",
      resultType: "complete",
      _meta: SERVER_META,
    });
    const listed = (await client.request("tools/list", { _meta: META })).result as Record<string, unknown>;
    expect({ ...listed, tools: (listed.tools as { name: string }[]).map((tool) => tool.name) } as Record<string, unknown>).toEqual({ tools: ["Echo"], ttlMs: 60_000, cacheScope: "private", resultType: "complete", _meta: SERVER_META });
    const called = await client.request("tools/call", { name: "Echo", arguments: { text: "hi" }, _meta: META });
    expect(called.result).toEqual({ content: [{ type: "text", text: "hi" }], isError: false, resultType: "complete", _meta: SERVER_META });
    // The same socket, a 2025-style request: the shapes it has always had.
    expect((await client.request("tools/call", { name: "Echo", arguments: { text: "hi" } })).result).toEqual({ content: [{ type: "text", text: "hi" }], isError: false });
  });

  test("a revision the daemon does not speak is refused with the versions it does", async () => {
    await using harness = await startTestDaemon({ builtins: [echoTool] });
    using client = await RawClient.open(harness.socketPath);
    const refused = await client.request("tools/list", { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } });
    expect(refused.error).toEqual({
      code: -32022,
      message: 'Unsupported protocol version "2099-01-01"; this server speaks 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26',
      data: { supported: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"], requested: "2099-01-01" },
    });
  });

  test("subscriptions/listen: acknowledged with only what it can send; cancelling it ends it (tagged changes: test/mcp/daemon-wiring.test.ts)", async () => {
    await using harness = await startTestDaemon({ builtins: [echoTool] });
    using client = await RawClient.open(harness.socketPath);
    client.send({ jsonrpc: "2.0", id: "listen-1", method: "subscriptions/listen", params: { _meta: META, notifications: { toolsListChanged: true, promptsListChanged: true } } });
    const ack = await client.waitFor((message) => message.method === "notifications/subscriptions/acknowledged");
    expect(ack.params).toEqual({ notifications: { toolsListChanged: true }, _meta: { "io.modelcontextprotocol/subscriptionId": "listen-1" } });
    for (const connection of harness.daemon.connections) expect([...connection.listens]).toEqual(["listen-1"]);
    client.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "listen-1" } });
    // A cancelled request is not answered (MCP); the subscription is gone and the connection serves on.
    await waitUntil(() => [...harness.daemon.connections].every((connection) => connection.listens.size === 0), "the subscription to end");
    expect((await client.request("ping")).result).toEqual({});
  });
});
