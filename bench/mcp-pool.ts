#!/usr/bin/env bun
/**
 * MCP pool benchmark, on the compiled daemon. Prints JSON:
 *  - startup: time from spawning the daemon to the first MCP tool found by `toolpool/search`, with
 *    `--servers` (default 20) fixture servers configured — cold (empty catalog cache) and cached
 *    (a state dir a previous run filled) — plus the time until every server is connected; medians
 *    of `--runs` runs each. Cached, the catalog is in the pool before the socket answers, so what
 *    remains is the binary's own start and its first (cold) search, sharing the CPU with the
 *    servers it is starting (Bun processes that burn ~150 ms of CPU each);
 *  - call: `tools/call` round trips of a trivial echo tool through the daemon (client → socket →
 *    daemon → stdio server) against the same server called straight with the SDK's Client over
 *    stdio, and through an in-process McpPool; the daemon's added latency is the p50 difference.
 * Usage: bun bench/mcp-pool.ts [--tier pro] [--servers 20] [--calls 2000] [--runs 3]
 */
import { availableParallelism } from "node:os";
import { mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolpoolClient } from "../src/client/client.ts";
import { createLogger } from "../src/runtime/logger.ts";
import { McpPool } from "../src/mcp/mcp-pool.ts";
import { percentile, round } from "./lib/stats.ts";

const { values } = parseArgs({
  options: {
    tier: { type: "string", default: "pro" },
    servers: { type: "string", default: "20" },
    calls: { type: "string", default: "2000" },
    runs: { type: "string", default: "3" },
  },
});
const repo = join(import.meta.dir, "..");
const binary = join(repo, "dist", `toolpool-${values.tier}`);
const fixture = join(repo, "test", "fixtures", "mcp", "fixture-server.ts");
const serverCount = Number(values.servers);
const callCount = Number(values.calls);
const warmup = Math.min(200, Math.ceil(callCount / 10));
const dir = mkdtempSync("/tmp/tpbench-mcp-");

if (!(await Bun.file(binary).exists())) throw new Error(`${binary} is missing: run \`bun run build.ts --tier ${values.tier}\` first`);

const configPath = join(dir, "config.json");
const mcpServers = Object.fromEntries(
  Array.from({ length: serverCount }, (_, index) => [`fx${String(index + 1).padStart(2, "0")}`, { command: process.execPath, args: [fixture] }]),
);
writeFileSync(configPath, JSON.stringify({ mcpServers }));
const runs = Number(values.runs);

interface Startup {
  socketReadyMs: number;
  firstSearchableMcpToolMs: number;
  /** How long the search that first found an MCP tool took to answer. */
  thatSearchMs: number;
  allConnectedMs: number;
  mcpTools: number;
}

async function connectWhenReady(socketPath: string): Promise<ToolpoolClient> {
  for (;;) {
    try {
      return await ToolpoolClient.connect(socketPath, 1_000);
    } catch {
      await Bun.sleep(1);
    }
  }
}

async function startDaemon(name: string, stateDir: string) {
  const socketPath = join(dir, `${name}.sock`);
  const started = performance.now();
  const child = Bun.spawn([binary, "serve", "--socket", socketPath, "--config", configPath], {
    env: { ...process.env, XDG_STATE_HOME: stateDir },
    stdout: "ignore",
    stderr: "ignore",
  });
  const client = await connectWhenReady(socketPath);
  return { child, client, started, socketReadyMs: performance.now() - started };
}

async function measureStartup(name: string, stateDir: string): Promise<Startup> {
  const { child, client, started, socketReadyMs } = await startDaemon(name, stateDir);
  let firstSearchableMcpToolMs = Number.NaN;
  let thatSearchMs = Number.NaN;
  for (;;) {
    const asked = performance.now();
    const result = (await client.search({ query: "echo text back", maxResults: 5 })) as { matches: { name: string }[] };
    if (result.matches.some((match) => match.name.startsWith("mcp__"))) {
      firstSearchableMcpToolMs = performance.now() - started;
      thatSearchMs = performance.now() - asked;
      break;
    }
  }
  let allConnectedMs = Number.NaN;
  for (;;) {
    const { servers } = await client.servers();
    if (servers.every((server) => server.state === "connected")) {
      allConnectedMs = performance.now() - started;
      break;
    }
    await Bun.sleep(2);
  }
  const mcpTools = (await client.tools()).tools.filter((tool) => tool.source === "mcp").length;
  client.close();
  child.kill("SIGTERM");
  await child.exited;
  return {
    socketReadyMs: round(socketReadyMs, 1),
    firstSearchableMcpToolMs: round(firstSearchableMcpToolMs, 1),
    thatSearchMs: round(thatSearchMs, 1),
    allConnectedMs: round(allConnectedMs, 1),
    mcpTools,
  };
}

/** Field-wise medians of several runs. */
function medians(samples: readonly Startup[]): Startup {
  const median = (key: keyof Startup) => percentile(samples.map((sample) => sample[key]), 50);
  return {
    socketReadyMs: median("socketReadyMs"),
    firstSearchableMcpToolMs: median("firstSearchableMcpToolMs"),
    thatSearchMs: median("thatSearchMs"),
    allConnectedMs: median("allConnectedMs"),
    mcpTools: median("mcpTools"),
  };
}

async function timeCalls(call: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let index = 0; index < warmup; index++) await call();
  const samples: number[] = [];
  for (let index = 0; index < callCount; index++) {
    const started = performance.now();
    await call();
    samples.push(performance.now() - started);
  }
  return { p50: round(percentile(samples, 50), 4), p99: round(percentile(samples, 99), 4) };
}

const coldRuns: Startup[] = [];
const cachedRuns: Startup[] = [];
const cachedState = join(dir, "state-cached");
for (let run = 0; run < runs; run++) {
  // Cold: a state dir no daemon has used. The first cold run also fills the cached runs' dir.
  coldRuns.push(await measureStartup(`cold${run}`, run === 0 ? cachedState : join(dir, `state-cold${run}`)));
  cachedRuns.push(await measureStartup(`cached${run}`, cachedState));
}

// Through the daemon.
const daemon = await startDaemon("calls", cachedState);
while ((await daemon.client.servers()).servers.find((server) => server.name === "fx01")?.state !== "connected") await Bun.sleep(5);
const throughDaemon = await timeCalls(async () => {
  const result = await daemon.client.call({ name: "mcp__fx01__echo", input: { text: "ping" } });
  if (result.isError) throw new Error(JSON.stringify(result.content));
});
daemon.client.close();
daemon.child.kill("SIGTERM");
await daemon.child.exited;

// The same server, straight from the SDK.
const direct = new Client({ name: "bench", version: "0" });
await direct.connect(new StdioClientTransport({ command: process.execPath, args: [fixture], stderr: "ignore" }));
const sdkDirect = await timeCalls(() => direct.callTool({ name: "echo", arguments: { text: "ping" } }));
await direct.close();

// The pool in this process: our transport and conversion, without the socket hop.
const pool = new McpPool({
  servers: [{ name: "fx", transport: "stdio", command: process.execPath, args: [fixture], env: {}, startup: "eager", timeoutMs: 60_000, disabled: false, alwaysLoad: [], origin: "bench" }],
  logger: createLogger("error"),
  cachePath: null,
});
pool.start();
while (pool.server("fx")?.state !== "connected") await Bun.sleep(5);
const echo = pool.tools().find((tool) => tool.name === "mcp__fx__echo")!;
const context = { signal: new AbortController().signal, sessionId: "bench", workspaceRoots: [dir], cwd: dir, sessionState: new Map<string, unknown>() };
const inProcessPool = await timeCalls(() => echo.call({ text: "ping" }, context));
await pool.stop();

console.log(
  JSON.stringify(
    {
      benchmark: "mcp-pool",
      tier: values.tier,
      servers: serverCount,
      cpus: availableParallelism(),
      startup: { runs, cold: medians(coldRuns), cached: medians(cachedRuns) },
      call: {
        calls: callCount,
        sdkDirectMs: sdkDirect,
        inProcessPoolMs: inProcessPool,
        throughDaemonMs: throughDaemon,
        addedByDaemonP50Ms: round(throughDaemon.p50 - sdkDirect.p50, 4),
        targetAddedP50Ms: 0.5,
      },
    },
    null,
    2,
  ),
);
