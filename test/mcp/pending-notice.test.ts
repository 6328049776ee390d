// test-plan: one tier — the pending-server notice with prefetch off, no feature() on its path.
/**
 * ToolSearch during start-up, over the real socket with real fixture server processes: a search
 * that finds tools of the servers that are up still names the server that is still connecting.
 * And the `servers` announcement carries each server's own instructions.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { builtinTools } from "../../src/builtin/list.ts";
import { ToolpoolClient } from "../../src/client/client.ts";
import { parseConfig } from "../../src/config/load.ts";
import { Daemon } from "../../src/daemon/daemon.ts";
import { silentLogger } from "../../src/runtime/logger.ts";
import { resultText, type ToolResult } from "../../src/tool/result.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { FAST_BACKOFF, FIXTURE_SERVER, tempDir, waitFor } from "./helpers.ts";

setDefaultTimeout(30_000);

const fixture = (env: Record<string, string>) => ({ command: process.execPath, args: [FIXTURE_SERVER], env, timeoutMs: 60_000 });

async function startDaemon(mcpServers: Record<string, unknown>, cachePath: string | null = null) {
  const socketPath = join(tempSocketDir(), "d.sock");
  const daemon = new Daemon({
    socketPath,
    config: parseConfig({ mcpServers }, "test"),
    configSource: { path: null, explicit: false },
    builtins: builtinTools(),
    logger: silentLogger,
    mcpOptions: { cachePath, backoff: FAST_BACKOFF, graceMs: 500 },
  });
  await daemon.start();
  const client = await ToolpoolClient.connect(socketPath);
  return {
    daemon,
    client,
    async [Symbol.asyncDispose]() {
      client.close();
      await daemon.stop("test finished");
    },
  };
}

describe("ToolSearch while servers connect", () => {
  test("a non-empty result names the slow server that is not searchable yet", async () => {
    await using running = await startDaemon({
      fast: fixture({ FIXTURE_INSTRUCTIONS: "Echo server for the tests. It repeats what it is told." }),
      // Initialize waits far longer than the test: the server stays "pending" throughout.
      slowpoke: fixture({ FIXTURE_INIT_DELAY_MS: "120000" }),
    });
    const { client, daemon } = running;
    await waitFor(() => daemon.core.mcp()?.server("fast")?.state === "connected", "the fast server");
    expect(daemon.core.mcp()?.server("slowpoke")?.state).toBe("pending");
    const { sessionId } = await client.session({ delivery: "proxy", model: "gpt-5", prefetch: false, announcements: "servers" });

    const found = (await client.call({ sessionId, name: "ToolSearch", input: { query: "echo text back" } })) as ToolResult;
    expect(found.isError).toBe(false);
    expect(found.structuredContent).toMatchObject({ pending_mcp_servers: ["slowpoke"] });
    expect((found.structuredContent as { matches: string[] }).matches).toContain("mcp__fast__echo");
    const text = resultText(found);
    expect(text).toStartWith("Found ");
    expect(text).toContain("MCP servers still connecting: slowpoke. Their tools are not searchable yet");

    // The servers announcement: the fast server's own instructions, the slow one as connecting.
    const assembled = await client.assemble({ sessionId, messages: [{ role: "user", content: "hi" }] });
    const announcement = (assembled.announcement as { text?: string } | null)?.text ?? "";
    expect(announcement).toContain("<available-deferred-servers>");
    expect(announcement).toMatch(/^fast \(\d+ tools\): Echo server for the tests\.$/m);
    expect(announcement).toContain("Still connecting (search again shortly): slowpoke");
    expect(announcement).not.toContain("mcp__fast__echo");

    // mcp__fast alone lists the server's tools by name, loading none.
    const listed = (await client.call({ sessionId, name: "ToolSearch", input: { query: "mcp__fast" } })) as ToolResult;
    expect(listed.structuredContent).toMatchObject({ kind: "server", server: "fast", pending_mcp_servers: ["slowpoke"] });
    expect((listed.structuredContent as { tools: string[] }).tools).toContain("mcp__fast__echo");
  });

  test("a connecting server with a cached catalog is searched and marked stale, not absent", async () => {
    const cachePath = join(tempDir(), "catalog.sqlite");
    {
      await using first = await startDaemon({ fx: fixture({}) }, cachePath);
      await waitFor(() => first.daemon.core.mcp()?.server("fx")?.state === "connected", "the first run to list fx");
    }
    await using running = await startDaemon({ fx: fixture({ FIXTURE_INIT_DELAY_MS: "120000" }) }, cachePath);
    const { client, daemon } = running;
    await waitFor(() => daemon.core.pool().get("mcp__fx__echo") !== undefined, "fx's cached tools in the pool");
    expect(daemon.core.mcp()?.server("fx")?.state).toBe("pending");
    const { sessionId } = await client.session({ delivery: "proxy", model: "gpt-5", prefetch: false });
    const found = (await client.call({ sessionId, name: "ToolSearch", input: { query: "echo text back" } })) as ToolResult;
    const structured = found.structuredContent as { matches: string[]; stale_mcp_servers: string[]; stale_matches: string[] };
    expect(structured.stale_mcp_servers).toEqual(["fx"]);
    // Every match of fx is marked stale; the built-ins found beside them are not.
    expect(structured.stale_matches).toEqual(structured.matches.filter((name) => name.startsWith("mcp__fx__")));
    expect(structured.stale_matches).toContain("mcp__fx__echo");
    expect(found.structuredContent).not.toHaveProperty("pending_mcp_servers");
    expect(resultText(found)).toContain("searched from their cached tool lists (may be stale until they connect): fx.");
  });
});
