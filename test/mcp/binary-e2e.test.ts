// test-plan: one tier — MCP servers behind the binary, no tier feature on their path.
/** The compiled binary with real MCP servers: config and --demo, tools over the socket, the CLI, shutdown. */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolpoolClient } from "../../src/client/client.ts";
import { binaryPath, runBinary, startBinaryDaemon } from "../helpers/binary.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { groupMembers, REPO_ROOT, tempDir, waitFor } from "./helpers.ts";

// Real server processes: generous on a loaded machine; each test waits on conditions, not on time.
setDefaultTimeout(30_000);

describe("MCP servers in the compiled daemon", () => {
  test("a reference server's tool appears in toolpool/tools and can be called; shutdown leaves no server behind", async () => {
    const dir = tempDir();
    const configPath = join(dir, "config.json");
    writeFileSync(
      configPath,
      JSON.stringify({
        mcpServers: {
          memory: { command: join(REPO_ROOT, "node_modules", ".bin", "mcp-server-memory"), env: { MEMORY_FILE_PATH: "${E2E_MEMORY_DIR}/memory.jsonl" } },
        },
      }),
    );
    const socketPath = join(tempSocketDir(), "e.sock");
    await using daemon = await startBinaryDaemon(socketPath, ["--config", configPath], { E2E_MEMORY_DIR: dir });
    const client = await ToolpoolClient.connect(socketPath);
    try {
      await waitFor(async () => (await client.tools()).tools.some((tool) => tool.name === "mcp__memory__create_entities"), "memory's tools", 15_000);
      const entities = [{ name: "Grace Hopper", entityType: "person", observations: ["found a moth"] }];
      const created = await client.call({ name: "mcp__memory__create_entities", input: { entities } });
      expect(created.isError).toBe(false);
      expect(JSON.parse((created.content[0] as { text: string }).text)).toEqual(entities);

      const cli = await runBinary(["servers", "--socket", socketPath]);
      expect(cli.code).toBe(0);
      expect(cli.stdout).toMatch(/^memory\s+connected\s+9 tools, stdio, pid \d+\n$/);
      const { servers } = await client.servers();
      const pid = servers[0]!.pid!;
      expect(groupMembers(pid).length).toBeGreaterThan(0);

      daemon.child.kill("SIGTERM");
      expect(await daemon.child.exited).toBe(0);
      expect(groupMembers(pid)).toEqual([]);
    } finally {
      client.close();
    }
  });

  test("serve --demo shows the reference servers' tools in `toolpool tools`, and removes its scratch dir at stop", async () => {
    const demoDirs = () => readdirSync(tmpdir()).filter((name) => name.startsWith("toolpool-demo-"));
    expect(demoDirs()).toEqual([]);
    const socketPath = join(tempSocketDir(), "demo.sock");
    const child = Bun.spawn([binaryPath(), "serve", "--demo", "--socket", socketPath], { cwd: REPO_ROOT, env: { ...process.env }, stdout: "ignore", stderr: "pipe" });
    try {
      const client = await waitFor(() => ToolpoolClient.connect(socketPath).catch(() => undefined), "the daemon's socket");
      client.close();
      await waitFor(async () => {
        const servers = await runBinary(["servers", "--json", "--socket", socketPath]);
        const parsed = JSON.parse(servers.stdout) as { servers: { state: string }[] };
        return parsed.servers.length === 4 && parsed.servers.every((server) => server.state === "connected");
      }, "the four demo servers", 20_000);
      const tools = await runBinary(["tools", "--socket", socketPath]);
      for (const name of ["mcp__everything__echo", "mcp__memory__read_graph", "mcp__filesystem__list_directory", "mcp__sequential-thinking__sequentialthinking"]) {
        expect(tools.stdout).toContain(name);
      }
      const call = await runBinary(["call", "mcp__everything__echo", '{"message":"demo"}', "--socket", socketPath]);
      expect([call.stdout, call.code]).toEqual(["Echo: demo\n", 0]);
      expect(demoDirs().length).toBe(1); // made by the daemon, in the TMPDIR it inherited
    } finally {
      child.kill("SIGTERM");
      await child.exited;
    }
    // The demo's scratch dir goes with the daemon.
    expect(demoDirs()).toEqual([]);
  });
});
