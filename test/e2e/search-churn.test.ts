// test-plan: one tier — search is in every tier; the attack is the MCP server's and the clients'.
/**
 * A server whose `tools/list_changed` never stops (test/fixtures/mcp/flood-server.ts: every tool
 * renamed at every listing, so each one replaces the whole list and overtakes the background build;
 * it lists 20k, the daemon keeps 5,000 (MAX_TOOLS_PER_SERVER) and re-lists at most once a second
 * after a burst of three, relist-throttle.ts),
 * against the compiled daemon over the real socket, while many clients search, one of them through a
 * profile that hides the churning server, two models through `toolpool mcp` (one with that profile),
 * and another client only pings. Asserted: every search answered,
 * none with a tool its session may not see, the steady server always found, pings not held, memory
 * bounded, and the daemon stopping mid-build cleanly (no unhandled rejection, no timer keeping it up).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { binaryPath, startBinaryDaemon } from "../helpers/binary.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { pinging } from "../helpers/pinging.ts";
import { RawClient } from "../helpers/raw-client.ts";

setDefaultTimeout(120_000);

/** Searches per client: enough to span several re-listings of the churning server (one a second at most, relist-throttle.ts). */
const ROUNDS = 40;
const FLOOD_SERVER = join(import.meta.dir, "..", "fixtures", "mcp", "flood-server.ts");

function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((each) => each.startsWith("VmRSS:"));
  // A process that has exited (not yet reaped) has no resident set: the caller sees the exit.
  return line === undefined ? 0 : Number(line.split(/\s+/)[1]) / 1024;
}

describe("a server whose tool list never stops changing (compiled binary)", () => {
  test("searches mid-churn are all answered within their session's view; pings are not held; the daemon stops cleanly mid-build", async () => {
    const root = realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "churn-")));
    const configPath = join(root, "config.json");
    const server = (tools: number, perSecond: number) => ({
      command: process.execPath,
      args: [FLOOD_SERVER],
      env: { FLOOD_TOOLS: String(tools), FLOOD_PER_SECOND: String(perSecond) },
    });
    writeFileSync(
      configPath,
      JSON.stringify({ mcpServers: { churn: server(20_000, 100), steady: server(300, 0) }, profiles: { steadyOnly: { include: ["mcp__steady"] } } }),
    );
    const socketPath = join(tempSocketDir(), "c.sock");
    const daemon = await startBinaryDaemon(socketPath, ["--config", configPath, "--log-level", "debug"], {}, undefined, root);
    await using _daemon = daemon;
    using pinger = await RawClient.open(socketPath);
    using watcher = await RawClient.open(socketPath);
    // Both servers listed (the churning one many times over) before the attack begins.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { tools } = (await watcher.request("toolpool/tools")).result as { tools: { name: string }[] };
      watcher.messages.length = 0;
      if (tools.some((each) => each.name.startsWith("mcp__churn__")) && tools.some((each) => each.name === "mcp__steady__tool_1_7")) break;
      if (Date.now() > deadline) throw new Error("the servers never listed their tools");
      await Bun.sleep(50);
    }
    if (!readFileSync(`/proc/${daemon.child.pid}/status`, "utf8").includes("VmRSS:")) {
      const code = await daemon.child.exited;
      throw new Error(`daemon exited (${code}): ${daemon.stderr().split("\n").filter((line) => !line.includes('"debug"')).join("\n").slice(-3000)}`);
    }
    void daemon.child.exited.then((code) => {
      if (!stopping) console.error(`daemon exited (${code}) mid-attack: ${daemon.stderr().split("\n").filter((line) => !line.includes('"debug"')).join("\n").slice(-4000)}`);
    });
    let stopping = false;
    const pings = pinging(pinger, 2);
    let peakRss = rssMiB(daemon.child.pid);
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMiB(daemon.child.pid))), 50);

    const clients = await Promise.all(Array.from({ length: 8 }, () => RawClient.open(socketPath)));
    const profiled = await RawClient.open(socketPath);
    const session = (await profiled.request("toolpool/session", { profile: "steadyOnly" })) as { result: { sessionId: string } };
    // Models behind `toolpool mcp`: ToolSearch through the bridge, one of them with the profile.
    const bridges = await Promise.all(
      [[], ["--profile", "steadyOnly"]].map(async (extra) => {
        const client = new Client({ name: "churn-host", version: "1" });
        await client.connect(new StdioClientTransport({ command: binaryPath(), args: ["mcp", "--socket", socketPath, ...extra], env: { ...process.env } as Record<string, string>, stderr: "pipe" }));
        return client;
      }),
    );
    const problems: string[] = [];
    let answered = 0;
    const started = performance.now();
    await Promise.all([
      ...clients.map(async (client, c) => {
        for (let round = 0; round < ROUNDS; round++) {
          const query = round % 2 === 0 ? `tool ${c} generation` : "select:mcp__steady__tool_1_7";
          const response = await client.request("toolpool/search", { query });
          client.messages.length = 0;
          const matches = (response.result as { matches?: { name: string }[] } | undefined)?.matches;
          if (matches === undefined) problems.push(`client ${c}: ${JSON.stringify(response).slice(0, 300)}`);
          else if (round % 2 === 1 && matches.map((m) => m.name).join() !== "mcp__steady__tool_1_7") problems.push(`select lost the steady tool: ${JSON.stringify(matches)}`);
          else answered++;
        }
      }),
      ...bridges.map(async (bridge, b) => {
        for (let round = 0; round < ROUNDS; round++) {
          const result = (await bridge.callTool({ name: "ToolSearch", arguments: { query: round % 2 === 0 ? "generation tool 7" : "select:mcp__steady__tool_1_7" } })) as { isError?: boolean; content: { text?: string }[] };
          const text = result.content.map((part) => part.text ?? "").join("\n");
          if (result.isError) problems.push(`bridge ${b}: ${text.slice(0, 300)}`);
          else if (b === 1 && text.includes("mcp__churn__")) problems.push(`the profiled bridge was shown a churn tool: ${text.slice(0, 300)}`);
          else if (round % 2 === 1 && !text.includes("mcp__steady__tool_1_7")) problems.push(`bridge ${b} lost the steady tool: ${text.slice(0, 300)}`);
          else answered++;
        }
      }),
      (async () => {
        for (let round = 0; round < ROUNDS; round++) {
          const response = await profiled.request("toolpool/search", { sessionId: session.result.sessionId, query: "tool generation 7" });
          profiled.messages.length = 0;
          const names = ((response.result as { matches?: { name: string }[] } | undefined)?.matches ?? []).map((m) => m.name);
          if (names.length === 0) problems.push(`profiled search found nothing: ${JSON.stringify(response).slice(0, 300)}`);
          for (const name of names) if (!name.startsWith("mcp__steady__")) problems.push(`profiled session was shown ${name}`);
          // explain's did-you-mean waits for the index like a search (it is the operator's view: the whole pool).
          const explained = (await profiled.request("toolpool/explain", { sessionId: session.result.sessionId, name: "mcp__churn__tool_1_7x" })) as { result?: { callable: boolean; didYouMean?: string[] } };
          profiled.messages.length = 0;
          if (explained.result?.callable !== false) problems.push(`explain: ${JSON.stringify(explained).slice(0, 300)}`);
          answered++;
        }
      })(),
    ]);
    const searchMs = performance.now() - started;
    const slowestPingMs = await pings.stop();
    // Stop while the churn goes on and searches are in flight (a catch-up is likely under way, with
    // searches waiting on it): SIGTERM, a clean exit.
    for (const client of clients) client.send({ jsonrpc: "2.0", id: 1_000_000, method: "toolpool/search", params: { query: "generation tool 3" } });
    stopping = true;
    const stopStarted = performance.now();
    daemon.child.kill("SIGTERM");
    const exitCode = await Promise.race([daemon.child.exited, Bun.sleep(15_000).then(() => "hung" as const)]);
    const stopMs = performance.now() - stopStarted;
    clearInterval(sampler);
    for (const client of [...clients, profiled]) client.socket.destroy();
    await Promise.all(bridges.map((bridge) => bridge.close()));
    const stderr = daemon.stderr();
    const builds = stderr.split("\n").filter((line) => line.includes("search index catching up")).length;
    console.log(JSON.stringify({ answered, searchMs: Math.round(searchMs), slowestPingMs: Math.round(slowestPingMs), peakRssMiB: Math.round(peakRss), builds, exitCode, stopMs: Math.round(stopMs) }));
    expect(problems).toEqual([]);
    expect(answered).toBe(8 * ROUNDS + 2 * ROUNDS + ROUNDS);
    expect(exitCode).toBe(0);
    expect(stderr).not.toMatch(/unhandled|uncaught/i);
    // Ceilings the attack would break (a starved search times out at 10 s; a held thread holds pings for seconds).
    expect(slowestPingMs).toBeLessThan(2_000);
    expect(peakRss).toBeLessThan(1_024);
  });
});
