/**
 * Configs of spec servers (test/fixtures/mcp/spec-server.ts, a server made from a JSON spec) for
 * tests of the compiled binary: each spec is written beside the config, whose `mcpServers` entry runs
 * the fixture on it (a spec's `entry` is merged into that entry: `defer`, `alwaysLoad`…).
 */
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startConfiguredDaemon } from "./configured-daemon.ts";

export const SPEC_SERVER = join(import.meta.dir, "..", "fixtures", "mcp", "spec-server.ts");

export type Specs = Record<string, Record<string, unknown>>;

/** A new directory under the test root with one spec file per server and `config.json` holding `config` and the servers. */
export function specConfig(prefix: string, specs: Specs, config: Record<string, unknown> = {}): { root: string; path: string } {
  const root = realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, prefix)));
  const mcpServers: Record<string, unknown> = {};
  for (const [name, { entry, ...spec }] of Object.entries(specs)) {
    writeFileSync(join(root, `${name}.json`), JSON.stringify(spec));
    mcpServers[name] = { command: process.execPath, args: [SPEC_SERVER], env: { SPEC_FILE: join(root, `${name}.json`) }, ...(entry as Record<string, unknown> | undefined) };
  }
  const path = join(root, "config.json");
  writeFileSync(path, JSON.stringify({ ...config, mcpServers }));
  return { root, path };
}

/** The compiled daemon on a spec config, once every server is connected. */
export function startSpecDaemon(root: string, path: string) {
  return startConfiguredDaemon(root, path, async (request) => {
    const { servers } = (await request("toolpool/servers")) as { servers: { state: string }[] };
    return servers.every((server) => server.state === "connected");
  }, "the spec servers connecting");
}
