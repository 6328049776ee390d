import { describe, expect, test } from "bun:test";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { Method } from "../../src/protocol/method-names.ts";
import { ToolpoolClient } from "../../src/client/client.ts";
import { linkHost, startBridgeDaemon, textOf, waitUntil } from "./fixtures.ts";

describe("toolpool mcp bridge (SDK client in memory, daemon on a socket)", () => {
  test("the host sees the proxy view: core tools, ToolSearch, ExecuteExtraTool — with hints and schemas", async () => {
    await using daemon = await startBridgeDaemon();
    await using host = await linkHost(daemon.socketPath);
    const { tools } = await host.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["Echo", "Gate", "Progress", "ToolSearch", "ExecuteExtraTool"]);
    expect(tools[0]).toEqual({
      name: "Echo",
      description: "Returns its text.",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"], additionalProperties: false },
      annotations: { readOnlyHint: true, destructiveHint: false },
    });
    expect(tools[3]?.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
    expect(tools[4]?.annotations).toBeUndefined();
    expect(host.client.getInstructions()).toContain("TranslateText");
    // The daemon knows the host by the name it gave at initialize.
    const session = daemon.daemon.sessions.get(host.bridge.sessionId!);
    expect(session?.settings).toMatchObject({ delivery: "proxy", clientName: "test-host" });
  });

  test("the bridge relays the daemon's own MCP view: its tools/list equals the socket's for the same session", async () => {
    await using daemon = await startBridgeDaemon();
    await using host = await linkHost(daemon.socketPath);
    const viaBridge = await host.client.listTools();
    const raw = await ToolpoolClient.connect(daemon.socketPath);
    try {
      await raw.session({ sessionId: host.bridge.sessionId! });
      const viaSocket = await raw.request("tools/list");
      expect(viaBridge.tools.length).toBe(5);
      expect(viaBridge.tools).toEqual(viaSocket.tools as typeof viaBridge.tools);
    } finally {
      raw.close();
    }
  });

  test("a session remembers what its own searches found: a blind call gets the schema until ToolSearch shows it", async () => {
    await using daemon = await startBridgeDaemon();
    await using host = await linkHost(daemon.socketPath);
    const run = { name: "ExecuteExtraTool", arguments: { tool_name: "TranslateText", params: { text: "hello", target: "fr" } } };
    const wrong = { name: "ExecuteExtraTool", arguments: { tool_name: "TranslateText", params: { text: "hello", lang: "fr" } } };
    const early = await host.client.callTool(wrong);
    expect(early.isError).toBe(true);
    expect(textOf(early)).toContain("The input schema of TranslateText");

    const found = await host.client.callTool({ name: "ToolSearch", arguments: { query: "translate text into another language" } });
    expect(found.isError).toBe(false);
    expect(textOf(found)).toContain("TranslateText");
    expect(textOf(found)).toContain('"target"');
    expect(textOf(found)).toContain("[toolpool discovered: TranslateText]");

    expect(textOf(await host.client.callTool(wrong))).not.toContain("The input schema of");
    const ran = await host.client.callTool(run);
    expect(ran).toEqual({ content: [{ type: "text", text: "[fr] hello" }], isError: false });
    // Another host has its own session and its own discoveries.
    await using other = await linkHost(daemon.socketPath);
    expect(textOf(await other.client.callTool(wrong))).toContain("The input schema of TranslateText");
  });

  test("progress reaches the host with the host's token; a core tool runs directly", async () => {
    await using daemon = await startBridgeDaemon();
    await using host = await linkHost(daemon.socketPath);
    const updates: unknown[] = [];
    const result = await host.client.callTool({ name: "Progress", arguments: {} }, undefined, { onprogress: (update) => updates.push(update) });
    expect(result).toEqual({ content: [{ type: "text", text: "done" }], isError: false });
    expect(updates).toEqual([
      { progress: 1, total: 3, message: "step 1" },
      { progress: 2, total: 3, message: "step 2" },
      { progress: 3, total: 3, message: "step 3" },
    ]);
    expect(await host.client.callTool({ name: "Echo", arguments: { text: "hi" } })).toEqual({ content: [{ type: "text", text: "hi" }], isError: false });
  });

  test("cancelling a call in the host stops the tool in the daemon", async () => {
    await using daemon = await startBridgeDaemon();
    await using host = await linkHost(daemon.socketPath);
    const controller = new AbortController();
    const call = host.client.callTool({ name: "Gate", arguments: {} }, undefined, { signal: controller.signal });
    await waitUntil(() => daemon.gate.running === 1, "the gate tool to start");
    controller.abort("user pressed stop");
    await expect(call).rejects.toThrow();
    await waitUntil(() => daemon.gate.running === 0 && daemon.daemon.core.stats.callsInFlight === 0, "the daemon to stop the call");
  });

  test("an unknown tool is a protocol error (-32602), as MCP specifies; a tool failure is a result", async () => {
    await using daemon = await startBridgeDaemon();
    await using host = await linkHost(daemon.socketPath);
    await expect(host.client.callTool({ name: "NoSuchTool", arguments: {} })).rejects.toMatchObject({ code: -32602, message: "MCP error -32602: Unknown tool: NoSuchTool" });
    const invalid = await host.client.callTool({ name: "Echo", arguments: { text: 5 } });
    expect(invalid.isError).toBe(true);
  });

  test("the daemon's tools/list_changed reaches the host", async () => {
    await using daemon = await startBridgeDaemon();
    await using host = await linkHost(daemon.socketPath);
    let changes = 0;
    host.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes++;
    });
    await host.client.listTools();
    for (const connection of daemon.daemon.connections) connection.send({ jsonrpc: "2.0", method: Method.ToolsListChanged });
    await waitUntil(() => changes === 1, "list_changed at the host");
  });
});
