// test-plan: one tier — the socket's bounds, the same code in every tier.
/**
 * Connection ceilings against the compiled binary over its real socket: unfinished lines time out,
 * a shared buffer budget drops the largest holder, clients that never read are paused rather than
 * buffered for, and the accept loop neither spins nor hangs at the descriptor limit. Each attack
 * also checks that another client is still served.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { RawClient } from "../helpers/raw-client.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { binaryPath, startBinaryDaemon } from "../helpers/binary.ts";
import { waitFor as waitUntil } from "../helpers/wait.ts";

async function daemonWithConfig(config: Record<string, unknown>) {
  const dir = tempSocketDir();
  const configPath = join(dir, "config.json");
  await Bun.write(configPath, JSON.stringify(config));
  const socketPath = join(dir, "c.sock");
  return { socketPath, daemon: await startBinaryDaemon(socketPath, ["--config", configPath]) };
}

function rssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((entry) => entry.startsWith("VmRSS:"));
  return Number.parseInt(line?.split(/\s+/)[1] ?? "0", 10) * 1024;
}

function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return Number(fields[11]) + Number(fields[12]); // utime + stime
}

async function pingAnswered(socketPath: string): Promise<unknown> {
  using other = await RawClient.open(socketPath);
  return (await other.request("ping")).result;
}

describe("connection ceilings (compiled binary)", () => {
  test("a line left unfinished past the timeout closes its connection, with the reason and a log line", async () => {
    const { socketPath, daemon } = await daemonWithConfig({ connections: { partialLineTimeoutMs: 300 } });
    await using _ = daemon;
    using slow = await RawClient.open(socketPath);
    slow.socket.write('{"jsonrpc":"2.0","id":1,"method":"pi');
    await slow.waitClosed(10_000);
    expect(slow.messages).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: "A line stayed unfinished for 300 ms; closing this connection." } },
    ]);
    await waitUntil(() => daemon.stderr().includes('"closing connection: a line stayed unfinished too long"'), "the log line");
    // A client that finishes its lines is never timed out, however long it stays.
    using steady = await RawClient.open(socketPath);
    steady.socket.write('{"jsonrpc":"2.0","id":1,');
    await Bun.sleep(100);
    steady.socket.write('"method":"ping"}\n');
    expect((await steady.waitFor((m) => m.id === 1)).result).toEqual({});
    expect(await pingAnswered(socketPath)).toEqual({});
  });

  test("past the shared buffer budget the connection holding the most is dropped first; the others and the daemon live on", async () => {
    const budget = 16 * 1024 * 1024;
    const { socketPath, daemon } = await daemonWithConfig({ connections: { bufferBudgetBytes: budget } });
    await using _ = daemon;
    // Three 3 MiB partial lines fit; a fourth connection sending 9 MiB... is over the line limit, so
    // it sends 7 MiB: 3 × 3 + 7 = 16 MiB + a byte over the budget, and it holds the most.
    const holders = await Promise.all([0, 1, 2].map(() => RawClient.open(socketPath)));
    for (const holder of holders) holder.socket.write(Buffer.alloc(3 * 1024 * 1024, 0x61));
    using big = await RawClient.open(socketPath);
    big.socket.write(Buffer.alloc(7 * 1024 * 1024 + 1, 0x62));
    await big.waitClosed(10_000);
    expect(big.messages[0]?.error).toEqual({
      code: -32600,
      message: expect.stringContaining(`buffer budget (${budget} bytes across all connections) is spent and this connection held the most`),
    });
    await waitUntil(() => daemon.stderr().includes('"closing connection: the connections\' buffer budget is spent and it holds the most"'), "the log line");
    // The smaller holders were not dropped: each can still finish its line and be answered.
    for (const [index, holder] of holders.entries()) {
      expect(holder.closed).toBe(false);
      holder.socket.write(`\n{"jsonrpc":"2.0","id":${index},"method":"ping"}\n`);
      expect((await holder.waitFor((m) => m.id === index)).result).toEqual({});
      holder.socket.destroy();
    }
    expect(await pingAnswered(socketPath)).toEqual({});
    expect(daemon.child.exitCode).toBeNull();
  });

  test("clients that pipeline and never read are paused, not buffered for: memory stays bounded and every answer arrives once they read", async () => {
    const { socketPath, daemon } = await daemonWithConfig({});
    await using _ = daemon;
    const requests = 10_000; // ~15 KB answers each: ~150 MB per client if the daemon buffered them (and it cut them off at 64 MB)
    const clients: Socket[] = [];
    for (let index = 0; index < 8; index++) {
      const socket = connect(socketPath);
      await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
      socket.pause(); // never reads
      socket.write(Array.from({ length: requests }, (_, id) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list" })).join("\n") + "\n");
      clients.push(socket);
    }
    const pid = daemon.child.pid;
    let peak = 0;
    // Until the daemon has stopped reading from every one of them, its CPU time keeps moving.
    for (let previous = -1, now = cpuTicks(pid); now !== previous; previous = now, now = cpuTicks(pid)) {
      for (let sample = 0; sample < 10; sample++) {
        peak = Math.max(peak, rssBytes(pid));
        await Bun.sleep(20);
      }
    }
    expect(peak).toBeLessThan(300 * 1024 * 1024);
    expect(await pingAnswered(socketPath)).toEqual({});
    // Back-pressure loses nothing: a client that starts reading gets all its answers.
    const reader = clients[0]!;
    let buffered = "";
    let answers = 0;
    reader.setEncoding("utf8");
    reader.on("data", (chunk: string) => {
      buffered += chunk;
      let newline = buffered.indexOf("\n");
      while (newline !== -1) {
        answers++;
        buffered = buffered.slice(newline + 1);
        newline = buffered.indexOf("\n");
      }
    });
    reader.resume();
    await waitUntil(() => answers >= requests, `${requests} answers (got ${answers})`, 60_000);
    expect(answers).toBe(requests);
    for (const socket of clients) socket.destroy();
    expect(daemon.child.exitCode).toBeNull();
  }, 120_000);

  test("at the descriptor limit new clients are refused with a message and the daemon does not spin", async () => {
    const socketPath = join(tempSocketDir(), "f.sock");
    const child = Bun.spawn(["sh", "-c", 'ulimit -n 64 && exec "$0" serve --socket "$1"', binaryPath(), socketPath], { env: process.env, stdout: "pipe", stderr: "pipe" });
    let stderr = "";
    void (async () => {
      for await (const chunk of child.stderr) stderr += new TextDecoder().decode(chunk);
    })();
    try {
      await waitUntil(() => stderr.includes('"listening"'), "the daemon to listen");
      const clients = await Promise.all(Array.from({ length: 80 }, () => RawClient.open(socketPath)));
      await waitUntil(() => clients.filter((client) => client.closed).length >= 40, "refused clients to be closed");
      const refused = clients.filter((client) => client.closed);
      expect(refused[0]!.messages).toEqual([{ jsonrpc: "2.0", id: null, error: { code: -32000, message: expect.stringContaining("Too many connections") } }]);
      expect(stderr).toContain('"refusing connections: at the connection ceiling"');
      // Not spinning: over a second, the daemon uses well under one core (a spinning accept loop uses all of it).
      const before = cpuTicks(child.pid);
      await Bun.sleep(1_000);
      expect(cpuTicks(child.pid) - before).toBeLessThan(50); // clock ticks: 100 per second
      const served = clients.filter((client) => !client.closed);
      expect((await served[0]!.request("ping")).result).toEqual({});
      for (const client of clients) client.socket.destroy();
      // Once they are gone, a newcomer is served again.
      let answer: unknown;
      for (let attempt = 0; attempt < 50 && answer === undefined; attempt++) {
        answer = await pingAnswered(socketPath).catch(() => Bun.sleep(50).then(() => undefined));
      }
      expect(answer).toEqual({});
    } finally {
      child.kill("SIGKILL");
      await child.exited;
    }
  }, 30_000);
});
