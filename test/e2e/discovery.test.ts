// test-plan: one tier — socket discovery and the bridge's start-up, the same code in every tier.
/**
 * Socket discovery without the environment, on the built binary: a host that starts `toolpool mcp`
 * with nothing but HOME and PATH (Inspector 2.x, desktop hosts) reaches the daemon `serve` started
 * with XDG_RUNTIME_DIR and XDG_CONFIG_HOME set, instead of a second, empty one.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ToolpoolClient } from "../../src/client/client.ts";
import { binaryPath, runBinary, startBinaryDaemon } from "../helpers/binary.ts";

setDefaultTimeout(60_000);

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A user's home with a runtime dir and a config dir (profile "reader": Read only), as a desktop session has. */
function userHome() {
  const home = mkdtempSync(join("/tmp", "tp-disc-"));
  made.push(home);
  const run = join(home, "run");
  const configHome = join(home, "cfg");
  mkdirSync(run, { mode: 0o700 });
  mkdirSync(join(configHome, "toolpool"), { recursive: true });
  chmodSync(run, 0o700);
  writeFileSync(join(configHome, "toolpool", "config.json"), JSON.stringify({ profiles: { reader: { include: ["Read"] } } }));
  const socket = join(run, "toolpool", "toolpool.sock");
  // What `serve` (or the unit) sees; the trimmed env below has none of it.
  const full = { HOME: home, XDG_RUNTIME_DIR: run, XDG_CONFIG_HOME: configHome, XDG_STATE_HOME: join(home, "state") };
  const trimmed = { HOME: home, PATH: process.env.PATH ?? "/usr/bin:/bin" };
  return { home, run, socket, full, trimmed };
}

/** `env -i` then exactly `env`: no variable of the test process leaks in. */
async function runTrimmed(args: string[], env: Record<string, string>) {
  const child = Bun.spawn([binaryPath(), ...args], { env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, stdout, stderr };
}

/** A stdio MCP host speaking raw JSON lines to `command`, with exactly `env`. */
function stdioHost(command: string[], env: Record<string, string>) {
  const child = Bun.spawn(command, { env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const messages: Record<string, unknown>[] = [];
  void (async () => {
    let buffered = "";
    for await (const chunk of child.stdout) {
      buffered += new TextDecoder().decode(chunk);
      let end;
      while ((end = buffered.indexOf("\n")) !== -1) {
        messages.push(JSON.parse(buffered.slice(0, end)));
        buffered = buffered.slice(end + 1);
      }
    }
  })();
  const send = (message: Record<string, unknown>) => {
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
    child.stdin.flush();
  };
  const waitFor = async (match: (message: Record<string, unknown>) => boolean, what: string) => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const found = messages.find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no ${what}; got ${JSON.stringify(messages)}`);
      await Bun.sleep(10);
    }
  };
  const request = async (id: number, method: string, params: Record<string, unknown> = {}) => {
    send({ id, method, params });
    return waitFor((message) => message.id === id, `answer to ${method}`);
  };
  const initialize = () => request(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "trimmed-host", version: "1" } });
  return {
    child,
    messages,
    request,
    initialize,
    send,
    waitFor,
    async [Symbol.asyncDispose]() {
      child.stdin.end();
      if (child.exitCode === null) child.kill();
      await child.exited;
    },
  };
}

/** The record is written just after the daemon listens. */
async function recordWritten(home: string): Promise<string> {
  const record = join(home, ".local", "state", "toolpool", "daemon.json");
  const deadline = Date.now() + 10_000;
  while (!existsSync(record)) {
    if (Date.now() > deadline) throw new Error(`${record} was not written`);
    await Bun.sleep(10);
  }
  return record;
}

async function toolNames(host: ReturnType<typeof stdioHost>) {
  const listed = (await host.request(2, "tools/list")).result as { tools: { name: string }[] };
  return listed.tools.map((tool) => tool.name);
}

describe("discovery without the environment", () => {
  test("env -i HOME PATH: status, mcp and a `host add` entry reach the daemon serve started with XDG_RUNTIME_DIR and XDG_CONFIG_HOME", async () => {
    const user = userHome();
    await using daemon = await startBinaryDaemon(user.socket, [], user.full);
    await recordWritten(user.home);
    const status = await runTrimmed(["status", "--json"], user.trimmed);
    expect({ code: status.code, pid: JSON.parse(status.stdout).pid, socket: JSON.parse(status.stdout).socket }).toEqual({ code: 0, pid: daemon.child.pid, socket: user.socket });

    // The profile exists only in the config under XDG_CONFIG_HOME: only that daemon knows it.
    {
      await using host = stdioHost([binaryPath(), "mcp", "--profile", "reader"], user.trimmed);
      expect((await host.initialize()).error).toBeUndefined();
      host.send({ method: "notifications/initialized" });
      expect((await toolNames(host)).filter((name) => ["Read", "Write", "Bash"].includes(name))).toEqual(["Read"]);
    }

    const added = await runBinary(["host", "add", "claude-desktop", "--json"], { ...user.trimmed, XDG_CONFIG_HOME: join(user.home, ".config") });
    expect(added.code).toBe(0);
    const file = JSON.parse(readFileSync(join(user.home, ".config", "Claude", "claude_desktop_config.json"), "utf8"));
    const entry = file.mcpServers.toolpool as { command: string; args: string[]; env?: Record<string, string> };
    const client = await ToolpoolClient.connect(user.socket);
    try {
      const before = (await client.status()).sessions.active;
      await using host = stdioHost([entry.command, ...entry.args, "--profile", "reader"], { ...user.trimmed, ...entry.env });
      expect((await host.initialize()).error).toBeUndefined();
      expect((await client.status()).sessions.active).toBe(before + 1);
    } finally {
      client.close();
    }
  });

  test("with no daemon running, the bridge starts one with the recorded socket and config, and tells the host (instructions and a log message)", async () => {
    const user = userHome();
    {
      await using daemon = await startBinaryDaemon(user.socket, [], user.full);
      await recordWritten(user.home);
      daemon.child.kill("SIGTERM");
      await daemon.child.exited;
    }
    await using host = stdioHost([binaryPath(), "mcp", "--profile", "reader"], user.trimmed);
    const init = (await host.initialize()) as { result?: { instructions?: string } };
    host.send({ method: "notifications/initialized" });
    try {
      expect(init.result?.instructions).toContain(`no daemon was running, so this bridge started a daemon in the background`);
      expect(init.result?.instructions).toContain(`socket ${user.socket}`);
      expect(init.result?.instructions).toContain(`config ${join(user.full.XDG_CONFIG_HOME, "toolpool", "config.json")}`);
      const log = (await host.waitFor((message) => message.method === "notifications/message", "log message")) as { params: { level: string; data: string } };
      expect({ level: log.params.level, started: log.params.data.includes("started a daemon in the background") }).toEqual({ level: "warning", started: true });
      expect((await toolNames(host)).filter((name) => ["Read", "Write"].includes(name))).toEqual(["Read"]);
    } finally {
      const client = await ToolpoolClient.connect(user.socket);
      await client.shutdown();
      client.close();
    }
  });

  test("a record someone else could have written is not followed", async () => {
    const user = userHome();
    await using _daemon = await startBinaryDaemon(user.socket, [], user.full);
    const record = await recordWritten(user.home);
    expect(JSON.parse(readFileSync(record, "utf8")).socket).toBe(user.socket);
    chmodSync(record, 0o622);
    const status = await runTrimmed(["status", "--json"], user.trimmed);
    // Not our daemon (another of this uid may answer on /tmp/toolpool-<uid>; on a clean machine, none).
    expect(JSON.parse(status.stdout).socket).not.toBe(user.socket);
  });

  test("mcp --profile nope answers initialize with an error that names the profile, then exits", async () => {
    const user = userHome();
    await using _daemon = await startBinaryDaemon(user.socket, [], user.full);
    await using host = stdioHost([binaryPath(), "mcp", "--profile", "nope"], user.full);
    const init = (await host.initialize()) as { error?: { message: string } };
    expect(init.error?.message).toContain("nope");
    expect(await host.child.exited).toBe(1);
  });
});
