// test-plan: one tier — server deny rules and names, no feature() on their path.
/**
 * Server rules match the server's identity (issue 15): with servers `fx` and `fx__y` configured,
 * `mcp__fx` removes only fx's tools and `mcp__fx__y` only fx__y's, over the real socket and real
 * server processes.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { builtinTools } from "../../src/builtin/list.ts";
import { ToolpoolClient } from "../../src/client/client.ts";
import { parseConfig } from "../../src/config/load.ts";
import { Daemon } from "../../src/daemon/daemon.ts";
import { silentLogger } from "../../src/runtime/logger.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { FAST_BACKOFF, FIXTURE_SERVER, waitFor } from "./helpers.ts";

setDefaultTimeout(30_000);

const server = { command: process.execPath, args: [FIXTURE_SERVER], timeoutMs: 10_000 };

async function serverNames(deny: string[]): Promise<string[]> {
  const socketPath = join(tempSocketDir(), "d.sock");
  const mcpServers = { fx: server, fx__y: server, other: server };
  const daemon = new Daemon({
    socketPath,
    config: parseConfig({ mcpServers, permissions: { deny } }, "test"),
    configSource: { path: null, explicit: false },
    builtins: builtinTools(),
    logger: silentLogger,
    mcpOptions: { cachePath: null, backoff: FAST_BACKOFF, graceMs: 500 },
  });
  await daemon.start();
  const client = await ToolpoolClient.connect(socketPath);
  try {
    const connected = async () => ((await client.status()) as unknown as { mcpServers: { connected: number } }).mcpServers.connected;
    await waitFor(async () => (await connected()) === 3, "three connected servers");
    const tools = (await client.tools()).tools.filter((tool) => tool.source === "mcp");
    return [...new Set(tools.map((tool) => tool.server ?? ""))].sort();
  } finally {
    client.close();
    await daemon.stop("test finished");
  }
}

describe("server deny rules and server names with __", () => {
  test("mcp__fx removes server fx, not fx__y", async () => {
    expect(await serverNames(["mcp__fx"])).toEqual(["fx__y", "other"]);
  });

  test("mcp__fx__y removes server fx__y", async () => {
    expect(await serverNames(["mcp__fx__y"])).toEqual(["fx", "other"]);
  });
});
