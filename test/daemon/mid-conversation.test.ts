/**
 * mid-conversation delivery over the real socket, with a real MCP fixture server: tools[] keeps its
 * bytes through a discovery and through the server leaving (a config reload that drops it); the
 * discovery comes back as a tool_addition message, the server's departure as tool_removal; a second
 * connection sending the same transcript derives the same state.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseConfig } from "../../src/config/load.ts";
import { Daemon } from "../../src/daemon/daemon.ts";
import { silentLogger } from "../../src/runtime/logger.ts";
import { RawClient } from "../helpers/raw-client.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { echoTool } from "../helpers/test-tools.ts";
import { FIXTURE_SERVER, waitFor } from "../mcp/helpers.ts";

setDefaultTimeout(30_000);

const SPEC_SERVER = join(import.meta.dir, "..", "fixtures", "mcp", "spec-server.ts");

async function result(client: RawClient, method: string, params: Record<string, unknown>) {
  const response = await client.request(method, params);
  if (response.error) throw new Error(JSON.stringify(response.error));
  return response.result as Record<string, unknown>;
}

const ref = (name: string) => ({ type: "tool_reference", name });

describe("mid-conversation delivery over the socket", () => {
  test("fixed tools[]; a discovery is a tool_addition, a server that leaves a tool_removal; another connection agrees", async () => {
    const dir = tempSocketDir();
    const configPath = join(dir, "config.json");
    const withServer = { delivery: "mid-conversation", mcpServers: { fx: { command: process.execPath, args: [FIXTURE_SERVER], timeoutMs: 10_000 } } };
    writeFileSync(configPath, JSON.stringify(withServer));
    const socketPath = join(dir, "m.sock");
    const daemon = new Daemon({ socketPath, config: parseConfig(withServer, configPath), configSource: { path: configPath, explicit: true }, builtins: [echoTool], logger: silentLogger, usageDatabasePath: join(dir, "usage.sqlite") });
    await daemon.start();
    try {
      using client = await RawClient.open(socketPath);
      await waitFor(async () => ((await result(client, "toolpool/tools", {})).tools as { name: string }[]).some((tool) => tool.name === "mcp__fx__echo"), "the fixture's tools");
      // The delivery comes from the config; the session asks for nothing.
      const opened = await result(client, "toolpool/session", { model: "claude-sonnet-4-5" });
      expect((opened.settings as { delivery: string }).delivery).toBe("mid-conversation");
      const sessionId = opened.sessionId as string;
      const messages: unknown[] = [{ role: "user", content: "echo hello through the fixture" }];
      const first = await result(client, "toolpool/assemble", { sessionId, messages });
      const names = (first.tools as { name: string; defer_loading?: true }[]).map((tool) => tool.name);
      expect(names.slice(0, 2)).toEqual(["Echo", "ToolSearch"]);
      expect(names).toContain("mcp__fx__echo");
      expect((first.tools as { name: string; defer_loading?: true }[]).find((tool) => tool.name === "mcp__fx__echo")?.defer_loading).toBe(true);
      expect(first).toMatchObject({ delivery: { delivery: "mid-conversation", reason: "requested" }, toolChanges: null, betas: ["advanced-tool-use-2025-11-20", "mid-conversation-tool-changes-2026-07-01"] });

      // The MCP face lists what the model may call now: not the fixed array's deferred entries.
      const listNames = async () => ((await result(client, "tools/list", {})).tools as { name: string }[]).map((tool) => tool.name);
      expect(await listNames()).toEqual(["Echo", "ToolSearch"]);
      const search = await result(client, "toolpool/call", { sessionId, name: "ToolSearch", input: { query: "select:mcp__fx__echo" }, toolUseId: "t1" });
      expect(JSON.stringify(search.content)).not.toContain("tool_reference");
      messages.push({ role: "assistant", content: [{ type: "tool_use", id: "t1", name: "ToolSearch", input: { query: "select:mcp__fx__echo" } }] }, { role: "user", content: [search.toolResult] });
      const second = await result(client, "toolpool/assemble", { sessionId, messages });
      expect(await listNames()).toEqual(["Echo", "ToolSearch", "mcp__fx__echo"]);
      expect(JSON.stringify(second.tools)).toBe(JSON.stringify(first.tools));
      expect(second.toolChanges).toEqual({ index: 3, message: { role: "system", content: [{ type: "tool_addition", tool: ref("mcp__fx__echo") }] }, added: ["mcp__fx__echo"], removed: [] });
      messages.push((second.toolChanges as { message: unknown }).message);

      // Another connection, same session and transcript: nothing left to add, same bytes.
      using other = await RawClient.open(socketPath);
      const again = await result(other, "toolpool/assemble", { sessionId, messages });
      expect(again.toolChanges).toBeNull();
      expect(JSON.stringify(again.tools)).toBe(JSON.stringify(first.tools));

      // The server leaves: a reload without it.
      writeFileSync(configPath, JSON.stringify({ delivery: "mid-conversation" }));
      await daemon.reload();
      await waitFor(async () => !((await result(client, "toolpool/tools", {})).tools as { name: string }[]).some((tool) => tool.name.startsWith("mcp__fx__")), "the fixture's tools to leave");
      messages.push({ role: "assistant", content: "done" }, { role: "user", content: "and again" });
      const gone = await result(client, "toolpool/assemble", { sessionId, messages });
      expect(JSON.stringify(gone.tools)).toBe(JSON.stringify(first.tools));
      expect(gone.toolChanges).toEqual({ index: 6, message: { role: "system", content: [{ type: "tool_removal", tool: ref("mcp__fx__echo") }] }, added: [], removed: ["mcp__fx__echo"] });
    } finally {
      await daemon.stop("test finished");
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a tool the tool-count limit kept out of the fixed array is answered as not loaded, and the session does not count it found", async () => {
    // Attack: ToolSearch said it loaded every match and the session counted them found (explain said
    // "callable"), but the next request cannot add a tool its pinned array left out without inline tools.
    const dir = tempSocketDir();
    const specPath = join(dir, "spec.json");
    writeFileSync(specPath, JSON.stringify({ tools: Array.from({ length: 10 }, (_, i) => ({ name: `t${i}`, description: `Tool ${i}.` })) }));
    const config = { delivery: "mid-conversation", maxToolsInArray: 8, mcpServers: { s: { command: process.execPath, args: [SPEC_SERVER], env: { SPEC_FILE: specPath }, timeoutMs: 10_000 } } };
    const configPath = join(dir, "config.json");
    writeFileSync(configPath, JSON.stringify(config));
    const daemon = new Daemon({ socketPath: join(dir, "m.sock"), config: parseConfig(config, configPath), configSource: { path: configPath, explicit: true }, builtins: [echoTool], logger: silentLogger, usageDatabasePath: join(dir, "usage.sqlite") });
    await daemon.start();
    try {
      using client = await RawClient.open(join(dir, "m.sock"));
      await waitFor(async () => ((await result(client, "toolpool/tools", {})).tools as { name: string }[]).some((tool) => tool.name === "mcp__s__t9"), "the spec server's tools");
      const { sessionId } = (await result(client, "toolpool/session", { model: "claude-sonnet-4-5" })) as { sessionId: string };
      const first = await result(client, "toolpool/assemble", { sessionId, messages: [{ role: "user", content: "hello" }] });
      const inArray = (first.tools as { name: string }[]).map((tool) => tool.name);
      expect(inArray).toEqual(["Echo", "ToolSearch", "mcp__s__t0", "mcp__s__t1", "mcp__s__t2", "mcp__s__t3", "mcp__s__t4", "mcp__s__t5"]);
      const search = await result(client, "toolpool/call", { sessionId, name: "ToolSearch", input: { query: "select:mcp__s__t0,mcp__s__t9" }, toolUseId: "t1" });
      expect(search.structuredContent).toMatchObject({ matches: ["mcp__s__t0"], not_addable: ["mcp__s__t9"] });
      const explained = async (name: string) => (await result(client, "toolpool/explain", { name, sessionId })).callable;
      expect({ t0: await explained("mcp__s__t0"), t9: await explained("mcp__s__t9") }).toEqual({ t0: true, t9: false });
    } finally {
      await daemon.stop("test finished");
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("an unknown delivery is refused with the field named", async () => {
    const dir = tempSocketDir();
    const daemon = new Daemon({ socketPath: join(dir, "u.sock"), config: parseConfig({}, "test"), configSource: { path: null, explicit: false }, builtins: [echoTool], logger: silentLogger, usageDatabasePath: join(dir, "usage.sqlite") });
    await daemon.start();
    try {
      using client = await RawClient.open(join(dir, "u.sock"));
      const response = await client.request("toolpool/session", { delivery: "midconversation" });
      expect((response.error as { code?: number } | undefined)?.code).toBe(-32602);
      expect(JSON.stringify(response.error)).toContain("delivery");
      const inline = await result(client, "toolpool/session", { delivery: "mid-conversation", inlineTools: true });
      expect(inline.settings).toMatchObject({ delivery: "mid-conversation", inlineTools: true });
    } finally {
      await daemon.stop("test finished");
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
