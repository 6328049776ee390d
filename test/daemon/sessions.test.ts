import { describe, expect, test } from "bun:test";
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { parseConfig } from "../../src/config/load.ts";
import { Daemon } from "../../src/daemon/daemon.ts";
import { createLogger } from "../../src/runtime/logger.ts";
import { join } from "node:path";
import { RawClient } from "../helpers/raw-client.ts";
import { startTestDaemon, tempSocketDir } from "../helpers/daemon-harness.ts";
import { echoTool, gateTool } from "../helpers/test-tools.ts";
import { waitFor as waitUntil } from "../helpers/wait.ts";

describe("sessions", () => {
  test("a session is resumed by id from a new connection, with its settings", async () => {
    await using harness = await startTestDaemon({ builtins: [echoTool] });
    const root = realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "ws-")));
    using first = await RawClient.open(harness.socketPath);
    const opened = (await first.request("toolpool/session", { model: "claude-sonnet-4-5", workspaceRoots: [root] })).result as {
      sessionId: string;
      resumed: boolean;
      settings: Record<string, unknown>;
    };
    expect(opened.resumed).toBe(false);
    expect(opened.settings).toMatchObject({ model: "claude-sonnet-4-5", provider: "anthropic", format: "anthropic", workspaceRoots: [root], cwd: root });
    first.close();
    await first.waitClosed();

    using second = await RawClient.open(harness.socketPath);
    const resumed = (await second.request("toolpool/session", { sessionId: opened.sessionId })).result as typeof opened;
    expect(resumed).toMatchObject({ sessionId: opened.sessionId, resumed: true, settings: { model: "claude-sonnet-4-5", workspaceRoots: [root] } });
  });

  test("an unknown session id in a call is a params error naming the field; a missing root is refused", async () => {
    await using harness = await startTestDaemon({ builtins: [echoTool] });
    using client = await RawClient.open(harness.socketPath);
    const call = await client.request("toolpool/call", { sessionId: "nope", name: "Echo", input: { text: "x" } });
    expect(call.error).toMatchObject({ code: -32602 });
    expect((call.error as { message: string }).message).toContain('"sessionId"');
    const badRoot = await client.request("toolpool/session", { workspaceRoots: ["/definitely/not/here"] });
    expect((badRoot.error as { message: string }).message).toContain('"workspaceRoots.0"');
  });

  test("a malformed permission rule is refused at toolpool/session, naming the field, and changes nothing", async () => {
    await using harness = await startTestDaemon({ builtins: [echoTool] });
    using client = await RawClient.open(harness.socketPath);
    const opened = await client.request("toolpool/session", { permissions: { mode: "default", allow: ["Echo(("], deny: [] } });
    expect(opened.error).toMatchObject({ code: -32602 });
    expect((opened.error as { message: string }).message).toContain('field "permissions.allow.0"');
    const denied = await client.request("toolpool/session", { permissions: { deny: ["not a rule"] } });
    expect((denied.error as { message: string }).message).toContain('field "permissions.deny.0"');
    expect(harness.daemon.sessions.counts()).toEqual({ active: 0, detached: 0 });
  });

  test("non-concurrency-safe calls in one session run one at a time; other sessions are not held", async () => {
    const { tool, state } = gateTool();
    await using harness = await startTestDaemon({ builtins: [tool, echoTool] });
    using client = await RawClient.open(harness.socketPath);
    const session = ((await client.request("toolpool/session", {})).result as { sessionId: string }).sessionId;
    for (let index = 0; index < 3; index++) {
      client.send({ jsonrpc: "2.0", id: `g${index}`, method: "toolpool/call", params: { sessionId: session, name: "Gate", input: { label: String(index) } } });
    }
    using other = await RawClient.open(harness.socketPath);
    expect((await other.request("toolpool/call", { name: "Echo", input: { text: "free" } })).result).toMatchObject({ isError: false });
    expect(state.running).toBe(1);
    state.release.resolve();
    for (let index = 0; index < 3; index++) await client.waitFor((m) => m.id === `g${index}`);
    expect(state.maxRunning).toBe(1);
  });

  test("a session opened with concurrentCalls runs its calls as they come; a re-open cannot change that", async () => {
    const { tool, state } = gateTool();
    await using harness = await startTestDaemon({ builtins: [tool, echoTool] });
    using client = await RawClient.open(harness.socketPath);
    const opened = (await client.request("toolpool/session", { concurrentCalls: true })).result as { sessionId: string; settings: Record<string, unknown> };
    expect(opened.settings.concurrentCalls).toBe(true);
    // A re-open asking for ordering keeps what the session opened with (and the other way round below).
    const reopened = (await client.request("toolpool/session", { sessionId: opened.sessionId, concurrentCalls: false })).result as typeof opened;
    expect(reopened.settings.concurrentCalls).toBe(true);
    for (let index = 0; index < 3; index++) {
      client.send({ jsonrpc: "2.0", id: `c${index}`, method: "toolpool/call", params: { sessionId: opened.sessionId, name: "Gate", input: { label: String(index) } } });
    }
    await waitUntil(() => state.running === 3, "three Gates of one session to run side by side");
    state.release.resolve();
    for (let index = 0; index < 3; index++) await client.waitFor((m) => m.id === `c${index}`);
    using other = await RawClient.open(harness.socketPath);
    const ordered = (await other.request("toolpool/session", {})).result as typeof opened;
    expect("concurrentCalls" in ordered.settings).toBe(false);
    const still = (await other.request("toolpool/session", { sessionId: ordered.sessionId, concurrentCalls: true })).result as typeof opened;
    expect("concurrentCalls" in still.settings).toBe(false);
  });

  test("notifications/cancelled stops the call and no response is sent for it", async () => {
    const { tool, state } = gateTool();
    await using harness = await startTestDaemon({ builtins: [tool] });
    using client = await RawClient.open(harness.socketPath);
    client.send({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "Gate", arguments: {} } });
    while (state.running === 0) await Bun.sleep(1);
    client.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5, reason: "user" } });
    while (state.running > 0) await Bun.sleep(1);
    expect((await client.request("ping")).result).toEqual({});
    expect(client.messages.some((m) => m.id === 5)).toBe(false);
  });

  test("a call still running when the shutdown drain runs out is answered -32001, not left without an answer", async () => {
    const { tool, state } = gateTool();
    // The drain time is injected: the rule (answered, not dropped) is the same at 5 s and at 0.2 s.
    const harness = await startTestDaemon({ builtins: [tool], drainTimeoutMs: 200 });
    using client = await RawClient.open(harness.socketPath);
    client.send({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "Gate", arguments: {} } });
    while (state.running === 0) await Bun.sleep(1);
    await harness.daemon.stop("test");
    expect(client.messages.find((m) => m.id === 7)).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32001, message: "The daemon is shutting down; this request was still running after the 0.2 s drain and was cancelled" },
    });
  });

  test("32 concurrent clients x 200 mixed calls: every response once, to the right client, with the right id", async () => {
    await using harness = await startTestDaemon({ builtins: [echoTool] });
    const clients = await Promise.all(Array.from({ length: 32 }, () => RawClient.open(harness.socketPath)));
    await Promise.all(
      clients.map(async (client, clientIndex) => {
        for (let index = 0; index < 200; index++) {
          const id = `c${clientIndex}-${index}`;
          const kind = index % 4;
          if (kind === 0) client.send({ jsonrpc: "2.0", id, method: "ping" });
          else if (kind === 1) client.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "Echo", arguments: { text: id } } });
          else if (kind === 2) client.send({ jsonrpc: "2.0", id, method: "toolpool/call", params: { name: "Echo", input: { text: id } } });
          else client.send({ jsonrpc: "2.0", id, method: "toolpool/status" });
        }
        await client.waitFor(() => client.messages.length >= 200, 30_000);
      }),
    );
    for (const [clientIndex, client] of clients.entries()) {
      const ids = client.messages.map((m) => m.id as string);
      expect(ids.length).toBe(200);
      expect(new Set(ids).size).toBe(200);
      for (const message of client.messages) {
        const id = message.id as string;
        expect(id.startsWith(`c${clientIndex}-`)).toBe(true);
        const index = Number(id.split("-")[1]);
        if (index % 4 === 1 || index % 4 === 2) {
          expect((message.result as { content: { text: string }[] }).content[0]?.text).toBe(id);
        }
      }
      client.close();
    }
  });
});

describe("config reload", () => {
  test("a SIGHUP reload that lands during shutdown applies nothing and starts no MCP server", async () => {
    const dir = tempSocketDir();
    const configPath = join(dir, "config.json");
    writeFileSync(configPath, JSON.stringify({}));
    const daemon = new Daemon({
      usageDatabasePath: ":memory:",
      socketPath: join(dir, "s.sock"),
      config: parseConfig({}, configPath),
      configSource: { path: configPath, explicit: true },
      builtins: [echoTool],
      logger: createLogger("error", () => {}),
    });
    await daemon.start();
    writeFileSync(configPath, JSON.stringify({ logLevel: "debug", mcpServers: { late: { command: "true", disabled: true } } }));
    const stopping = daemon.stop("test");
    await daemon.reload();
    await stopping;
    expect(daemon.core.mcp()).toBeUndefined();
    expect(daemon.core.config().mcpServers).toEqual({});
  });

  test("a reload with a bad config keeps the previous one; a good one applies", async () => {
    const dir = tempSocketDir();
    const configPath = join(dir, "config.json");
    writeFileSync(configPath, JSON.stringify({ permissions: { mode: "default", allow: [], deny: ["Echo"] } }));
    const logs: string[] = [];
    const daemon = new Daemon({
      usageDatabasePath: ":memory:",
      socketPath: join(dir, "r.sock"),
      config: parseConfig(JSON.parse(await Bun.file(configPath).text()), configPath),
      configSource: { path: configPath, explicit: true },
      builtins: [echoTool],
      logger: createLogger("info", (line) => logs.push(line)),
    });
    await daemon.start();
    try {
      expect(daemon.core.pool().get("Echo")).toBeUndefined();
      writeFileSync(configPath, JSON.stringify({ permissions: { mode: "sometimes" } }));
      await daemon.reload();
      expect(daemon.core.pool().get("Echo")).toBeUndefined();
      expect(logs.some((line) => line.includes("config reload failed") && line.includes("permissions.mode"))).toBe(true);
      // A malformed rule is a bad config too: refused whole, naming the field, the old config kept.
      writeFileSync(configPath, JSON.stringify({ permissions: { mode: "bypass", deny: ["Echo", "bad rule"] } }));
      await daemon.reload();
      expect(daemon.core.config().permissions).toEqual({ mode: "default", allow: [], deny: ["Echo"] });
      expect(logs.some((line) => line.includes("config reload failed") && line.includes("permissions.deny.1"))).toBe(true);
      // A workspace root that does not exist would fail every session: refused at reload too.
      writeFileSync(configPath, JSON.stringify({ workspaceRoots: [join(dir, "no-such-dir")] }));
      await daemon.reload();
      expect(daemon.core.config().workspaceRoots).toBeUndefined();
      expect(logs.some((line) => line.includes("config reload failed") && line.includes('field \\"workspaceRoots.0\\"') && line.includes("does not exist"))).toBe(true);
      writeFileSync(configPath, JSON.stringify({}));
      await daemon.reload();
      expect(daemon.core.pool().get("Echo")?.name).toBe("Echo");
    } finally {
      await daemon.stop("test finished");
    }
  });
});
