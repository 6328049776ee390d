// test-plan: one tier — the MCP pool in the daemon, no feature() on its path.
/** The MCP pool inside an in-process daemon, over the real socket: tools, calls, change notifications, servers, reload, stop. */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DaemonError } from "../../src/client/client.ts";
import { RawClient } from "../helpers/raw-client.ts";
import { startMcpDaemon } from "./mcp-daemon.ts";
import { FIXTURE_SERVER, groupMembers, waitFor } from "./helpers.ts";

// Real server processes: generous on a loaded machine; each test waits on conditions, not on time.
setDefaultTimeout(30_000);

const server = (env: Record<string, string> = {}) => ({ command: process.execPath, args: [FIXTURE_SERVER], env, timeoutMs: 10_000 });

const startDaemon = startMcpDaemon;

describe("the MCP pool in the daemon", () => {
  test("a server's tools appear in toolpool/tools and run through toolpool/call and tools/call", async () => {
    await using running = await startDaemon({ fx: server() });
    const { client } = running;
    await waitFor(async () => (await client.tools()).tools.some((tool) => tool.name === "mcp__fx__echo"), "the fixture's tools");
    const echo = (await client.tools()).tools.find((tool) => tool.name === "mcp__fx__echo");
    expect(echo).toMatchObject({ source: "mcp", server: "fx", deferred: true, readOnly: true, concurrencySafe: true, stale: false, changed: false });
    const called = await client.call({ name: "mcp__fx__echo", input: { text: "through the socket" } });
    expect(called).toMatchObject({ isError: false, content: [{ type: "text", text: "through the socket" }] });
    const invalid = await client.call({ name: "mcp__fx__echo", input: { text: 42 } });
    expect(invalid.isError).toBe(true);
    expect(JSON.stringify(invalid.content)).toContain("Invalid input for mcp__fx__echo");
    const viaMcp = await client.request("tools/call", { name: "mcp__fx__echo", arguments: { text: "mcp" } });
    expect(viaMcp.content).toEqual([{ type: "text", text: "mcp" }]);
    const status = await client.status();
    expect(status.mcpServers).toEqual({ total: 1, connected: 1 });
  });

  test("a 2026-07-28 client's subscriptions/listen gets list changes tagged with its id", async () => {
    await using running = await startDaemon({ fx: server() });
    await waitFor(() => running.daemon.core.mcp()?.server("fx")?.state === "connected", "connected");
    using listener = await RawClient.open(running.daemon.socketPath);
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    listener.send({ jsonrpc: "2.0", id: 9, method: "subscriptions/listen", params: { _meta: meta, notifications: { toolsListChanged: true } } });
    await listener.waitFor((message) => message.method === "notifications/subscriptions/acknowledged");
    await running.client.call({ name: "mcp__fx__add_tool", input: { name: "late_arrival" } });
    const changed = await listener.waitFor((message) => message.method === "notifications/tools/list_changed");
    expect(changed).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { "io.modelcontextprotocol/subscriptionId": 9 } } });
  });

  test("a tool list change re-assembles the pool and notifies every connection", async () => {
    await using running = await startDaemon({ fx: server() });
    const { client } = running;
    await waitFor(() => running.daemon.core.mcp()?.server("fx")?.state === "connected", "connected");
    const notified: string[] = [];
    client.onNotification((method) => notified.push(method));
    await client.call({ name: "mcp__fx__add_tool", input: { name: "late_arrival" } });
    await waitFor(() => notified.includes("notifications/tools/list_changed"), "the notification");
    await waitFor(() => running.daemon.core.pool().get("mcp__fx__late_arrival"), "the new tool in the pool");
    const found = await client.search({ query: "select:mcp__fx__late_arrival" });
    expect(JSON.stringify(found)).toContain("mcp__fx__late_arrival");
  });

  test("toolpool/servers lists, shows logs, restarts; unknown names are invalid params", async () => {
    await using running = await startDaemon({ fx: server(), broken: server({ FIXTURE_CRASH_ON_START: "1" }) });
    const { client } = running;
    await waitFor(async () => (await client.servers()).servers.find((entry) => entry.name === "broken")?.state === "parked", "broken to be parked");
    const { servers } = await client.servers();
    expect(servers.map((entry) => [entry.name, entry.state])).toEqual([
      ["fx", "connected"],
      ["broken", "parked"],
    ]);
    expect((await client.serverLogs("broken")).lines.join("\n")).toContain("refusing to start");
    const before = servers[0]!.pid!;
    const { server: restarted } = await client.restartServer("fx");
    expect(restarted).toMatchObject({ name: "fx", state: "connected", restarts: 1 });
    expect(restarted.pid).not.toBe(before);
    const refused = await client.restartServer("nope").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DaemonError);
    expect(refused).toMatchObject({ code: -32602, message: 'Invalid params: no MCP server named "nope" is configured' });
  });

  test("SIGHUP's reload applies the server diff; stop() leaves no server process behind", async () => {
    await using running = await startDaemon({ old: server() });
    const { daemon, configPath } = running;
    await waitFor(() => daemon.core.mcp()?.server("old")?.state === "connected", "connected");
    const oldPid = daemon.core.mcp()!.server("old")!.pid!;
    writeFileSync(configPath, JSON.stringify({ mcpServers: { fresh: server() } }));
    await daemon.reload();
    expect(groupMembers(oldPid)).toEqual([]);
    await waitFor(() => daemon.core.mcp()?.server("fresh")?.state === "connected", "the new server");
    expect(daemon.core.pool().get("mcp__old__echo")).toBeUndefined();
    expect(daemon.core.pool().get("mcp__fresh__echo")).toBeDefined();
    const freshPid = daemon.core.mcp()!.server("fresh")!.pid!;
    writeFileSync(configPath, JSON.stringify({ mcpServers: { bad: { command: "${UNSET_FOR_THIS_TEST}" } } }));
    await daemon.reload();
    expect(daemon.core.mcp()?.server("fresh")?.state).toBe("connected");
    await daemon.stop("test");
    expect(groupMembers(freshPid)).toEqual([]);
  });
});
