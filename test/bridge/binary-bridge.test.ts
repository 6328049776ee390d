/**
 * The compiled binary as MCP hosts run it: `toolpool-<tier> mcp` with no daemon running starts
 * `toolpool-<tier> serve` in the background (the binary is its own command), serves over stdio,
 * and the daemon it started is the tier's own. Needs the build (npm test builds first).
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolpoolClient } from "../../src/client/client.ts";
import { binaryPath, testTier } from "../helpers/binary.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { waitUntil } from "./fixtures.ts";

test("compiled mcp: starts the tier's daemon in the background and bridges to it", async () => {
  const socketPath = join(tempSocketDir(), "bin.sock");
  const transport = new StdioClientTransport({
    command: binaryPath(),
    args: ["mcp", "--socket", socketPath],
    env: { ...process.env } as Record<string, string>,
    stderr: "pipe",
  });
  const client = new Client({ name: "binary-host", version: "1" });
  await client.connect(transport);
  let daemonPid = 0;
  try {
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("Read");
    const daemon = await ToolpoolClient.connect(socketPath);
    const status = await daemon.status();
    daemonPid = status.pid;
    expect({ tier: status.tier, compiled: status.compiled }).toEqual({ tier: testTier(), compiled: true });
    daemon.close();
  } finally {
    await client.close();
  }
  // The bridge is gone; the daemon it started is still serving, until told to stop.
  const daemon = await ToolpoolClient.connect(socketPath);
  await daemon.shutdown();
  daemon.close();
  await waitUntil(() => {
    try {
      process.kill(daemonPid, 0);
      return false;
    } catch {
      return true;
    }
  }, "the background daemon to exit", 15_000);
}, 30_000);
