// test-plan: one tier — built-ins every tier has, over the socket.
/**
 * Hostile calls against the compiled daemon over its real socket: each must be answered with a clear
 * tool error (or a plain result), must not stall another client's ping, and must not wedge the
 * daemon's I/O. Time bounds here are generous ceilings that only the old behaviour (tens of seconds
 * to minutes, or a hang) breaks; the latency targets themselves are measured in bench/hostile-calls.ts.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { linkSync, mkdtempSync, readFileSync, realpathSync, renameSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RawClient } from "../helpers/raw-client.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { startBinaryDaemon } from "../helpers/binary.ts";

setDefaultTimeout(60_000);

const HOSTILE_SERVER = join(import.meta.dir, "..", "fixtures", "mcp", "hostile-schema-server.ts");
const SWAP_FILE = join(import.meta.dir, "..", "fixtures", "races", "swap-file.ts");

function workspace(): string {
  return realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "hostile-")));
}

function mkfifo(path: string): void {
  const made = Bun.spawnSync(["mkfifo", path]);
  if (made.exitCode !== 0) throw new Error(`mkfifo failed: ${made.stderr.toString()}`);
}

async function call(client: RawClient, name: string, input: Record<string, unknown>) {
  const response = (await client.request("toolpool/call", { name, input })) as {
    result?: { content: { type: string; text?: string }[]; isError: boolean };
    error?: { code: number; message: string };
  };
  // Only the MCP view of the result matters here (toolpool/call also carries the transcript block).
  return response.result ? { result: { content: response.result.content, isError: response.result.isError } } : response;
}

/** Pings on a second connection until `work` settles; the slowest answer, in ms. */
async function slowestPingDuring<T>(socketPath: string, work: Promise<T>): Promise<{ value: T; slowestPingMs: number }> {
  using pinger = await RawClient.open(socketPath);
  let done = false;
  let slowest = 0;
  const pinging = (async () => {
    while (!done) {
      const started = performance.now();
      await pinger.request("ping");
      slowest = Math.max(slowest, performance.now() - started);
    }
  })();
  const value = await work.finally(() => {
    done = true;
  });
  await pinging;
  return { value, slowestPingMs: slowest };
}

/** The process's peak resident memory (VmHWM), in MB. */
function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kilobytes = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1]);
  if (!Number.isFinite(kilobytes)) throw new Error(`no VmHWM in /proc/${pid}/status`);
  return kilobytes / 1024;
}

/** Resolves with the outcome, or "timed out" after `ms`: a wedged daemon fails the test instead of hanging it. */
function within<T>(ms: number, work: Promise<T>): Promise<T | "timed out"> {
  return Promise.race([work, Bun.sleep(ms).then(() => "timed out" as const)]);
}

describe("hostile calls (compiled binary)", () => {
  test("a 400 KB file_path is refused at once with the limit named; pings are not held up", async () => {
    const root = workspace();
    const socketPath = join(tempSocketDir(), "p.sock");
    await using _daemon = await startBinaryDaemon(socketPath, [], {}, undefined, root);
    using client = await RawClient.open(socketPath);
    const { value, slowestPingMs } = await slowestPingDuring(socketPath, call(client, "Read", { file_path: "/a".repeat(200_000) }));
    expect(value.result).toEqual({
      content: [{ type: "text", text: "Permission denied for Read: file_path is 400,000 bytes long; the limit is 4096 bytes (PATH_MAX). Give a shorter path." }],
      isError: true,
    });
    expect(slowestPingMs).toBeLessThan(1_000);
  });

  test("Grep with a catastrophic pattern answers at once, other clients keep being served, and a backreference is refused with the reason", async () => {
    const root = workspace();
    writeFileSync(join(root, "lines.txt"), `${"a".repeat(28)}!\n`.repeat(200));
    const socketPath = join(tempSocketDir(), "g.sock");
    await using _daemon = await startBinaryDaemon(socketPath, [], {}, undefined, root);
    using client = await RawClient.open(socketPath);
    const { value, slowestPingMs } = await slowestPingDuring(socketPath, call(client, "Grep", { pattern: "^(a+)+$", output_mode: "content" }));
    expect(value.result).toEqual({ content: [{ type: "text", text: "No matches found." }], isError: false });
    expect(slowestPingMs).toBeLessThan(1_000);
    const backreference = await call(client, "Grep", { pattern: "(a)\\1" });
    expect(backreference.result?.isError).toBe(true);
    expect(backreference.result?.content[0]?.text).toContain(
      "- pattern: uses a backreference (\\1), which needs backtracking; patterns are matched by a linear-time engine (RE2 syntax)",
    );
  });

  test("SIGTERM during a hostile Grep stops the daemon within its 10 s budget", async () => {
    const root = workspace();
    for (let index = 0; index < 20; index++) writeFileSync(join(root, `f${index}.txt`), `${"a".repeat(28)}!\n`.repeat(100));
    const socketPath = join(tempSocketDir(), "t.sock");
    await using daemon = await startBinaryDaemon(socketPath, [], {}, undefined, root);
    using client = await RawClient.open(socketPath);
    client.send({ jsonrpc: "2.0", id: "grep", method: "toolpool/call", params: { name: "Grep", input: { pattern: "^(a+)+$", output_mode: "count" } } });
    await client.request("ping");
    const started = performance.now();
    daemon.child.kill("SIGTERM");
    const exited = await within(10_000, daemon.child.exited);
    expect({ exited, withinBudget: performance.now() - started < 10_000 }).toEqual({ exited: 0, withinBudget: true });
  });

  test("racing a large or a small file against a FIFO during Read never wedges the daemon's I/O", async () => {
    const root = workspace();
    const large = join(root, "large.log");
    writeFileSync(large, "");
    truncateSync(large, 64 * 1024 * 1024);
    const small = join(root, "small.log");
    writeFileSync(small, "small\n");
    const fifo = join(root, "pipe");
    mkfifo(fifo);
    const targets = [join(root, "large-target.log"), join(root, "small-target.log")] as const;
    linkSync(large, targets[0]);
    linkSync(small, targets[1]);
    writeFileSync(join(root, "ok.txt"), "still served\n");
    const socketPath = join(tempSocketDir(), "f.sock");
    await using _daemon = await startBinaryDaemon(socketPath, [], {}, undefined, root);
    using client = await RawClient.open(socketPath);
    const swappers = [
      Bun.spawn([process.execPath, SWAP_FILE, targets[0], large, fifo], { stdout: "pipe", stderr: "inherit" }),
      Bun.spawn([process.execPath, SWAP_FILE, targets[1], small, fifo], { stdout: "pipe", stderr: "inherit" }),
    ];
    try {
      for (const swapper of swappers) {
        const reader = swapper.stdout.getReader();
        const { value } = await reader.read();
        reader.releaseLock();
        if (!new TextDecoder().decode(value).includes("ready")) throw new Error("a swapper did not start");
      }
      for (let attempt = 0; attempt < 300; attempt++) {
        const reads = Promise.all(targets.map((target) => call(client, "Read", { file_path: target, offset: 1, limit: 5 })));
        if ((await within(10_000, reads)) === "timed out") throw new Error(`Read ${attempt} never answered: the daemon's I/O is wedged`);
      }
    } finally {
      for (const swapper of swappers) swapper.kill("SIGKILL");
      await Promise.all(swappers.map((swapper) => swapper.exited));
    }
    const after = await within(10_000, Promise.all([call(client, "Read", { file_path: join(root, "ok.txt") }), call(client, "Bash", { command: "echo bash ok" })]));
    expect(after === "timed out" ? after : after.map((response) => response.result?.content[0]?.text)).toEqual(["     1\tstill served", "bash ok\nExit code: 0"]);
  });

  test("a large file swapped in after Read's size check is never loaded: the daemon's peak RSS stays under 300 MB", async () => {
    const root = workspace();
    const small = join(root, "small.txt");
    writeFileSync(small, "small\n");
    // Sparse: 1 GB that takes no disk; a read of it that ignores the size check costs 1 GB of memory.
    const huge = join(root, "huge.bin");
    writeFileSync(huge, "");
    truncateSync(huge, 1024 * 1024 * 1024);
    const target = join(root, "target.txt");
    writeFileSync(target, "small\n");
    const socketPath = join(tempSocketDir(), "r.sock");
    await using daemon = await startBinaryDaemon(socketPath, [], {}, undefined, root);
    using client = await RawClient.open(socketPath);
    const swapper = Bun.spawn([process.execPath, SWAP_FILE, target, small, huge], { stdout: "pipe", stderr: "inherit" });
    try {
      const reader = swapper.stdout.getReader();
      const { value } = await reader.read();
      reader.releaseLock();
      if (!new TextDecoder().decode(value).includes("ready")) throw new Error("the swapper did not start");
      for (let attempt = 0; attempt < 300; attempt++) await call(client, "Read", { file_path: target });
    } finally {
      swapper.kill("SIGKILL");
      await swapper.exited;
    }
    expect(peakRssMb(daemon.child.pid)).toBeLessThan(300);
  });

  test("a SIGHUP while the config path is a FIFO is refused and logged; file tools keep working", async () => {
    const root = workspace();
    writeFileSync(join(root, "ok.txt"), "still served\n");
    const configDir = realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "cfg-")));
    const configPath = join(configDir, "config.json");
    writeFileSync(configPath, JSON.stringify({ workspaceRoots: [root] }));
    const socketPath = join(tempSocketDir(), "h.sock");
    await using daemon = await startBinaryDaemon(socketPath, ["--config", configPath], {}, undefined, root);
    using client = await RawClient.open(socketPath);
    // serve installs its signal handlers just after "listening": an answered request means they are in.
    await client.request("ping");
    mkfifo(join(configDir, "fifo"));
    renameSync(join(configDir, "fifo"), configPath);
    daemon.child.kill("SIGHUP");
    daemon.child.kill("SIGHUP");
    const deadline = Date.now() + 10_000;
    while (!daemon.stderr().includes("config reload failed") && Date.now() < deadline) await Bun.sleep(10);
    expect(daemon.stderr()).toContain(`cannot read config ${configPath}: not a regular file`);
    const read = await within(10_000, call(client, "Read", { file_path: join(root, "ok.txt") }));
    expect(read === "timed out" ? read : read.result).toEqual({ content: [{ type: "text", text: "     1\tstill served" }], isError: false });
  });

  test("hostile MCP schemas: a recursive $ref is a tool error, and a catastrophic pattern is checked at once", async () => {
    const root = workspace();
    const configDir = realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "cfg-")));
    const configPath = join(configDir, "config.json");
    writeFileSync(configPath, JSON.stringify({ mcpServers: { hostile: { command: process.execPath, args: [HOSTILE_SERVER] } } }));
    const socketPath = join(tempSocketDir(), "m.sock");
    await using _daemon = await startBinaryDaemon(socketPath, ["--config", configPath], {}, undefined, root);
    using client = await RawClient.open(socketPath);
    const deadline = Date.now() + 20_000;
    for (;;) {
      const tools = (await client.request("toolpool/tools")).result as { tools: { name: string }[] };
      if (tools.tools.some((tool) => tool.name === "mcp__hostile__self_ref")) break;
      if (Date.now() > deadline) throw new Error("the hostile server's tools never appeared");
      await Bun.sleep(20);
    }
    const selfRef = await call(client, "mcp__hostile__self_ref", { a: 1 });
    expect(selfRef).toMatchObject({
      result: {
        isError: true,
        content: [{ type: "text", text: expect.stringContaining("its input schema refers to itself without end (a recursive $ref)") }],
      },
    });
    const { value, slowestPingMs } = await slowestPingDuring(socketPath, call(client, "mcp__hostile__redos", { text: `${"a".repeat(40)}!` }));
    expect(value.result).toEqual({
      // A blind call (never discovered in this session): the error also carries the schema.
      content: [
        {
          type: "text",
          text: 'Invalid input for mcp__hostile__redos:\n- text: must match pattern "^(a+)+$"\nRewrite the input so it satisfies the tool\'s input schema, then call it again.\n\nThe input schema of mcp__hostile__redos:\n{"type":"object","properties":{"text":{"type":"string","pattern":"^(a+)+$"}},"required":["text"]}',
        },
      ],
      isError: true,
    });
    expect(slowestPingMs).toBeLessThan(1_000);
    const keys = await call(client, "mcp__hostile__redos_keys", { [`${"a".repeat(40)}!`]: 1, aaa: 2 });
    expect(keys.result).toEqual({ content: [{ type: "text", text: "reached redos_keys" }], isError: false });
  });
});
