// test-plan: one tier — profiles through the bridge, no feature() on their path.
/** `toolpool mcp --profile NAME` (and $TOOLPOOL_PROFILE): the host sees and runs only the profile's tools. */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { REPO_ROOT } from "../helpers/binary.ts";
import { startTestDaemon } from "../helpers/daemon-harness.ts";
import { textOf } from "./fixtures.ts";

setDefaultTimeout(30_000);

const MAIN = join(REPO_ROOT, "src", "main.ts");
const config = { profiles: { reading: { include: ["Read", "Grep", "WebFetch"], exclude: [] } } };

async function host(socketPath: string, args: string[], env: Record<string, string> = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, "mcp", "--socket", socketPath, ...args],
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: "pipe",
  });
  const client = new Client({ name: "profile-host", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

describe("the bridge with a profile", () => {
  for (const [how, args, env] of [
    ["--profile", ["--profile", "reading"], {}],
    ["TOOLPOOL_PROFILE", [], { TOOLPOOL_PROFILE: "reading" }],
  ] as const) {
    test(`${how}: tools/list, ToolSearch and calls stay inside the profile`, async () => {
      await using daemon = await startTestDaemon({ config });
      const client = await host(daemon.socketPath, [...args], env);
      try {
        const listed = (await client.listTools()).tools.map((tool) => tool.name).sort();
        expect(listed).toEqual(["ExecuteExtraTool", "Grep", "Read", "ToolSearch"]);
        const found = await client.callTool({ name: "ToolSearch", arguments: { query: "select:WebFetch,Write" } });
        expect(textOf(found)).toContain("WebFetch");
        expect(textOf(found)).toContain("Not found: Write");
        // A tool outside the profile is not in the session's MCP view: MCP answers that with -32602, naming why.
        await expect(client.callTool({ name: "Bash", arguments: { command: "echo hi" } })).rejects.toThrow(
          'MCP error -32602: Bash is not available in this session: it is outside the session\'s tool profile "reading".',
        );
        const viaExecute = await client.callTool({ name: "ExecuteExtraTool", arguments: { tool_name: "Write", params: { file_path: "/tmp/nope", content: "" } } });
        expect(viaExecute.isError).toBe(true);
        expect(textOf(viaExecute)).not.toContain("Wrote");
      } finally {
        await client.close();
      }
    });
  }

  test("an unknown profile: the bridge stops at once, saying why on stderr", async () => {
    await using daemon = await startTestDaemon({ config });
    const child = Bun.spawn([process.execPath, MAIN, "mcp", "--socket", daemon.socketPath, "--profile", "nope"], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "h", version: "1" } } })}\n`);
    child.stdin.end();
    const stderr = await new Response(child.stderr).text();
    expect(await child.exited).not.toBe(0);
    expect(stderr).toContain('unknown profile "nope"; configured profiles: reading');
  });
});
