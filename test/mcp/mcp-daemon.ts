/** A daemon with these MCP servers in its config file, over a real socket, and a client of it. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { builtinTools } from "../../src/builtin/list.ts";
import { ToolpoolClient } from "../../src/client/client.ts";
import { parseConfig } from "../../src/config/load.ts";
import { Daemon } from "../../src/daemon/daemon.ts";
import { silentLogger } from "../../src/runtime/logger.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { FAST_BACKOFF, tempDir } from "./helpers.ts";

/** `extra`: more top-level config beside `mcpServers` (profiles, …). */
export async function startMcpDaemon(mcpServers: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const configPath = join(tempDir(), "config.json");
  writeFileSync(configPath, JSON.stringify({ ...extra, mcpServers }));
  const socketPath = join(tempSocketDir(), "d.sock");
  const daemon = new Daemon({
    usageDatabasePath: ":memory:",
    socketPath,
    config: parseConfig({ ...extra, mcpServers }, configPath),
    configSource: { path: configPath, explicit: true },
    builtins: builtinTools(),
    logger: silentLogger,
    mcpOptions: { cachePath: null, backoff: FAST_BACKOFF, graceMs: 500 },
  });
  await daemon.start();
  const client = await ToolpoolClient.connect(socketPath);
  return {
    daemon,
    client,
    configPath,
    socketPath,
    async [Symbol.asyncDispose]() {
      client.close();
      await daemon.stop("test finished");
    },
  };
}
