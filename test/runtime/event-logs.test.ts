/** A log line, with its reason, for every session eviction, refused call and MCP server state change. */
import { systemClock } from "../../src/runtime/clock.ts";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { z } from "zod";
import { builtinTools } from "../../src/builtin/list.ts";
import { parseConfig } from "../../src/config/load.ts";
import { Daemon } from "../../src/daemon/daemon.ts";
import { MAX_DETACHED_SESSIONS, DETACHED_SESSION_TTL_MS } from "../../src/protocol/limits.ts";
import { createLogger } from "../../src/runtime/logger.ts";
import { SessionStore, type EvictionReason } from "../../src/session/session-store.ts";
import { resolveSettings } from "../../src/session/settings.ts";
import { buildTool } from "../../src/tool/build-tool.ts";
import { textResult } from "../../src/tool/result.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { RawClient } from "../helpers/raw-client.ts";
import { echoTool } from "../helpers/test-tools.ts";
import { fixtureSpec, testPool, waitFor } from "../mcp/helpers.ts";

setDefaultTimeout(20_000);

function capturing() {
  const lines: Record<string, unknown>[] = [];
  return { lines, logger: createLogger("debug", (line) => lines.push(JSON.parse(line) as Record<string, unknown>)) };
}

const note = buildTool({
  name: "Note",
  description: "Writes a note.",
  inputSchema: z.strictObject({ text: z.string() }),
  shouldDefer: true,
  permissionSubject: (input) => (typeof input.text === "string" ? input.text : undefined),
  call: async ({ text }) => textResult(text),
});

describe("event log lines", () => {
  test("the session store names each eviction and its reason", () => {
    const evicted: [string, EvictionReason][] = [];
    const store = new SessionStore(systemClock, (session, reason) => evicted.push([session.id, reason]));
    const settings = resolveSettings({}, { config: parseConfig({}, "test"), env: {}, daemonCwd: "/", prefetchCompiled: false });
    const idle = store.create(settings, "idle-one");
    idle.lastActiveAt = Date.now() - DETACHED_SESSION_TTL_MS - 1_000;
    store.create(settings, "newcomer");
    expect(evicted).toEqual([["idle-one", "idle"]]);
    expect(store.get(idle.id)).toBeUndefined();
    for (let index = 0; index < MAX_DETACHED_SESSIONS; index++) store.create(settings, `s${index}`);
    expect(evicted).toEqual([["idle-one", "idle"], ["newcomer", "over_limit"]]);
  });

  test("the daemon logs evictions and every refused call (unknown tool, permission, kill switch, through ExecuteExtraTool too)", async () => {
    const { lines, logger } = capturing();
    const file = join(tempSocketDir(), "features.json");
    await Bun.write(file, JSON.stringify({ features: { disabled_tools: { defaultValue: ["Echo"] } } }));
    const daemon = new Daemon({
      socketPath: join(tempSocketDir(), "d.sock"),
      config: parseConfig({ permissions: { deny: ["Note(denied*)"] }, flags: { file } }, "test"),
      configSource: { path: null, explicit: false },
      builtins: [echoTool, note, ...builtinTools().filter((tool) => tool.name === "Read")],
      logger,
    });
    await daemon.start();
    try {
      using client = await RawClient.open(daemon.socketPath);
      await client.request("toolpool/session", { sessionId: "s-log", model: "gpt-5", provider: "openai", delivery: "proxy" });
      await client.request("toolpool/call", { name: "NoSuchTool", input: {} });
      await client.request("toolpool/call", { name: "Note", input: { text: "denied here" } });
      await client.request("toolpool/call", { name: "Echo", input: { text: "hi" } });
      await client.request("toolpool/call", { name: "ToolSearch", input: { query: "select:Note" } });
      await client.request("toolpool/call", { name: "ExecuteExtraTool", input: { tool_name: "Note", params: { text: "denied again" } } });
      const settings = resolveSettings({}, daemon.core.settingsDefaults());
      for (let index = 0; index <= MAX_DETACHED_SESSIONS; index++) daemon.sessions.create(settings, `bulk-${index}`);
    } finally {
      await daemon.stop("test finished");
    }
    const refused = lines.filter((line) => line.message === "call refused").map(({ time: _time, ...rest }) => rest);
    expect(refused).toEqual([
      { level: "warn", message: "call refused", session: "s-log", tool: "NoSuchTool", refusal: "unknown_tool", reason: "no such tool" },
      { level: "warn", message: "call refused", session: "s-log", tool: "Note", refusal: "permission_denied", reason: 'denied by the rule "Note(denied*)"' },
      { level: "warn", message: "call refused", session: "s-log", tool: "Echo", refusal: "kill_switch", reason: 'disabled by the runtime flag "disabled_tools"' },
      { level: "warn", message: "call refused", session: "s-log", tool: "Note", refusal: "permission_denied", reason: 'denied by the rule "Note(denied*)"' },
    ]);
    const evictions = lines.filter((line) => line.message === "session evicted");
    // bulk-0 when the 1001st detached session arrived; bulk-1 when stopping detached s-log.
    expect(evictions.map((line) => line.session)).toEqual(["bulk-0", "bulk-1"]);
    expect(evictions[0]).toMatchObject({ level: "info", reason: "too many detached sessions; the least recently active one goes first", calls: 0 });
  });

  test("an MCP server's state changes are logged: connecting, connected, stopped", async () => {
    const { lines, logger } = capturing();
    await using pool = testPool([fixtureSpec("fx")], { logger });
    pool.start();
    await waitFor(() => pool.server("fx")?.state === "connected", "fx connected");
    await pool.stop();
    const messages = lines.filter((line) => line.server === "fx").map((line) => `${line.message}${line.to ? ` → ${line.to}` : ""}`);
    expect(messages).toEqual(["MCP server connecting → pending", "MCP server connected", "MCP server stopped → stopped"]);
  });
});
