/**
 * Hostile clients against the compiled daemon (dist/toolpool-pro), over its real socket:
 *   partialLines — 100 connections, each sending an unfinished line of just under 8 MiB;
 *   pipelining   — 20 clients each pipelining 10,000 `tools/list` requests and never reading.
 * For each: the daemon's peak RSS during the attack, its RSS once the attackers are gone, how many
 * attackers were dropped, and another client's `ping` latency (p50/p99/max) throughout.
 * Prints JSON. Run: ./node_modules/.bin/bun run bench/hostile.ts (build first).
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";

const binary = join(import.meta.dir, "..", "dist", "toolpool-pro");
const MIB = 1024 * 1024;

// The pinger runs in a process of its own: the attackers' writes must not delay its own event loop.
if (process.argv[2] === "--pinger") {
  const socket = await new Promise<Socket>((resolve) => {
    const opened = connect(process.argv[3]!);
    opened.once("connect", () => resolve(opened));
  });
  const handle = pinger(socket);
  process.stdin.on("data", () => {});
  await new Promise<void>((resolve) => process.stdin.on("end", () => resolve()));
  console.log(JSON.stringify(await handle.stop()));
  process.exit(0);
}

const dir = mkdtempSync("/tmp/tp-hostile-");
const socketPath = join(dir, "h.sock");
function rss(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((entry) => entry.startsWith("VmRSS:"));
  return Number.parseInt(line?.split(/\s+/)[1] ?? "0", 10) * 1024;
}

function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    socket.once("connect", () => resolve(socket));
    socket.once("error", reject);
  });
}

/** Pings on its own connection, one at a time, until stopped; returns the latencies in ms. */
function pinger(socket: Socket) {
  const latencies: number[] = [];
  let running = true;
  let buffered = "";
  let waiting: (() => void) | undefined;
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    buffered += chunk;
    if (buffered.includes("\n")) {
      buffered = "";
      waiting?.();
    }
  });
  const done = (async () => {
    for (let id = 1; running; id++) {
      const started = performance.now();
      await new Promise<void>((resolve) => {
        waiting = resolve;
        socket.write(`{"jsonrpc":"2.0","id":${id},"method":"ping"}\n`);
      });
      latencies.push(performance.now() - started);
      await Bun.sleep(10);
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return latencies;
    },
  };
}

function summary(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => Number((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(2));
  return { pings: sorted.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: Number((sorted.at(-1) ?? 0).toFixed(2)) };
}

async function attack(pid: number, name: string, run: () => Promise<Socket[]>) {
  const other = Bun.spawn([process.execPath, import.meta.path, "--pinger", socketPath], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
  let peak = rss(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rss(pid))), 20);
  const started = performance.now();
  const attackers = await run();
  let dropped = 0;
  for (const socket of attackers) socket.once("close", () => dropped++);
  await Bun.sleep(3_000);
  clearInterval(sampler);
  other.stdin.end();
  const latencies = JSON.parse(await new Response(other.stdout).text()) as number[];
  const droppedByDaemon = dropped;
  for (const socket of attackers) socket.destroy();
  await Bun.sleep(2_000);
  return { attack: name, attackers: attackers.length, dropped: droppedByDaemon, peakRssMiB: +(peak / MIB).toFixed(1), afterRssMiB: +(rss(pid) / MIB).toFixed(1), seconds: +((performance.now() - started) / 1000).toFixed(1), ping: summary(latencies) };
}

const daemon = Bun.spawn([binary, "serve", "--socket", socketPath], { stdout: "ignore", stderr: "pipe" });
const logLines: string[] = [];
void (async () => {
  for await (const chunk of daemon.stderr) logLines.push(new TextDecoder().decode(chunk));
})();
while (!logLines.join("").includes('"listening"')) await Bun.sleep(10);
const idleRssMiB = +(rss(daemon.pid) / MIB).toFixed(1);

const line = Buffer.alloc(8 * MIB - 16, 0x61);
const partialLines = await attack(daemon.pid, "100 connections × unfinished 8 MiB line", async () => {
  const sockets = await Promise.all(Array.from({ length: 100 }, open));
  for (const socket of sockets) {
    socket.on("error", () => {});
    socket.on("data", () => {});
    socket.write(line);
  }
  return sockets;
});

const requests = Array.from({ length: 10_000 }, (_, id) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list" })).join("\n") + "\n";
const pipelining = await attack(daemon.pid, "20 clients × 10,000 pipelined tools/list, never reading", async () => {
  const sockets = await Promise.all(Array.from({ length: 20 }, open));
  for (const socket of sockets) {
    socket.on("error", () => {});
    socket.pause();
    socket.write(requests);
  }
  return sockets;
});

daemon.kill("SIGTERM");
await daemon.exited;
const log = logLines.join("");
console.log(
  JSON.stringify(
    {
      binary: "dist/toolpool-pro",
      idleRssMiB,
      attacks: [partialLines, pipelining],
      logLines: {
        budgetDrops: log.split('"closing connection: the connections\' buffer budget is spent').length - 1,
        partialLineTimeouts: log.split('"closing connection: a line stayed unfinished too long"').length - 1,
        outboundCutoffs: log.split('"closing connection: client is not reading its responses"').length - 1,
      },
    },
    null,
    2,
  ),
);
