// test-plan: one tier — the MCP servers' sandbox, the same code in every tier.
/**
 * MCP servers in the sandbox their config asks for, with the real reference servers against the
 * compiled daemon: the filesystem server allowed two directories but confined to one cannot read,
 * write or follow a link into the other; the memory server keeps its file; every server process
 * dies with a `kill -9`ed daemon; a server that asks for a sandbox where there is none never starts.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ToolpoolClient } from "../../src/client/client.ts";
import { REPO_ROOT, startBinaryDaemon } from "../helpers/binary.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { bwrapWorks } from "../helpers/bwrap.ts";

setDefaultTimeout(60_000);

const describeSandbox = bwrapWorks() ? describe : describe.skip;

const SECRET = `outside-${Math.random().toString(36).slice(2)}`;
const bin = (name: string) => join(REPO_ROOT, "node_modules", ".bin", name);

function dirs() {
  const base = realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "srv-")));
  const inside = join(base, "inside");
  const outside = join(base, "outside");
  const memory = join(base, "memory");
  for (const dir of [inside, outside, memory]) mkdirSync(dir);
  writeFileSync(join(inside, "in.txt"), "inside text");
  writeFileSync(join(outside, "secret.txt"), SECRET);
  symlinkSync(join(outside, "secret.txt"), join(inside, "link.txt"));
  return { base, inside, outside, memory };
}

async function start(mcpServers: Record<string, unknown>, env: Record<string, string> = {}) {
  const dir = tempSocketDir();
  const configPath = join(dir, "config.json");
  writeFileSync(configPath, JSON.stringify({ mcpServers }));
  const socketPath = join(dir, "m.sock");
  const daemon = await startBinaryDaemon(socketPath, ["--config", configPath], env);
  const client = await ToolpoolClient.connect(socketPath);
  return { daemon, client };
}

async function waitFor<T>(probe: () => Promise<T | undefined | false> | T | undefined | false, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

const closing = (client: ToolpoolClient) => ({ [Symbol.dispose]: () => client.close() });
const text = (result: { content: unknown[] }) => result.content.map((block) => (block as { text?: string }).text ?? "").join("");

describeSandbox("MCP servers in a sandbox", () => {
  test("filesystem server: allowed both dirs but confined to one, it cannot read, write or follow a link outside; unconfined it can", async () => {
    const { inside, outside } = dirs();
    const fs = (sandbox?: unknown) => ({ command: bin("mcp-server-filesystem"), args: [inside, outside], ...(sandbox !== undefined && { sandbox }) });
    const calls = async (client: ToolpoolClient) => {
      await waitFor(async () => (await client.tools()).tools.some((tool) => tool.name === "mcp__fs__read_text_file"), "the filesystem server's tools");
      const read = async (path: string) => text(await client.call({ name: "mcp__fs__read_text_file", input: { path } }));
      return {
        inside: await read(join(inside, "in.txt")),
        outside: (await read(join(outside, "secret.txt"))).includes(SECRET),
        link: (await read(join(inside, "link.txt"))).includes(SECRET),
        write: (await client.call({ name: "mcp__fs__write_file", input: { path: join(outside, "new.txt"), content: "x" } })).isError,
      };
    };

    const open = await start({ fs: fs() });
    {
      await using _d = open.daemon;
      using _c = closing(open.client);
      // The server itself allows the outside dir: without the sandbox it reads and writes there.
      expect(await calls(open.client)).toEqual({ inside: "inside text", outside: true, link: true, write: false });
    }
    await Bun.file(join(outside, "new.txt")).delete();

    const confined = await start({ fs: fs({ writable: [inside] }) });
    await using _d = confined.daemon;
    using _c = closing(confined.client);
    expect(await calls(confined.client)).toEqual({ inside: "inside text", outside: false, link: false, write: true });
    expect(existsSync(join(outside, "new.txt"))).toBe(false);
    // Inside its directory it still writes.
    expect((await confined.client.call({ name: "mcp__fs__write_file", input: { path: join(inside, "made.txt"), content: "made" } })).isError).toBe(false);
    expect(readFileSync(join(inside, "made.txt"), "utf8")).toBe("made");
  });

  test("memory server confined to its directory keeps its file; kill -9 of the daemon ends every server process", async () => {
    const { memory, inside } = dirs();
    const { daemon, client } = await start({
      mem: { command: bin("mcp-server-memory"), env: { MEMORY_FILE_PATH: join(memory, "memory.jsonl") }, sandbox: { writable: [memory] } },
      fs: { command: bin("mcp-server-filesystem"), args: [inside], sandbox: { writable: [inside] } },
    });
    using _c = closing(client);
    await waitFor(async () => (await client.tools()).tools.some((tool) => tool.name === "mcp__mem__create_entities"), "the memory server's tools");
    const created = await client.call({ name: "mcp__mem__create_entities", input: { entities: [{ name: SECRET, entityType: "t", observations: ["o"] }] } });
    expect(created.isError).toBe(false);
    expect(readFileSync(join(memory, "memory.jsonl"), "utf8")).toContain(SECRET);

    await waitFor(async () => (await client.servers()).servers.every((server) => server.state === "connected"), "both servers");
    const processes = () => Bun.spawnSync(["pgrep", "-f", `${memory}|${inside}`]).stdout.toString().split("\n").filter(Boolean).map(Number);
    const before = processes();
    expect(before.length).toBeGreaterThanOrEqual(2);
    daemon.child.kill("SIGKILL");
    await daemon.child.exited;
    try {
      await waitFor(() => processes().length === 0, "every server process to die with the daemon");
    } finally {
      for (const pid of processes()) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {}
      }
    }
  });
});

describe("a server that asks for a sandbox where there is none", () => {
  test("is not started, and says why", async () => {
    const { inside } = dirs();
    const { daemon, client } = await start({ fs: { command: bin("mcp-server-filesystem"), args: [inside], sandbox: { writable: [inside] } } }, { TOOLPOOL_BWRAP: "/nonexistent/bwrap" });
    await using _d = daemon;
    using _c = closing(client);
    const server = await waitFor(async () => (await client.servers()).servers.find((entry) => entry.state === "failed" || entry.state === "parked"), "the server to fail");
    expect(server.reason).toContain("its config asks for a sandbox and there is none here (bubblewrap was named at /nonexistent/bwrap, which does not exist), so it is not started");
  });
});
