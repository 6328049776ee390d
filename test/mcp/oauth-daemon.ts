/**
 * A daemon over a real socket with HTTP MCP servers behind the OAuth fixture: `remote` (the
 * fixture's URL) and any more entries; a clock OAuth expiry is judged by that tests move; its
 * log lines, to look for tokens in.
 */
import { join } from "node:path";
import { builtinTools } from "../../src/builtin/list.ts";
import { ToolpoolClient } from "../../src/client/client.ts";
import { parseConfig } from "../../src/config/load.ts";
import { Daemon } from "../../src/daemon/daemon.ts";
import { Method } from "../../src/protocol/method-names.ts";
import type { ServerSummary } from "../../src/protocol/methods.ts";
import { createLogger } from "../../src/runtime/logger.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { playBrowser, type OAuthFixture } from "../fixtures/mcp/oauth-fixture-server.ts";
import { FAST_BACKOFF, tempDir } from "./helpers.ts";

export async function startOAuthDaemon(
  fixture: OAuthFixture,
  server: Record<string, unknown> = {},
  dirs: { oauthDir?: string; cachePath?: string } = {},
  more: Record<string, Record<string, unknown>> = {},
) {
  const mcpServers = { remote: { type: fixture.url.endsWith("/sse") ? "sse" : "http", url: fixture.url, ...server }, ...more };
  const oauthDir = dirs.oauthDir ?? join(tempDir("oauth-"), "oauth");
  const logs: string[] = [];
  const clock = { offsetMs: 0 };
  const socketPath = join(tempSocketDir(), "d.sock");
  const daemon = new Daemon({
    socketPath,
    config: parseConfig({ mcpServers }, "test"),
    configSource: { path: null, explicit: false },
    builtins: builtinTools(),
    logger: createLogger("debug", (line) => logs.push(line)),
    mcpOptions: { cachePath: dirs.cachePath ?? null, backoff: FAST_BACKOFF, oauthDir, oauthNow: () => Date.now() + clock.offsetMs },
  });
  await daemon.start();
  const client = await ToolpoolClient.connect(socketPath);
  const serverState = async (name = "remote") => (await client.servers()).servers.find((entry) => entry.name === name) as ServerSummary;
  return {
    daemon,
    client,
    logs,
    clock,
    oauthDir,
    serverState,
    async login(name = "remote") {
      const started = await client.request(Method.AuthLogin, { name });
      const waiting = client.request(Method.AuthWait, { name });
      const landing = await playBrowser(started.authorizationUrl);
      return { started, landing, done: await waiting };
    },
    socketPath,
    async [Symbol.asyncDispose]() {
      client.close();
      await daemon.stop("test finished");
    },
  };
}

