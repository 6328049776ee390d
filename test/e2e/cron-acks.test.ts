/**
 * Client acknowledgement of cron firings (`toolpool/session {cronAcks: true}`, `toolpool/cronAck`)
 * in the compiled binary: a firing the client was sent but did not acknowledge comes again after it
 * dies; acknowledged, it never does. Tiers without AGENT_TRIGGERS have no `toolpool/cronAck`.
 */
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { TIERS } from "../../features/tiers.ts";
import { RawClient } from "../helpers/raw-client.ts";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { startBinaryDaemon, testTier } from "../helpers/binary.ts";

const hasCron = (TIERS[testTier()] as readonly string[]).includes("AGENT_TRIGGERS");
const CRON_FIRED = "toolpool/cronFired";

async function result(client: RawClient, method: string, params: Record<string, unknown>) {
  const response = await client.request(method, params);
  if (response.error) throw new Error(JSON.stringify(response.error));
  return response.result as Record<string, unknown>;
}

function firings(client: RawClient): { firingId: string; attempt: number }[] {
  return client.messages
    .filter((message) => message.method === CRON_FIRED)
    .map((message) => {
      const params = message.params as { firingId: string; attempt: number };
      return { firingId: params.firingId, attempt: params.attempt };
    });
}

describe(`cron acknowledgements in the compiled binary (${testTier()})`, () => {
  if (!hasCron) {
    test("toolpool/cronAck does not exist in this tier", async () => {
      const socketPath = join(tempSocketDir(), "c.sock");
      await using daemon = await startBinaryDaemon(socketPath);
      using client = await RawClient.open(socketPath);
      expect((await client.request("toolpool/cronAck", { firingIds: ["f"] })).error).toEqual({ code: -32601, message: "Method not found: toolpool/cronAck" });
      expect(daemon.child.exitCode).toBeNull();
    });
    return;
  }

  test("a firing sent to a cronAcks client that dies unacknowledged comes again with attempt 2; acknowledged, never again", async () => {
    const stateHome = mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT!, "state-"));
    const env = { XDG_STATE_HOME: stateHome };
    const socketPath = join(tempSocketDir(), "c.sock");
    const sessionId = "acking-agent";
    {
      await using first = await startBinaryDaemon(socketPath, [], env);
      using client = await RawClient.open(socketPath);
      await result(client, "toolpool/session", { sessionId, delivery: "proxy", cronAcks: true });
      const created = await result(client, "toolpool/call", { sessionId, name: "CronCreate", input: { cron: "0 0 1 1 *", prompt: "say happy new year", recurring: false } });
      expect(created.isError).toBe(false);
      first.child.kill("SIGKILL");
      await first.child.exited;
    }
    // Its run passes while the daemon is down, so it fires as soon as the daemon starts again.
    const database = new Database(join(stateHome, "toolpool", "cron.sqlite"));
    database.run("UPDATE jobs SET next_run_at = ?", [Date.now() - 60_000]);
    database.close();

    await using daemon = await startBinaryDaemon(socketPath, [], env);
    using reader = await RawClient.open(socketPath);
    await result(reader, "toolpool/session", { sessionId, cronAcks: true });
    await reader.waitFor((message) => message.method === CRON_FIRED);
    const [fired] = firings(reader);
    expect(fired).toEqual({ firingId: expect.any(String), attempt: 1 });
    // Dies without acknowledging: the next client of the session gets it at once, not after the lease.
    reader.socket.destroy();

    using next = await RawClient.open(socketPath);
    await result(next, "toolpool/session", { sessionId, cronAcks: true });
    await next.waitFor((message) => message.method === CRON_FIRED);
    expect(firings(next)).toEqual([{ firingId: fired!.firingId, attempt: 2 }]);
    expect(await result(next, "toolpool/cronAck", { firingIds: [fired!.firingId] })).toEqual({ acked: 1 });
    expect((await next.request("toolpool/cronAck", { firingIds: [] })).error).toEqual({
      code: -32602,
      message: 'Invalid params for toolpool/cronAck:\n  - field "firingIds": Too small: expected array to have >=1 items',
    });
    next.socket.destroy();

    using last = await RawClient.open(socketPath);
    await result(last, "toolpool/session", { sessionId, cronAcks: true });
    expect((await last.request("ping")).result).toEqual({});
    expect(firings(last)).toEqual([]);
    expect(daemon.child.exitCode).toBeNull();
  });
});
