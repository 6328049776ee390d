import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { TIERS } from "../../features/tiers.ts";
import { RawClient } from "../helpers/raw-client.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { startBinaryDaemon, testTier } from "../helpers/binary.ts";

const hasCron = (TIERS[testTier()] as readonly string[]).includes("AGENT_TRIGGERS");

async function openSession(client: RawClient, sessionId: string) {
  const response = await client.request("toolpool/session", { sessionId, delivery: "proxy" });
  if (response.error) throw new Error(JSON.stringify(response.error));
}

describe(`cron in the compiled binary (${testTier()})`, () => {
  if (!hasCron) {
    test("this tier has no cron tools", async () => {
      const socketPath = join(tempSocketDir(), "c.sock");
      await using daemon = await startBinaryDaemon(socketPath);
      using client = await RawClient.open(socketPath);
      const tools = (await client.request("toolpool/tools")).result as { tools: { name: string }[] };
      expect(tools.tools.map((tool) => tool.name).filter((name) => name.startsWith("Cron"))).toEqual([]);
      expect(daemon.child.exitCode).toBeNull();
    });
    return;
  }

  test("a job survives kill -9; its missed run fires on restart and is delivered once, on connect", async () => {
    const stateHome = mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "state-"));
    const env = { XDG_STATE_HOME: stateHome };
    const socketPath = join(tempSocketDir(), "c.sock");
    const sessionId = "cron-owner";
    {
      await using first = await startBinaryDaemon(socketPath, [], env);
      using client = await RawClient.open(socketPath);
      await openSession(client, sessionId);
      const created = (await client.request("toolpool/call", { sessionId, name: "CronCreate", input: { cron: "0 0 1 1 *", prompt: "say happy new year", recurring: true } })).result as { isError: boolean; content: { text: string }[] };
      expect(created.isError).toBe(false);
      expect(created.content[0]?.text).toContain("Scheduled recurring job");
      first.child.kill("SIGKILL");
      await first.child.exited;
    }
    // Time passes while the daemon is down: the job's next run is now in the past.
    const database = new Database(join(stateHome, "toolpool", "cron.sqlite"));
    const jobs = database.query("SELECT id, prompt FROM jobs").all() as { id: string; prompt: string }[];
    expect(jobs.map((job) => job.prompt)).toEqual(["say happy new year"]);
    database.run("UPDATE jobs SET next_run_at = ?", [Date.now() - 60_000]);
    database.close();

    await using second = await startBinaryDaemon(socketPath, [], env);
    using listener = await RawClient.open(socketPath);
    await openSession(listener, sessionId);
    const fired = await listener.waitFor((message) => message.method === "toolpool/cronFired");
    expect(fired.params).toMatchObject({ sessionId, jobId: jobs[0]!.id, prompt: "say happy new year", recurring: true, attempt: 1, occurrences: 1 });
    listener.close();
    await listener.waitClosed();

    using again = await RawClient.open(socketPath);
    await openSession(again, sessionId);
    expect((await again.request("ping")).result).toEqual({});
    expect(again.messages.filter((message) => message.method === "toolpool/cronFired")).toEqual([]);
    const listed = (await again.request("toolpool/call", { sessionId, name: "CronList", input: {} })).result as { content: { text: string }[] };
    expect(listed.content[0]?.text).toContain(jobs[0]!.id);
    expect(second.child.exitCode).toBeNull();
  });
});
