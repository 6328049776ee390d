// test-plan: one tier — the stdio bridge, no feature() on its path.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolpoolClient } from "../../src/client/client.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { REPO_ROOT } from "../helpers/binary.ts";
import { startBridgeDaemon, textOf, waitUntil } from "./fixtures.ts";

const MAIN = join(REPO_ROOT, "src", "main.ts");

function stdioHost(command: string[], socketPath: string) {
  const [program, ...args] = command;
  return new StdioClientTransport({
    command: program!,
    args: [...args, "mcp", "--socket", socketPath],
    env: { ...process.env } as Record<string, string>,
    stderr: "pipe",
  });
}

async function stopDaemon(socketPath: string): Promise<void> {
  const client = await ToolpoolClient.connect(socketPath);
  const { pid } = await client.status();
  await client.shutdown();
  client.close();
  await waitUntil(() => !alive(pid), `daemon ${pid} to exit`, 15_000);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("toolpool mcp on stdio (a child process, as hosts run it)", () => {
  test("an SDK host over stdio: list, search, run a deferred tool through the running daemon", async () => {
    await using daemon = await startBridgeDaemon();
    const client = new Client({ name: "stdio-host", version: "1" });
    await client.connect(stdioHost([process.execPath, MAIN], daemon.socketPath));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["Echo", "Gate", "Progress", "ToolSearch", "ExecuteExtraTool"]);
      expect(textOf(await client.callTool({ name: "ToolSearch", arguments: { query: "select:TranslateText" } }))).toContain("TranslateText");
      const ran = await client.callTool({ name: "ExecuteExtraTool", arguments: { tool_name: "TranslateText", params: { text: "ok", target: "it" } } });
      expect(textOf(ran)).toBe("[it] ok");
    } finally {
      await client.close();
    }
  });

  test("stdout carries only MCP; the bridge exits 0 when the host closes stdin", async () => {
    await using daemon = await startBridgeDaemon();
    const child = Bun.spawn([process.execPath, MAIN, "mcp", "--socket", daemon.socketPath], { env: { ...process.env }, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } })}\n`,
    );
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" })}\n`);
    // Not JSON, and a batch: each answered with a null id (JSON-RPC), not dropped in silence.
    child.stdin.write("this is not json\n");
    child.stdin.write(`${JSON.stringify([{ jsonrpc: "2.0", id: 3, method: "ping" }])}\n`);
    await child.stdin.flush();
    child.stdin.end();
    const [stdout, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
    const lines = stdout.trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    // The refusals are answered at once, the requests when the daemon answers: ids say which is which.
    const answered = lines.filter((line) => line.id !== null);
    expect(answered.map((line) => line.id)).toEqual([1, 2]);
    expect(lines.filter((line) => line.id === null).map((line) => (line.error as { code: number }).code)).toEqual([-32700, -32600]);
    expect(answered[0]?.result).toMatchObject({ serverInfo: { name: "toolpool" }, capabilities: { tools: { listChanged: true } } });
    expect(answered[1]).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    expect(code).toBe(0);
  });

  test("no daemon running: the bridge starts one in the background, which outlives the bridge", async () => {
    const socketPath = join(tempSocketDir(), "auto.sock");
    const client = new Client({ name: "auto-host", version: "1" });
    const transport = stdioHost([process.execPath, MAIN], socketPath);
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await client.connect(transport);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain("Read");
      const read = await client.callTool({ name: "Read", arguments: { file_path: join(REPO_ROOT, "package.json"), limit: 2 } });
      expect(textOf(read)).toContain('"name": "toolpool"');
      expect(stderr).toContain(`started a daemon in the background`);
      expect(stderr).toContain(`socket ${socketPath}`);
    } finally {
      await client.close();
    }
    await stopDaemon(socketPath);
  });
});
