/**
 * Stateless (2026-07-28) callers of one HTTP bridge are kept apart: each (credential, declared
 * clientInfo) has its own daemon link and session, so one caller's slow call never holds
 * another's (nor its own next call), discoveries and questions stay with the caller that made
 * them, listen streams are bounded per caller and in total, and the callers' links are bounded.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { callerKey } from "../../src/bridge/stateless-callers.ts";
import { startTestDaemon } from "../helpers/daemon-harness.ts";
import { echoTool } from "../helpers/test-tools.ts";
import { BRIDGE_TOKEN as TOKEN, httpBridgeOn, startBridgeDaemon, textOf, waitUntil } from "./fixtures.ts";

setDefaultTimeout(30_000);

const REVISION = "2026-07-28";
const FIXTURE_2026 = join(import.meta.dir, "..", "fixtures", "mcp", "revision-2026-server.ts");


function metaOf(client: string, capabilities: Record<string, unknown> = {}) {
  return { "io.modelcontextprotocol/protocolVersion": REVISION, "io.modelcontextprotocol/clientInfo": { name: client, version: "1" }, "io.modelcontextprotocol/clientCapabilities": capabilities };
}

let nextId = 1;
function post(url: string, client: string, method: string, params: Record<string, unknown> = {}, options: { capabilities?: Record<string, unknown>; signal?: AbortSignal } = {}) {
  const name: Record<string, string> = typeof params.name === "string" ? { "mcp-name": params.name } : {};
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": REVISION, "mcp-method": method, ...name },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: { _meta: metaOf(client, options.capabilities), ...params } }),
    ...(options.signal && { signal: options.signal }),
  });
}

async function json(response: Response): Promise<{ status: number; body: { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } } }> {
  return { status: response.status, body: (await response.json()) as never };
}

/** Opens a listen stream and resolves once its acknowledgement arrived; `stop` ends it. */
async function listen(url: string, client: string): Promise<{ status: number; stop: () => void; body?: unknown }> {
  const stop = new AbortController();
  const response = await post(url, client, "subscriptions/listen", { notifications: { toolsListChanged: true } }, { signal: stop.signal });
  if (response.headers.get("content-type") !== "text/event-stream") return { status: response.status, stop: () => {}, body: await response.json() };
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("acknowledged")) {
    const chunk = await reader.read();
    if (chunk.done) break;
    seen += chunk.value;
  }
  void (async () => {
    while (!(await reader.read().catch(() => ({ done: true }))).done);
  })();
  return { status: response.status, stop: () => stop.abort() };
}

describe("stateless callers of one HTTP bridge", () => {
  test("caller A's slow call holds neither caller B's calls nor A's own next call", async () => {
    await using daemon = await startBridgeDaemon();
    await using bridge = httpBridgeOn(daemon.socketPath);
    // Gate is not concurrency-safe: in one ordered session a second Gate waits for the first.
    const slowA = post(bridge.url, "caller-a", "tools/call", { name: "Gate", arguments: { label: "a" } }).then(json);
    await waitUntil(() => daemon.gate.running === 1, "A's Gate to run");
    const echoB = await json(await post(bridge.url, "caller-b", "tools/call", { name: "Echo", arguments: { text: "from b" } }));
    expect(textOf(echoB.body.result!)).toContain("from b");
    const slowB = post(bridge.url, "caller-b", "tools/call", { name: "Gate", arguments: { label: "b" } }).then(json);
    const againA = post(bridge.url, "caller-a", "tools/call", { name: "Gate", arguments: { label: "a2" } }).then(json);
    // All three Gates run at once, before any is released: nothing queued behind A's first.
    await waitUntil(() => daemon.gate.running === 3, "three Gates to run side by side");
    expect(bridge.callerCount()).toBe(2);
    daemon.gate.release.resolve();
    const texts = (await Promise.all([slowA, slowB, againA])).map((reply) => textOf(reply.body.result!));
    expect(texts).toEqual(["released a", "released b", "released a2"]);
  });

  test("a caller is its credential and declared clientInfo: the same triple is one key, any difference another", () => {
    const meta = (name: string, version: string) => ({ "io.modelcontextprotocol/clientInfo": { name, version } });
    expect(callerKey(TOKEN, meta("host", "1"))).toBe(callerKey(TOKEN, meta("host", "1")));
    const keys = new Set([callerKey(TOKEN, meta("host", "1")), callerKey(TOKEN, meta("host", "2")), callerKey(TOKEN, meta("hos", "t1")), callerKey(`${TOKEN}x`, meta("host", "1")), callerKey(TOKEN, {})]);
    expect(keys.size).toBe(5);
    // Neither the credential nor the name shows in the key.
    expect(callerKey(TOKEN, meta("host", "1"))).toMatch(/^[0-9a-f]{64}$/);
  });

  test("what one caller's search discovered is its own: another caller's blind call still gets the schema", async () => {
    await using daemon = await startBridgeDaemon();
    await using bridge = httpBridgeOn(daemon.socketPath);
    const wrong = { name: "ExecuteExtraTool", arguments: { tool_name: "TranslateText", params: { text: "hello", lang: "fr" } } };
    const found = await json(await post(bridge.url, "caller-a", "tools/call", { name: "ToolSearch", arguments: { query: "select:TranslateText" } }));
    expect(textOf(found.body.result!)).toContain("[toolpool discovered: TranslateText]");
    expect(textOf((await json(await post(bridge.url, "caller-a", "tools/call", wrong))).body.result!)).not.toContain("The input schema of");
    expect(textOf((await json(await post(bridge.url, "caller-b", "tools/call", wrong))).body.result!)).toContain("The input schema of TranslateText");
  });

  test("a question asked of caller A cannot be answered by caller B, even with A's requestState", async () => {
    await using daemon = await startTestDaemon({ builtins: [echoTool], config: { mcpServers: { moon: { command: process.execPath, args: [FIXTURE_2026], timeoutMs: 10_000 } } } });
    await waitUntil(() => daemon.daemon.core.mcp()?.server("moon")?.state === "connected", "the 2026 server to connect");
    await using bridge = httpBridgeOn(daemon.socketPath);
    const ask = { capabilities: { elicitation: {} } };
    const call = { name: "ExecuteExtraTool", arguments: { tool_name: "mcp__moon__delete_file", params: { path: "/srv/x" } } };
    for (const client of ["caller-a", "caller-b"]) await post(bridge.url, client, "tools/call", { name: "ToolSearch", arguments: { query: "select:mcp__moon__delete_file" } }, ask).then(json);
    const first = (await json(await post(bridge.url, "caller-a", "tools/call", call, ask))).body.result!;
    expect(first.resultType).toBe("input_required");
    const [key] = Object.keys(first.inputRequests as object) as [string];
    const answer = { requestState: first.requestState, inputResponses: { [key]: { action: "accept", content: { sure: true } } } };
    const stolen = await json(await post(bridge.url, "caller-b", "tools/call", { ...call, ...answer }, ask));
    expect(stolen.status).toBe(400);
    expect(stolen.body.error!.message).toContain("requestState names no call");
    // A caller whose call waits for its answers is never evicted for a new caller (the call would be cancelled).
    await using small = httpBridgeOn(daemon.socketPath, { maxCallers: 1, evictAfterIdleMs: 1 });
    await post(small.url, "caller-a", "tools/call", { name: "ToolSearch", arguments: { query: "select:mcp__moon__delete_file" } }, ask).then(json);
    const parked = (await json(await post(small.url, "caller-a", "tools/call", call, ask))).body.result!;
    expect(parked.resultType).toBe("input_required");
    const newcomer = await json(await post(small.url, "caller-c", "tools/list"));
    expect({ status: newcomer.status, message: newcomer.body.error?.message }).toEqual({ status: 503, message: "Too many stateless MCP callers (limit 1, each with a request, a listen stream or a question open); retry shortly" });
    const [parkedKey] = Object.keys(parked.inputRequests as object) as [string];
    const finished = (await json(await post(small.url, "caller-a", "tools/call", { ...call, requestState: parked.requestState, inputResponses: { [parkedKey]: { action: "accept", content: { sure: true } } } }, ask))).body.result!;
    expect(finished.resultType).toBe("complete");
    expect((await json(await post(small.url, "caller-c", "tools/list"))).status).toBe(200);
    // A's call still waits for A, and A's answer completes it.
    const own = (await json(await post(bridge.url, "caller-a", "tools/call", { ...call, ...answer }, ask))).body.result!;
    expect(own).toMatchObject({ resultType: "complete", isError: false, content: [{ type: "text", text: "deleted /srv/x" }] });
  });

  test("a flood of listen streams by one caller is refused past its share (429), leaving room for another; the total is bounded too (503)", async () => {
    await using daemon = await startBridgeDaemon();
    await using bridge = httpBridgeOn(daemon.socketPath, { maxListeners: 3, maxListenersPerCaller: 2 });
    const a1 = await listen(bridge.url, "caller-a");
    const a2 = await listen(bridge.url, "caller-a");
    const a3 = await listen(bridge.url, "caller-a");
    expect([a1.status, a2.status]).toEqual([200, 200]);
    expect(a3.status).toBe(429);
    expect(a3.body).toMatchObject({
      error: { code: -32000, message: "Too many subscriptions/listen streams for this caller: it has 2 open (the limit per caller is 2, so other callers keep room); close one first", data: { limit: 2, open: 2, scope: "caller" } },
    });
    const b1 = await listen(bridge.url, "caller-b");
    expect(b1.status).toBe(200);
    const c1 = await listen(bridge.url, "caller-c");
    expect(c1.status).toBe(503);
    expect(c1.body).toMatchObject({ error: { code: -32000, data: { limit: 3, open: 3, scope: "bridge" } } });
    expect((c1.body as { error: { message: string } }).error.message).toContain("the limit for all callers together is 3");
    // A closed stream gives its place back.
    a1.stop();
    await waitUntil(async () => {
      const again = await listen(bridge.url, "caller-c");
      if (again.status === 200) again.stop();
      return again.status === 200;
    }, "a freed listen place");
    a2.stop();
    b1.stop();
  });

  test("callers' links are bounded: an idle one is evicted for a new caller; when every caller is busy, a new one gets 503", async () => {
    await using daemon = await startBridgeDaemon();
    await using bridge = httpBridgeOn(daemon.socketPath, { maxCallers: 2, evictAfterIdleMs: 1 });
    const tools = (client: string) => post(bridge.url, client, "tools/list").then(json);
    expect((await tools("caller-a")).status).toBe(200);
    expect((await tools("caller-b")).status).toBe(200);
    expect(bridge.callerCount()).toBe(2);
    expect((await tools("caller-c")).status).toBe(200);
    expect(bridge.callerCount()).toBe(2);
    // Both callers busy (a listen stream each): a third is refused, clearly.
    const b = await listen(bridge.url, "caller-b");
    const c = await listen(bridge.url, "caller-c");
    const refused = await tools("caller-d");
    expect(refused.status).toBe(503);
    expect(refused.body.error!.message).toBe("Too many stateless MCP callers (limit 2, each with a request, a listen stream or a question open); retry shortly");
    b.stop();
    c.stop();
    await waitUntil(async () => (await tools("caller-d")).status === 200, "room for a new caller once a stream closed");
  });
});
