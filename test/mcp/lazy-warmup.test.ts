/** Lazy servers start when one of their tools is selected (ToolSearch select:) or predicted by prefetch, and not before. */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { feature } from "bun:bundle";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { builtinTools } from "../../src/builtin/list.ts";
import { ToolpoolClient } from "../../src/client/client.ts";
import { parseConfig } from "../../src/config/load.ts";
import { Daemon } from "../../src/daemon/daemon.ts";
import { silentLogger } from "../../src/runtime/logger.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { FAST_BACKOFF, FIXTURE_SERVER, waitFor } from "./helpers.ts";

setDefaultTimeout(30_000);

async function startDaemon() {
  const mcpServers = { lazy: { command: process.execPath, args: [FIXTURE_SERVER], startup: "lazy", timeoutMs: 10_000 } };
  const socketPath = join(tempSocketDir(), "d.sock");
  const daemon = new Daemon({
    usageDatabasePath: ":memory:",
    socketPath,
    config: parseConfig({ mcpServers }, "test"),
    configSource: { path: null, explicit: false },
    builtins: builtinTools(),
    logger: silentLogger,
    mcpOptions: { cachePath: null, backoff: FAST_BACKOFF, graceMs: 500 },
  });
  await daemon.start();
  const client = await ToolpoolClient.connect(socketPath);
  // With nothing cached, a lazy server is started once to learn its tools, then stopped.
  await waitFor(() => daemon.core.mcp()?.server("lazy")?.state === "idle" && daemon.core.pool().get("mcp__lazy__echo"), "discovery, then idle");
  return {
    daemon,
    client,
    async [Symbol.asyncDispose]() {
      client.close();
      await daemon.stop("test finished");
    },
  };
}

describe("lazy server warm-up", () => {
  test("ToolSearch select: of a lazy server's tool starts it; a keyword search does not", async () => {
    await using running = await startDaemon();
    const { client, daemon } = running;
    const { sessionId } = await client.session({ delivery: "proxy", model: "gpt-5", prefetch: false });
    await client.call({ sessionId, name: "ToolSearch", input: { query: "echo text back" } });
    expect(daemon.core.mcp()?.server("lazy")?.state).toBe("idle");
    await client.call({ sessionId, name: "ToolSearch", input: { query: "select:mcp__lazy__echo" } });
    await waitFor(() => daemon.core.mcp()?.server("lazy")?.state === "connected", "the lazy server started by select:");
  });

  if (feature("PREFETCH")) {
    test("a prefetch prediction of a lazy server's tool starts it", async () => {
      await using running = await startDaemon();
      const { client, daemon } = running;
      const { sessionId } = await client.session({ delivery: "proxy", model: "gpt-5" });
      const messages = [{ role: "user", content: "echo this text back to me" }];
      expect(daemon.core.mcp()?.server("lazy")?.state).toBe("idle");
      await client.request("toolpool/turnStarted", { sessionId, messages });
      const prefetched = await client.request("toolpool/prefetch", { sessionId, messages });
      expect(prefetched.suggestions.map((suggestion) => suggestion.name)).toContain("mcp__lazy__echo");
      await waitFor(() => daemon.core.mcp()?.server("lazy")?.state === "connected", "the lazy server started by prefetch");
    });
  }
});

describe("MCP pool on reload", () => {
  test("a daemon started without servers starts its MCP pool when a reload adds one", async () => {
    const dir = tempSocketDir();
    const configPath = join(dir, "config.json");
    writeFileSync(configPath, JSON.stringify({}));
    const daemon = new Daemon({
      usageDatabasePath: ":memory:",
      socketPath: join(dir, "d.sock"),
      config: parseConfig({}, configPath),
      configSource: { path: configPath, explicit: true },
      builtins: builtinTools(),
      logger: silentLogger,
      mcpOptions: { cachePath: null, backoff: FAST_BACKOFF, graceMs: 500 },
    });
    await daemon.start();
    try {
      expect(daemon.core.mcp()).toBeUndefined();
      writeFileSync(configPath, JSON.stringify({ mcpServers: { late: { command: process.execPath, args: [FIXTURE_SERVER] } } }));
      await daemon.reload();
      await waitFor(() => daemon.core.pool().get("mcp__late__echo"), "the added server's tools in the pool");
    } finally {
      await daemon.stop("test finished");
    }
  });
});
