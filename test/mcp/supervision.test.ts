/** Supervision with real server processes: slow starts, crashes, parking, process groups. */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_BACKOFF } from "../../src/mcp/backoff.ts";
import { resultText } from "../../src/tool/result.ts";
import { fixtureSpec, groupMembers, isAlive, tempDir, testPool, toolContext, waitFor } from "./helpers.ts";

// Real server processes: generous on a loaded machine; each test waits on conditions, not on time.
setDefaultTimeout(30_000);

describe("supervision of real servers", () => {
  test("a server that takes 30 s to initialize delays neither other servers, nor their calls, nor stop()", async () => {
    const pool = testPool([fixtureSpec("slow", { FIXTURE_INIT_DELAY_MS: "30000" }), fixtureSpec("fast")], { connectTimeoutMs: 60_000 });
    const started = performance.now();
    pool.start();
    await waitFor(() => pool.server("fast")?.state === "connected", "fast to connect");
    expect(pool.server("slow")?.state).toBe("pending");
    expect(pool.pendingServers()).toEqual(["slow"]);
    expect(performance.now() - started).toBeLessThan(10_000);
    const echo = pool.tools().find((tool) => tool.name === "mcp__fast__echo")!;
    for (let round = 0; round < 5; round++) {
      const before = performance.now();
      expect(resultText(await echo.call({ text: `ping ${round}` }, toolContext()))).toBe(`ping ${round}`);
      expect(performance.now() - before).toBeLessThan(200);
    }
    const stopping = performance.now();
    await pool.stop();
    expect(performance.now() - stopping).toBeLessThan(3_000);
  });

  test("a server that does not finish initializing in time is reported as a timeout, not as killed by our own SIGTERM", async () => {
    await using pool = testPool([fixtureSpec("sluggish", { FIXTURE_INIT_DELAY_MS: "30000" })], { connectTimeoutMs: 300 });
    pool.start();
    await waitFor(() => pool.server("sluggish")?.state === "failed", "the connect timeout");
    expect(pool.server("sluggish")?.reason).toStartWith("it did not finish initializing within 0.3 s");
  });

  test("kill -9 mid-call: the caller hears within 1 s, naming the server; it is back within 5 s", async () => {
    await using pool = testPool([fixtureSpec("victim")], { backoff: DEFAULT_BACKOFF });
    pool.start();
    await waitFor(() => pool.server("victim")?.state === "connected", "connected");
    const pid = pool.server("victim")!.pid!;
    const hang = pool.tools().find((tool) => tool.name === "mcp__victim__hang")!;
    const call = hang.call({}, toolContext());
    await waitFor(() => pool.server("victim")?.inFlight === 1, "the call to be in flight");
    const killedAt = performance.now();
    process.kill(pid, "SIGKILL");
    const result = await call;
    expect(performance.now() - killedAt).toBeLessThan(1_000);
    expect(result.isError).toBe(true);
    expect(resultText(result)).toStartWith('MCP server "victim" stopped while running hang (the server process killed by SIGKILL');
    await waitFor(() => pool.server("victim")?.state === "connected", "the server to be back", 5_000);
    expect(performance.now() - killedAt).toBeLessThan(5_000);
    expect(pool.server("victim")).toMatchObject({ restarts: 1, stale: false });
    expect(pool.server("victim")!.pid).not.toBe(pid);
    const echo = pool.tools().find((tool) => tool.name === "mcp__victim__echo")!;
    expect(resultText(await echo.call({ text: "alive" }, toolContext()))).toBe("alive");
  });

  test("a server that always crashes is parked after 5 tries and spawned no more; restart tries again", async () => {
    const pidFile = join(tempDir(), "pids");
    await using pool = testPool([fixtureSpec("crashy", { FIXTURE_CRASH_ON_START: "1", FIXTURE_PID_FILE: pidFile })]);
    pool.start();
    await waitFor(() => pool.server("crashy")?.state === "parked", "parked");
    const spawned = () => readFileSync(pidFile, "utf8").trim().split("\n").length;
    expect(spawned()).toBe(5);
    const status = pool.server("crashy")!;
    expect(status.nextRetryAt).toBeUndefined();
    expect(status.reason).toContain("fixture: refusing to start (FIXTURE_CRASH_ON_START)");
    expect(status.reason).toContain("parked after 5 failures in a row");
    // The reason quotes the last process's stderr once, not the same line from every attempt.
    expect(status.reason?.split("refusing to start").length).toBe(2);
    expect(pool.logs("crashy")!.join("\n")).toContain("exited with code 1");
    expect(pool.logs("crashy")!.filter((line) => /^\[toolpool\] process \d+ started$/.test(line))).toHaveLength(5);
    const restarted = await pool.restart("crashy");
    expect(restarted.state).toBe("failed");
    expect(spawned()).toBe(6);
  });

  test("a server that spawns a grandchild: no process of its group survives stop(), a restart, or its own crash", async () => {
    const dir = tempDir();
    const grandchildFile = join(dir, "grandchild");
    const pool = testPool([fixtureSpec("forker", { FIXTURE_GRANDCHILD_FILE: grandchildFile })]);
    pool.start();
    const grandchildOf = async (leader: number) => {
      await waitFor(() => existsSync(grandchildFile) && groupMembers(leader).length === 2, `the grandchild of ${leader}`);
      const grandchild = Number(readFileSync(grandchildFile, "utf8"));
      expect(groupMembers(leader).sort()).toEqual([leader, grandchild].sort());
      return grandchild;
    };

    await waitFor(() => pool.server("forker")?.state === "connected", "connected");
    const first = pool.server("forker")!.pid!;
    const firstGrandchild = await grandchildOf(first);
    await pool.restart("forker");
    expect(pool.server("forker")?.state).toBe("connected");
    expect(groupMembers(first)).toEqual([]);
    expect(isAlive(firstGrandchild)).toBe(false);

    const second = pool.server("forker")!.pid!;
    const secondGrandchild = await grandchildOf(second);
    process.kill(second, "SIGKILL");
    await waitFor(() => groupMembers(second).length === 0, "the crashed server's group to be gone");
    expect(isAlive(secondGrandchild)).toBe(false);

    await waitFor(() => pool.server("forker")?.state === "connected" && pool.server("forker")!.pid !== second, "reconnected");
    const third = pool.server("forker")!.pid!;
    const thirdGrandchild = await grandchildOf(third);
    await pool.stop();
    expect(groupMembers(third)).toEqual([]);
    expect(isAlive(thirdGrandchild)).toBe(false);
  });
});
