/**
 * Reaping a dead daemon's server groups: only what pid + start time prove is ours. Real processes
 * (a detached shell leading its own group, with a child in it), forged records.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ProcessRegistry } from "../../src/mcp/process-registry.ts";
import { silentLogger } from "../../src/runtime/logger.ts";
import { processFacts } from "../../src/runtime/proc-table.ts";
import { isAlive, tempDir, waitFor } from "./helpers.ts";

/** A group leader (detached shell) and a child in its group; the leader can then be killed alone. */
async function group() {
  const leader = Bun.spawn(["sh", "-c", "sleep 1000 & echo $!; wait"], { detached: true, stdout: "pipe" });
  const reader = leader.stdout.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  const child = Number.parseInt(new TextDecoder().decode(value).trim(), 10);
  const leaderStart = processFacts(leader.pid)!.startTime;
  return { leader, child, leaderStart, childStart: processFacts(child)!.startTime };
}

function forge(dir: string, aliveAt: number, groups: { pid: number; startTime: number }[]): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "999999-1.json"), JSON.stringify({ daemon: { pid: 999999, startTime: 1 }, aliveAt, groups: groups.map((entry) => ({ server: "s", ...entry })) }));
}

describe("ProcessRegistry.reapLeftovers", () => {
  test("a live leader with the recorded start time: it and its group are ended", async () => {
    const dir = join(tempDir("reg-"), "groups");
    const { leader, child, leaderStart } = await group();
    forge(dir, 0, [{ pid: leader.pid, startTime: leaderStart }]);
    expect(new ProcessRegistry(dir, silentLogger).reapLeftovers()).toBe(2);
    await waitFor(() => !isAlive(child), "the child to end");
    await leader.exited;
    expect(readdirSync(dir)).toEqual([]);
  });

  test("with the leader gone, members that started before the record's last rewrite are ended, later ones are not", async () => {
    const dir = join(tempDir("reg-"), "groups");
    const first = await group();
    first.leader.kill("SIGKILL");
    await first.leader.exited;
    expect(isAlive(first.child)).toBe(true);
    forge(dir, first.childStart - 1, [{ pid: first.leader.pid, startTime: first.leaderStart }]);
    expect(new ProcessRegistry(dir, silentLogger).reapLeftovers()).toBe(0);
    expect(isAlive(first.child)).toBe(true);
    forge(dir, first.childStart, [{ pid: first.leader.pid, startTime: first.leaderStart }]);
    expect(new ProcessRegistry(dir, silentLogger).reapLeftovers()).toBe(1);
    await waitFor(() => !isAlive(first.child), "the child to end");
  });

  test("a pid now held by another process (a different start time) is never signalled", async () => {
    const dir = join(tempDir("reg-"), "groups");
    const { leader, child, leaderStart } = await group();
    try {
      forge(dir, Number.MAX_SAFE_INTEGER, [{ pid: leader.pid, startTime: leaderStart - 1 }]);
      expect(new ProcessRegistry(dir, silentLogger).reapLeftovers()).toBe(0);
      expect([isAlive(leader.pid), isAlive(child)]).toEqual([true, true]);
    } finally {
      process.kill(-leader.pid, "SIGKILL");
    }
  });
});

describe("recordingSpawn", () => {
  test("records a server by its config name, not by the program that runs it (npx, node)", async () => {
    const { recordingSpawn } = await import("../../src/mcp/process-registry.ts");
    const { spawnInProcessGroup } = await import("../../src/mcp/child-process.ts");
    const dir = tempDir();
    const registry = new ProcessRegistry(dir, silentLogger);
    const spawn = recordingSpawn(spawnInProcessGroup, registry);
    const child = spawn({ name: "memory", command: "sleep", args: ["30"], env: { PATH: process.env.PATH } });
    try {
      const file = readdirSync(dir).find((name) => name.endsWith(".json"))!;
      const record = JSON.parse(readFileSync(join(dir, file), "utf8")) as { groups: { server: string; pid: number }[] };
      expect(record.groups.map((group) => [group.server, group.pid])).toEqual([["memory", child.pid]]);
    } finally {
      process.kill(-child.pid!, "SIGKILL");
      await child.exited;
      registry.close();
    }
  });
});
