#!/usr/bin/env bun
/**
 * Front doors, timed on the built binary and the HTTP bridge. Prints JSON: wall time of
 * `COMMAND --help` for serve, mcp and status (the target is well under 1 s: nothing is started),
 * of `install` into a temp HOME, and of N sequential one-shot HTTP bridge clients (initialize,
 * initialized, tools/list, never DELETE) against a daemon, with the evictions they caused.
 * Usage: bun bench/front-doors.ts [--tier pro] [--runs 5] [--clients 1000]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { DaemonBridge } from "../src/bridge/daemon-bridge.ts";
import { startHttpBridge } from "../src/bridge/http-bridge.ts";
import { builtinTools } from "../src/builtin/list.ts";
import { ToolpoolClient } from "../src/client/client.ts";
import { parseConfig } from "../src/config/load.ts";
import { Daemon } from "../src/daemon/daemon.ts";
import { silentLogger } from "../src/runtime/logger.ts";

const { values } = parseArgs({ options: { tier: { type: "string", default: "pro" }, runs: { type: "string", default: "5" }, clients: { type: "string", default: "1000" } } });
const binary = join(import.meta.dir, "..", "dist", `toolpool-${values.tier}`);
const runs = Number(values.runs);
const scratch = mkdtempSync(join(tmpdir(), "tpbench-fd-"));

async function timed(argv: string[], env: Record<string, string> = {}): Promise<number> {
  const started = performance.now();
  const child = Bun.spawn(argv, { env: { ...process.env, XDG_RUNTIME_DIR: scratch, ...env }, stdout: "ignore", stderr: "ignore" });
  const code = await child.exited;
  if (code !== 0) throw new Error(`${argv.join(" ")} exited ${code}`);
  return performance.now() - started;
}

const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
const help: Record<string, { medianMs: number; maxMs: number }> = {};
for (const command of ["serve", "mcp", "status"]) {
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) samples.push(await timed([binary, command, "--help"]));
  help[command] = { medianMs: Math.round(median(samples)), maxMs: Math.round(Math.max(...samples)) };
}
const installSamples: number[] = [];
for (let run = 0; run < runs; run++) installSamples.push(await timed([binary, "install"], { HOME: join(scratch, `home-${run}`) }));

const socketPath = join(scratch, "d.sock");
const daemon = new Daemon({ socketPath, config: parseConfig({}, "bench"), configSource: { path: null, explicit: false }, builtins: builtinTools(), logger: silentLogger });
await daemon.start();
const bridge = startHttpBridge({
    token: "test-token-0123456789abcdefghijklmnopqrstuv",
  address: { hostname: "127.0.0.1", port: 0 },
  createBridge: () => new DaemonBridge({ connect: () => ToolpoolClient.connect(socketPath) }),
  version: "bench",
  log: () => {},
});
const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const clients = Number(values.clients);
let failures = 0;
const started = performance.now();
for (let index = 0; index < clients; index++) {
  const init = await fetch(bridge.url, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } } }),
  });
  await init.text();
  const session = { ...headers, "mcp-session-id": init.headers.get("mcp-session-id") ?? "", "mcp-protocol-version": "2025-06-18" };
  await (await fetch(bridge.url, { method: "POST", headers: session, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).text();
  const list = await fetch(bridge.url, { method: "POST", headers: session, body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }) });
  if (init.status !== 200 || list.status !== 200 || !(await list.text()).includes("ToolSearch")) failures++;
}
const totalMs = performance.now() - started;
const result = {
  tier: values.tier,
  helpMs: help,
  installMs: { medianMs: Math.round(median(installSamples)), maxMs: Math.round(Math.max(...installSamples)) },
  oneShotHttpClients: { clients, failures, evictions: bridge.evictions(), sessionsLeft: bridge.sessionCount(), totalMs: Math.round(totalMs), perClientMs: Number((totalMs / clients).toFixed(2)) },
};
await bridge.stop();
await daemon.stop("bench finished");
rmSync(scratch, { recursive: true, force: true });
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
