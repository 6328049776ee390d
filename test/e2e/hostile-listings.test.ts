// test-plan: one tier — the MCP face and server listings are in every tier; the attack is the MCP server's.
/**
 * A hostile MCP server whose listings stay inside every per-tool limit yet add up
 * (test/fixtures/mcp/hostile-listing-server.ts), against the compiled daemon over its real socket
 * and through `toolpool mcp`: what a host is sent must stay inside the line a client reads (8 MiB).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { binaryPath, startBinaryDaemon } from "../helpers/binary.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { RawClient } from "../helpers/raw-client.ts";

setDefaultTimeout(120_000);

const SERVER = join(import.meta.dir, "..", "fixtures", "mcp", "hostile-listing-server.ts");

async function listingDaemon(env: Record<string, string>, entry: Record<string, unknown> = {}) {
  const root = realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "hlisting-")));
  const configPath = join(root, "config.json");
  writeFileSync(configPath, JSON.stringify({ mcpServers: { big: { command: process.execPath, args: [SERVER], env, ...entry } } }));
  const socketPath = join(tempSocketDir(), "l.sock");
  const daemon = await startBinaryDaemon(socketPath, ["--config", configPath], {}, undefined, root);
  return { daemon, socketPath, root };
}

async function waitForTool(client: RawClient, name: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const tools = (await client.request("toolpool/tools")).result as { tools: { name: string }[] };
    client.messages.length = 0;
    if (tools.tools.some((tool) => tool.name === name)) return;
    if (Date.now() > deadline) throw new Error(`${name} never appeared`);
    await Bun.sleep(50);
  }
}

describe("a server's listing that adds up (compiled binary)", () => {
  test("20 eager tools of 250K schemas and a 9 MB output schema: `toolpool mcp` starts and lists every tool, page by page", async () => {
    const { daemon, socketPath } = await listingDaemon({}, { defer: "never" });
    await using _daemon = daemon;
    using client = await RawClient.open(socketPath);
    await waitForTool(client, "mcp__big__huge_output");
    // The daemon's own pages (what every front door relays): each under the line a client reads.
    const pageBytes: number[] = [];
    for (let cursor: string | undefined, first = true; first || cursor !== undefined; first = false) {
      const page = (await client.request("tools/list", cursor === undefined ? {} : { cursor })) as { result: { nextCursor?: string } };
      pageBytes.push(Buffer.byteLength(JSON.stringify(page)));
      client.messages.length = 0;
      cursor = page.result.nextCursor;
    }
    expect({ paged: pageBytes.length > 1, under: pageBytes.every((bytes) => bytes < 8 * 1024 * 1024) }).toEqual({ paged: true, under: true });
    const host = new Client({ name: "listing-host", version: "1" });
    await host.connect(new StdioClientTransport({ command: binaryPath(), args: ["mcp", "--socket", socketPath], env: { ...process.env } as Record<string, string>, stderr: "pipe" }));
    try {
      const pages: { names: string[]; outputs: Record<string, number> }[] = [];
      let cursor: string | undefined;
      do {
        const page = await host.listTools(cursor === undefined ? {} : { cursor });
        const big = page.tools.filter((tool) => tool.name.startsWith("mcp__big__"));
        pages.push({ names: big.map((tool) => tool.name), outputs: Object.fromEntries(big.map((tool) => [tool.name, JSON.stringify(tool.outputSchema ?? null).length])) });
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      const names = pages.flatMap((page) => page.names).sort();
      const outputs = Object.assign({}, ...pages.map((page) => page.outputs)) as Record<string, number>;
      expect({ names, hugeOutput: outputs.mcp__big__huge_output, bigOutput: outputs.mcp__big__big_0! > 250_000 }).toEqual({
        names: ["mcp__big__huge_output", ...Array.from({ length: 20 }, (_, n) => `mcp__big__big_${n}`)].sort(),
        // Past the input schema's limit, an output schema is left out (the tool stays).
        hugeOutput: "null".length,
        bigOutput: true,
      });
    } finally {
      await host.close();
    }
  });
});
