// test-plan: one tier — process supervision, the same code in every tier.
/**
 * No process outlives the daemon, against the compiled binary with fixture MCP servers: a helper
 * that calls setsid is still ended (the daemon is a child subreaper), and after a daemon is killed
 * with SIGKILL the next one ends the servers it left — identified by pid and start time only.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readFileSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RawClient } from "../helpers/raw-client.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { startBinaryDaemon } from "../helpers/binary.ts";
import { FIXTURE_SERVER, isAlive, tempDir, waitFor } from "../mcp/helpers.ts";
import { processFacts } from "../../src/runtime/proc-table.ts";

setDefaultTimeout(30_000);

function fixtureConfig(dir: string, env: Record<string, string>): string {
  const path = join(dir, "config.json");
  writeFileSync(path, JSON.stringify({ mcpServers: { fx: { command: process.execPath, args: [FIXTURE_SERVER], env } } }));
  return path;
}

const readPid = (path: string) => (existsSync(path) ? Number.parseInt(readFileSync(path, "utf8"), 10) || undefined : undefined);

describe("process lifecycle (compiled binary)", () => {
  test("a server's setsid helper is adopted when the server dies, and ended when the daemon stops", async () => {
    const dir = tempDir("proc-");
    const helperFile = join(dir, "helper.pid");
    const socketPath = join(tempSocketDir(), "p.sock");
    const env = { XDG_STATE_HOME: join(dir, "state") };
    await using daemon = await startBinaryDaemon(socketPath, ["--config", fixtureConfig(dir, { FIXTURE_SETSID_GRANDCHILD_FILE: helperFile })], env);
    const helper = await waitFor(() => readPid(helperFile), "the setsid helper");
    using client = await RawClient.open(socketPath);
    await waitFor(async () => {
      const servers = (await client.request("toolpool/servers")).result as { servers: { state: string; pid?: number }[] };
      return servers.servers[0]?.state === "connected" && servers.servers[0].pid;
    }, "the server to connect");
    const serverPid = processFacts(helper)!.ppid;
    expect(processFacts(helper)!.pgid).not.toBe(serverPid); // it left the server's group
    // The server dies on its own: its helper is re-parented to the daemon (a subreaper), not to init.
    await client.request("toolpool/call", { name: "mcp__fx__crash", input: {} });
    await waitFor(() => processFacts(helper)?.ppid === daemon.child.pid, "the helper to be adopted by the daemon");
    daemon.child.kill("SIGTERM");
    expect(await daemon.child.exited).toBe(0);
    await waitFor(() => !isAlive(helper), "the helper to be ended");
    await waitFor(() => daemon.stderr().includes('"ending processes left below the daemon"'), "the log line");
  });

  test("a setsid helper of a server still running is ended with it at stop", async () => {
    const dir = tempDir("proc-");
    const helperFile = join(dir, "helper.pid");
    const socketPath = join(tempSocketDir(), "p.sock");
    await using daemon = await startBinaryDaemon(socketPath, ["--config", fixtureConfig(dir, { FIXTURE_SETSID_GRANDCHILD_FILE: helperFile })], {
      XDG_STATE_HOME: join(dir, "state"),
    });
    const helper = await waitFor(() => readPid(helperFile), "the setsid helper");
    daemon.child.kill("SIGTERM");
    expect(await daemon.child.exited).toBe(0);
    await waitFor(() => !isAlive(helper), "the helper to be ended");
  });

  test("after kill -9, the next daemon ends the servers the dead one left (one ignoring EOF and SIGTERM, and its child), and nothing else", async () => {
    const dir = tempDir("proc-");
    const stateDir = join(dir, "state");
    const pidFile = join(dir, "server.pid");
    const childFile = join(dir, "child.pid");
    const socketPath = join(tempSocketDir(), "k.sock");
    // A live process that a forged record names with the wrong start time, and one whose daemon (this test) is alive.
    const bystander = Bun.spawn(["sleep", "1000"]);
    const bystanderStart = processFacts(bystander.pid)!.startTime;
    const groups = join(stateDir, "toolpool", "process-groups");
    mkdirSync(groups, { recursive: true });
    writeFileSync(join(groups, "999999-1.json"), JSON.stringify({ daemon: { pid: 999999, startTime: 1 }, aliveAt: bystanderStart + 100, groups: [{ server: "x", pid: bystander.pid, startTime: bystanderStart + 1 }] }));
    const self = processFacts(process.pid)!;
    writeFileSync(
      join(groups, `${process.pid}-${self.startTime}.json`),
      JSON.stringify({ daemon: { pid: process.pid, startTime: self.startTime }, aliveAt: bystanderStart + 100, groups: [{ server: "y", pid: bystander.pid, startTime: bystanderStart }] }),
    );
    try {
      const config = fixtureConfig(dir, { FIXTURE_IGNORE_EOF: "1", FIXTURE_PID_FILE: pidFile, FIXTURE_GRANDCHILD_FILE: childFile });
      const first = await startBinaryDaemon(socketPath, ["--config", config], { XDG_STATE_HOME: stateDir });
      const server = await waitFor(() => readPid(pidFile), "the server");
      const child = await waitFor(() => readPid(childFile), "the server's child");
      const recordPath = join(groups, `${first.child.pid}-${processFacts(first.child.pid)!.startTime}.json`);
      // The record's heartbeat has passed the child's start: it is provably of the server's group.
      await waitFor(() => {
        const record = existsSync(recordPath) ? (JSON.parse(readFileSync(recordPath, "utf8")) as { aliveAt: number; groups: { pid: number }[] }) : undefined;
        return record?.groups.some((group) => group.pid === server) && record.aliveAt >= processFacts(child)!.startTime;
      }, "the server's group on record");
      first.child.kill("SIGKILL");
      await first.child.exited;
      expect([isAlive(server), isAlive(child)]).toEqual([true, true]); // what the next daemon must clean up
      writeFileSync(config, JSON.stringify({}));
      await using second = await startBinaryDaemon(socketPath, ["--config", config], { XDG_STATE_HOME: stateDir });
      await waitFor(() => !isAlive(server) && !isAlive(child), "the leftovers to be ended");
      await waitFor(() => second.stderr().includes('"ending a leftover MCP server of a daemon that died without stopping"'), "the log line");
      expect(isAlive(bystander.pid)).toBe(true);
      expect(existsSync(join(groups, `${process.pid}-${self.startTime}.json`))).toBe(true);
    } finally {
      bystander.kill("SIGKILL");
    }
  });
});
