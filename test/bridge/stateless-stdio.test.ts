import { expect, test } from "bun:test";
import { DaemonBridge } from "../../src/bridge/daemon-bridge.ts";
import { runStdioBridge } from "../../src/bridge/stdio-bridge.ts";
import { ToolpoolClient } from "../../src/client/client.ts";
import { Method } from "../../src/protocol/method-names.ts";
import { startBridgeDaemon, stdioPeer, waitUntil } from "./fixtures.ts";

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

test("stdio: a 2026-07-28 peer without initialize: discover, list, a listen subscription tagged with its id, cancelled by id", async () => {
  await using daemon = await startBridgeDaemon();
  await using peer = stdioPeer((stdin, stdout) => runStdioBridge({ bridge: new DaemonBridge({ connect: () => ToolpoolClient.connect(daemon.socketPath) }), version: "test", log: () => {}, stdin, stdout }));
  const { lines, send, answerTo } = peer;

  send({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: META } });
  expect(((await answerTo(1)).result as { supportedVersions: string[] }).supportedVersions[0]).toBe("2026-07-28");
  send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: META } });
  expect((await answerTo(2)).result).toMatchObject({ resultType: "complete", ttlMs: 60_000, cacheScope: "private" });
  send({ jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "1999-01-01" } } });
  expect(((await answerTo(3)).error as { code: number }).code).toBe(-32022);
  send({ jsonrpc: "2.0", id: 4, method: "subscriptions/listen", params: { _meta: META, notifications: { toolsListChanged: true } } });
  await waitUntil(() => lines.some((line) => line.method === "notifications/subscriptions/acknowledged"), "the acknowledgement");
  for (const connection of daemon.daemon.connections) connection.send({ jsonrpc: "2.0", method: Method.ToolsListChanged });
  await waitUntil(() => lines.some((line) => line.method === "notifications/tools/list_changed"), "the change");
  expect(lines.filter((line) => line.method === "notifications/tools/list_changed")).toEqual([
    { jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { "io.modelcontextprotocol/subscriptionId": 4 } } },
  ]);
  send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 4 } });
  send({ jsonrpc: "2.0", id: 5, method: "tools/list", params: { _meta: META } });
  await answerTo(5);
  for (const connection of daemon.daemon.connections) connection.send({ jsonrpc: "2.0", method: Method.ToolsListChanged });
  send({ jsonrpc: "2.0", id: 6, method: "server/discover", params: { _meta: META } });
  await answerTo(6);
  expect(lines.filter((line) => line.method === "notifications/tools/list_changed")).toHaveLength(1);
});

test("stdio: a 2026-07-28 host's calls run side by side on a daemon link of their own (one slow call never holds the next)", async () => {
  await using daemon = await startBridgeDaemon();
  const link = (session?: { concurrentCalls: boolean }) => new DaemonBridge({ connect: () => ToolpoolClient.connect(daemon.socketPath), ...(session && { session }) });
  await using peer = stdioPeer((stdin, stdout) => runStdioBridge({ bridge: link(), createStatelessBridge: () => link({ concurrentCalls: true }), version: "test", log: () => {}, stdin, stdout }));
  const { lines, send } = peer;
  // Gate is not concurrency-safe: in an ordered session the second would wait for the first.
  send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { _meta: META, name: "Gate", arguments: { label: "one" } } });
  send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { _meta: META, name: "Gate", arguments: { label: "two" } } });
  await waitUntil(() => daemon.gate.running === 2, "both Gates to run at once");
  daemon.gate.release.resolve();
  await waitUntil(() => lines.filter((line) => line.id === 1 || line.id === 2).length === 2, "both answers");
});

test("hostile: stdio listen requests reusing one id open one subscription, not one each past the limit; the repeats are refused", async () => {
  await using daemon = await startBridgeDaemon();
  await using peer = stdioPeer((stdin, stdout) => runStdioBridge({ bridge: new DaemonBridge({ connect: () => ToolpoolClient.connect(daemon.socketPath) }), version: "test", log: () => {}, stdin, stdout }));
  const { lines, send } = peer;
  for (let round = 0; round < 40; round++) send({ jsonrpc: "2.0", id: 9, method: "subscriptions/listen", params: { _meta: META, notifications: { toolsListChanged: true } } });
  await waitUntil(() => lines.filter((line) => line.id === 9 || line.method === "notifications/subscriptions/acknowledged").length === 40, "every listen answered");
  for (const connection of daemon.daemon.connections) connection.send({ jsonrpc: "2.0", method: Method.ToolsListChanged });
  await waitUntil(() => lines.some((line) => line.method === "notifications/tools/list_changed"), "the change");
  send({ jsonrpc: "2.0", id: 10, method: "server/discover", params: { _meta: META } });
  await waitUntil(() => lines.some((line) => line.id === 10), "a later answer");
  const refusals = lines.filter((line) => line.id === 9 && line.error !== undefined).map((line) => (line.error as { message: string }).message);
  expect({
    acknowledged: lines.filter((line) => line.method === "notifications/subscriptions/acknowledged").length,
    changes: lines.filter((line) => line.method === "notifications/tools/list_changed").length,
    refused: refusals.length,
    message: refusals[0],
  }).toEqual({ acknowledged: 1, changes: 1, refused: 39, message: "Invalid request: a request with id 9 is already open on this pipe (a subscriptions/listen or a call); use a new id" });
});
