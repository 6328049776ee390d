// test-plan: one tier — Bash's process handling on the daemon, the same code in every tier.
/**
 * What a Bash call leaves behind, on the compiled daemon (a child subreaper): orphans are
 * collected as they exit, and a process that left the call's group (or its whole tree) is still
 * stopped at a timeout.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RawClient } from "../helpers/raw-client.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { startBinaryDaemon } from "../helpers/binary.ts";
import { waitFor as waitForState } from "../helpers/wait.ts";

/** Each probe spawns ps or pgrep: poll every 100 ms. */
const waitFor = <T>(probe: () => T | undefined | false, what: string, ms = 15_000) => waitForState(probe, what, ms, 100);

setDefaultTimeout(60_000);

async function start() {
  const root = realpathSync(mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "orphans-")));
  const dir = tempSocketDir();
  const configPath = join(dir, "config.json");
  writeFileSync(configPath, JSON.stringify({ workspaceRoots: [root] }));
  const socketPath = join(dir, "o.sock");
  const daemon = await startBinaryDaemon(socketPath, ["--config", configPath]);
  const client = await RawClient.open(socketPath);
  const sessionId = ((await client.request("toolpool/session", {})).result as { sessionId: string }).sessionId;
  const bash = async (command: string, timeout?: number) => {
    const reply = (await client.request("toolpool/call", { sessionId, name: "Bash", input: { command, ...(timeout && { timeout }) } })).result as { content: { text: string }[]; isError: boolean };
    return { text: reply.content.map((block) => block.text).join(""), isError: reply.isError };
  };
  return { daemon, client, bash };
}

const stateOfChildren = (pid: number) =>
  Bun.spawnSync(["ps", "--ppid", String(pid), "-o", "stat="]).stdout.toString().split("\n").filter(Boolean);

describe("Bash orphans", () => {
  test("two hundred `(true &)` orphans are collected, not left as zombies", async () => {
    const { daemon, client, bash } = await start();
    await using _daemon = daemon;
    using _client = client;
    expect((await bash("for i in $(seq 200); do (true &); done; echo done")).text).toContain("done");
    // They are re-parented to the daemon and exit at once; the reaper collects them within a few seconds.
    await waitFor(() => stateOfChildren(daemon.child.pid).filter((stat) => stat.startsWith("Z")).length < 5, "the zombies to be collected");
  });

  // Still under the command; out of its group and tree (double fork, setsid -f).
  for (const shape of ["setsid MARKER >/dev/null 2>&1 & sleep 100", "(setsid MARKER >/dev/null 2>&1 &); sleep 100", "setsid -f MARKER >/dev/null 2>&1; sleep 100"]) {
    test(`a process that left the command's group is stopped with it at the timeout: ${shape}`, async () => {
      const { daemon, client, bash } = await start();
      await using _daemon = daemon;
      using _client = client;
      const marker = `sleep ${400 + Math.floor(Math.random() * 500)}.25`;
      expect((await bash(shape.replace("MARKER", marker), 1_000)).text).toContain("timed out after 1 s; it and the processes still under it were stopped");
      const alive = () => Bun.spawnSync(["pgrep", "-fx", marker]).stdout.toString().trim();
      try {
        await waitFor(() => alive() === "", "the detached process to be gone", 6_000);
      } finally {
        for (const pid of alive().split("\n").filter(Boolean)) process.kill(Number(pid), "SIGKILL");
      }
    });
  }

  test("a process that starts another when the daemon's SIGTERM reaches it does not outlive the daemon", async () => {
    const { daemon, client, bash } = await start();
    using _client = client;
    const first = `sleep ${400 + Math.floor(Math.random() * 500)}.75`;
    const late = `sleep ${400 + Math.floor(Math.random() * 500)}.85`;
    const trapper = `trap "setsid ${late} >/dev/null 2>&1 &" TERM; while :; do sleep 0.05; done`;
    expect((await bash(`(setsid ${first} >/dev/null 2>&1 &); (setsid bash -c '${trapper}' >/dev/null 2>&1 &); echo started`)).text).toContain("started");
    await Bun.sleep(300);
    daemon.child.kill("SIGTERM");
    await daemon.child.exited;
    const alive = (pattern: string) => Bun.spawnSync(["pgrep", "-f", pattern]).stdout.toString().split("\n").filter(Boolean);
    try {
      await waitFor(() => [first, late, "trap \"setsid"].every((pattern) => alive(pattern).length === 0), "every process to be gone", 5_000);
    } finally {
      for (const pattern of [first, late, trapper]) for (const pid of alive(pattern)) process.kill(Number(pid), "SIGKILL");
    }
  });
});
