import { describe, expect, test } from "bun:test";
import { RawClient } from "../helpers/raw-client.ts";
import { startTestDaemon } from "../helpers/daemon-harness.ts";
import { echoTool, gateTool, progressTool } from "../helpers/test-tools.ts";
import { MAX_IN_FLIGHT_PER_CONNECTION, MAX_LINE_BYTES } from "../../src/protocol/limits.ts";

describe("wire protocol over the socket", () => {
  test("initialize, tools/list, tools/call and status from a raw client", async () => {
    await using harness = await startTestDaemon({ builtins: [echoTool] });
    using client = await RawClient.open(harness.socketPath);
    const init = await client.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    });
    expect(init.result).toMatchObject({ protocolVersion: "2025-06-18", capabilities: { tools: { listChanged: true } }, serverInfo: { name: "toolpool" } });
    client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const list = (await client.request("tools/list")).result as { tools: { name: string; inputSchema: unknown }[] };
    expect(list.tools.map((tool) => tool.name)).toEqual(["Echo"]);
    expect(list.tools[0]?.inputSchema).toMatchObject({ type: "object", required: ["text"] });
    const call = await client.request("tools/call", { name: "Echo", arguments: { text: "hi" } });
    expect(call.result).toEqual({ content: [{ type: "text", text: "hi" }], isError: false });
    const status = (await client.request("toolpool/status")).result as Record<string, unknown>;
    expect(status).toMatchObject({ tools: { total: 1, builtin: 1, mcp: 0 }, calls: { total: 1 } });
    // Hostile cursors: only the decimal offsets the daemon hands out are read, and a refusal quotes at most the cursor's opening.
    const refusals = [];
    for (const cursor of ["1e3", "0x1", " 1", "-1", "x".repeat(100_000), "0", "01", "1", "999999"]) refusals.push((await client.request("tools/list", { cursor })).error as { code: number; message: string });
    expect(refusals.map((error) => error.code)).toEqual(Array(9).fill(-32602));
    expect(refusals[4]!.message).toBe(`Invalid params: unknown cursor ${JSON.stringify("x".repeat(64))}… (100000 characters): pass a nextCursor this list answered, or none for the first page`);
    // "0" and "01" were never handed out (the first page has no cursor); past the one tool, "1" is past the end, as "999999" is (it answered an empty page).
    expect(refusals.slice(5).map((error) => error.message)).toEqual([
      'Invalid params: unknown cursor "0": pass a nextCursor this list answered, or none for the first page',
      'Invalid params: unknown cursor "01": pass a nextCursor this list answered, or none for the first page',
      'Invalid params: cursor "1" is past the end of the list (1 item(s) now); list again without a cursor',
      'Invalid params: cursor "999999" is past the end of the list (1 item(s) now); list again without a cursor',
    ]);
    expect(((await client.request("tools/list")).result as { tools: unknown[] }).tools).toHaveLength(1);
  });

  test("each kind of bad input gets its own error and the connection stays usable", async () => {
    await using harness = await startTestDaemon({ builtins: [echoTool] });
    using client = await RawClient.open(harness.socketPath);
    client.sendLine("this is not json");
    expect(await client.waitFor((m) => m.id === null)).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: "Parse error: the line is not valid JSON" },
    });
    client.messages.length = 0;
    client.sendLine('[{"jsonrpc":"2.0","id":1,"method":"ping"}]');
    expect((await client.waitFor((m) => m.id === null)).error).toMatchObject({ code: -32600 });
    client.messages.length = 0;
    client.sendLine('{"id":7,"method":"ping"}');
    expect((await client.waitFor((m) => m.id === 7)).error).toMatchObject({ code: -32600 });
    client.sendLine('"just a string"');
    expect((await client.waitFor((m) => m.id === null)).error).toMatchObject({ code: -32600 });

    const unknown = await client.request("no/such/method");
    expect(unknown.error).toEqual({ code: -32601, message: "Method not found: no/such/method" });
    const badParams = await client.request("toolpool/call", { name: 42 });
    expect(badParams.error).toMatchObject({ code: -32602 });
    expect((badParams.error as { message: string }).message).toContain('field "name"');
    const extra = await client.request("toolpool/session", { modle: "typo" });
    expect((extra.error as { message: string }).message).toContain("modle");
    // Methods that take nothing refuse an unknown field too (shutdown most of all: a typo must not stop the daemon).
    using fresh = await RawClient.open(harness.socketPath);
    for (const method of ["toolpool/status", "toolpool/tools", "toolpool/servers", "toolpool/shutdown"]) {
      const unknownField = await fresh.request(method, { bogus: 1 });
      expect({ method, error: unknownField.error }).toMatchObject({ method, error: { code: -32602, message: expect.stringContaining("bogus") } });
    }
    // status, tools and servers take the optional sessionId every toolpool/* method takes; it must exist.
    const { sessionId } = (await fresh.request("toolpool/session", {})).result as { sessionId: string };
    for (const method of ["toolpool/status", "toolpool/tools", "toolpool/servers"]) {
      expect({ method, error: (await fresh.request(method, { sessionId })).error }).toEqual({ method, error: undefined });
      const missing = await fresh.request(method, { sessionId: "no-such-session" });
      expect({ method, error: missing.error }).toMatchObject({ method, error: { code: -32602, message: expect.stringContaining("no-such-session") } });
    }

    const deep = `{"jsonrpc":"2.0","id":99,"method":"ping","params":{"a":${"[".repeat(100)}${"]".repeat(100)}}}`;
    client.sendLine(deep);
    // Refused unparsed, yet answered under its id (read from the line's head): its client is not left waiting.
    expect((await client.waitFor((m) => m.id === 99 && (m.error as { message: string }).message.includes("nested"))).error).toMatchObject({ code: -32600 });
    client.sendLine(`{"id":"wide","jsonrpc":"2.0","method":"ping","params":{"a":${"[".repeat(100)}${"]".repeat(100)}}}`);
    expect((await client.waitFor((m) => m.id === "wide")).error).toMatchObject({ code: -32600 });
    client.sendLine(`{"jsonrpc":"2.0","method":"ping","params":{"id":7,"a":${"[".repeat(100)}${"]".repeat(100)}}}`);
    expect((await client.waitFor((m) => m.id === null && (m.error as { message: string }).message.includes("nested"))).error).toMatchObject({ code: -32600 });

    expect((await client.request("ping")).result).toEqual({});
    // ping answers on a fast path: params are ignored as MCP allows, but must still be an object.
    expect((await client.request("ping", { _meta: { progressToken: 1 }, verbose: true })).result).toEqual({});
    client.sendLine('{"jsonrpc":"2.0","id":"p","method":"ping","params":[]}');
    expect((await client.waitFor((m) => m.id === "p")).error).toMatchObject({ code: -32602 });
  });

  test("ping keeps its place: answered after the requests before it in the same read, and refused past the in-flight limit", async () => {
    const gate = gateTool();
    await using harness = await startTestDaemon({ builtins: [echoTool, gate.tool] });
    using client = await RawClient.open(harness.socketPath);
    client.sendLine('{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}');
    await client.waitFor((m) => m.id === 2);
    expect(client.messages.map((m) => m.id)).toEqual([1, 2]);

    client.messages.length = 0;
    const calls = Array.from({ length: MAX_IN_FLIGHT_PER_CONNECTION }, (_, i) =>
      JSON.stringify({ jsonrpc: "2.0", id: `g${i}`, method: "tools/call", params: { name: "Gate", arguments: {} } }),
    );
    client.sendLine(`${calls.join("\n")}\n{"jsonrpc":"2.0","id":"over","method":"ping"}`);
    expect((await client.waitFor((m) => m.id === "over")).error).toMatchObject({ code: -32000 });
    gate.state.release.resolve();
    await client.waitFor((m) => m.id === `g${MAX_IN_FLIGHT_PER_CONNECTION - 1}`);
    expect((await client.request("ping")).result).toEqual({});
  });

  test("a notification is never answered, not even one whose params are not an object", async () => {
    await using harness = await startTestDaemon({ builtins: [echoTool] });
    using client = await RawClient.open(harness.socketPath);
    client.sendLine('{"jsonrpc":"2.0","method":"notifications/cancelled","params":[1]}');
    client.sendLine('{"jsonrpc":"2.0","method":"notifications/initialized","params":"x"}');
    expect((await client.request("ping")).result).toEqual({});
    expect(client.messages).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
  });

  test("a tool failure is a result with isError, never a protocol error", async () => {
    await using harness = await startTestDaemon({ builtins: [echoTool] });
    using client = await RawClient.open(harness.socketPath);
    const invalid = await client.request("toolpool/call", { name: "Echo", input: { text: 5 }, toolUseId: "tu_1" });
    const result = invalid.result as { isError: boolean; toolResult: Record<string, unknown>; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toContain("text");
    expect(result.toolResult).toMatchObject({ type: "tool_result", tool_use_id: "tu_1", is_error: true });
    const missing = await client.request("toolpool/call", { name: "Nope", input: {} });
    expect(missing.result).toMatchObject({ isError: true });
    const mcpMissing = await client.request("tools/call", { name: "Nope", arguments: {} });
    expect(mcpMissing.error).toMatchObject({ code: -32602, message: "Unknown tool: Nope" });
  });

  test("an oversized line closes only that connection", async () => {
    await using harness = await startTestDaemon({ builtins: [echoTool] });
    using victim = await RawClient.open(harness.socketPath);
    using bystander = await RawClient.open(harness.socketPath);
    victim.sendLine(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${"x".repeat(MAX_LINE_BYTES)}"}}`);
    await victim.waitClosed();
    expect(victim.messages.at(-1)).toMatchObject({ id: null, error: { code: -32600 } });
    expect((await bystander.request("ping")).result).toEqual({});
  });

  test("progress notifications reach the caller before the result", async () => {
    await using harness = await startTestDaemon({ builtins: [progressTool] });
    using client = await RawClient.open(harness.socketPath);
    client.send({ jsonrpc: "2.0", id: "p1", method: "tools/call", params: { name: "Progress", arguments: {}, _meta: { progressToken: "tok" } } });
    await client.waitFor((m) => m.id === "p1");
    const progress = client.messages.filter((m) => m.method === "notifications/progress");
    expect(progress.map((m) => m.params)).toEqual([
      { progressToken: "tok", progress: 1, total: 3, message: "step 1" },
      { progressToken: "tok", progress: 2, total: 3, message: "step 2" },
      { progressToken: "tok", progress: 3, total: 3, message: "step 3" },
    ]);
    expect(client.messages.findIndex((m) => m.id === "p1")).toBe(client.messages.length - 1);
  });
});

describe("half-closed connections", () => {
  test("a client that shuts its write side after sending still gets every answer, then the connection closes", async () => {
    const { tool, state } = gateTool();
    await using harness = await startTestDaemon({ builtins: [echoTool, tool] });
    using client = await RawClient.open(harness.socketPath);
    client.sendLine('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    client.sendLine('{"jsonrpc":"2.0","id":2,"method":"toolpool/call","params":{"name":"Gate","input":{}}}');
    client.socket.end();
    while (state.running === 0) await Bun.sleep(1);
    state.release.resolve();
    await client.waitClosed();
    expect(client.messages.map((message) => message.id).sort()).toEqual([1, 2]);
    expect(client.messages.find((message) => message.id === 2)?.result).toMatchObject({ isError: false });
  });
});

describe("a hostile request's error stays small", () => {
  test("600,000 keys are refused before parsing; 50,000 unknown keys get a short -32602 naming a few", async () => {
    await using harness = await startTestDaemon({});
    using client = await RawClient.open(harness.socketPath);
    const keys = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`k${index}`, 1]));
    // Refused before parsing: the id is read from the line's head, as for a line too deep.
    client.sendLine(JSON.stringify({ jsonrpc: "2.0", id: 5, method: "toolpool/status", params: keys(600_000) }));
    expect(await client.waitFor((m) => m.id === 5)).toEqual({ jsonrpc: "2.0", id: 5, error: { code: -32600, message: "JSON with more than 100,000 object members" } });
    const answer = await client.request("toolpool/status", keys(50_000));
    const message = (answer.error as { message: string }).message;
    expect(answer.error).toMatchObject({ code: -32602 });
    expect(message).toContain("and 49990 more unknown keys");
    expect(message.length).toBeLessThan(2_000);
    // Millions of empty arrays parse as slowly: refused the same way.
    client.messages.length = 0;
    client.sendLine(`{"jsonrpc":"2.0","id":6,"method":"ping","params":{"a":[${"[],".repeat(200_000)}[]]}}`);
    expect(await client.waitFor((m) => m.id === 6)).toEqual({ jsonrpc: "2.0", id: 6, error: { code: -32600, message: "JSON with more than 100,000 objects and arrays" } });
    // A wide array of numbers costs little to parse and stays allowed; the connection is still usable.
    expect((await client.request("ping", {})).result).toBeDefined();
  });
});
