/**
 * `toolpool/session {cronAcks: true}` and `toolpool/cronAck` over the real socket: a firing such a
 * client was sent stays queued until it acknowledges it, even across a disconnect. The daemon runs
 * in process with a cron service on a manual clock, so a job fires when the test moves time.
 */
import { describe, expect, test } from "bun:test";
import { feature } from "bun:bundle";
import { builtinTools } from "../../src/builtin/list.ts";
import { DEFAULT_LEASE_MS } from "../../src/cron/cron-scheduler.ts";
import { makeStateDir, MINUTE, openService } from "../cron/fixture.ts";
import { ManualClock } from "../cron/manual-clock.ts";
import { startTestDaemon } from "../helpers/daemon-harness.ts";
import { RawClient } from "../helpers/raw-client.ts";

const CRON_FIRED = "toolpool/cronFired";

async function startCronDaemon(stateDir: string) {
  const clock = new ManualClock("2026-01-01T00:00:00Z");
  const cron = openService(stateDir, clock);
  const harness = await startTestDaemon({ builtins: builtinTools({ cronScheduler: cron.scheduler }), cron });
  return {
    clock,
    cron,
    harness,
    async [Symbol.asyncDispose]() {
      await harness[Symbol.asyncDispose]();
      // The daemon closes it in AGENT_TRIGGERS tiers; elsewhere it never took it (again is a no-op).
      cron.close();
    },
  };
}

async function result(client: RawClient, method: string, params: Record<string, unknown>) {
  const response = await client.request(method, params);
  if (response.error) throw new Error(JSON.stringify(response.error));
  return response.result as Record<string, unknown>;
}

function firings(client: RawClient): { firingId: string; attempt: number; prompt: string }[] {
  return client.messages
    .filter((message) => message.method === CRON_FIRED)
    .map((message) => {
      const params = message.params as { firingId: string; attempt: number; prompt: string };
      return { firingId: params.firingId, attempt: params.attempt, prompt: params.prompt };
    });
}

/** Every firing delivered so far has been written: a request sent after it is answered after it. */
async function settled(client: RawClient): Promise<void> {
  expect((await client.request("ping")).result).toEqual({});
}

describe("cron firings the client acknowledges (toolpool/cronAck)", () => {
  if (!feature("AGENT_TRIGGERS")) {
    test("toolpool/cronAck does not exist in this tier, even with a cron service handed to the daemon", async () => {
      using dir = makeStateDir();
      await using daemon = await startCronDaemon(dir.path);
      using client = await RawClient.open(daemon.harness.socketPath);
      expect(await client.request("toolpool/cronAck", { firingIds: ["f"] })).toEqual({
        jsonrpc: "2.0",
        id: 1,
        error: { code: -32601, message: "Method not found: toolpool/cronAck" },
      });
    });
    return;
  }

  test("an unacknowledged firing comes again on reconnect with attempt 2; acknowledged, never again", async () => {
    using dir = makeStateDir();
    await using daemon = await startCronDaemon(dir.path);
    const { clock, cron, harness } = daemon;
    const sessionId = "acking-agent";

    using first = await RawClient.open(harness.socketPath);
    const opened = await result(first, "toolpool/session", { sessionId, delivery: "proxy", cronAcks: true });
    expect(Object.keys(opened.settings as object)).not.toContain("cronAcks");
    const created = await result(first, "toolpool/call", { sessionId, name: "CronCreate", input: { cron: "* * * * *", prompt: "look at the queue", recurring: false } });
    expect(created.isError).toBe(false);
    clock.advance(MINUTE);
    await first.waitFor((message) => message.method === CRON_FIRED);
    const [fired] = firings(first);
    expect(fired).toEqual({ firingId: expect.any(String), attempt: 1, prompt: "look at the queue" });
    expect(cron.scheduler.pendingCount(sessionId)).toBe(1);

    // The client dies before acknowledging: its firing goes to the next client of the session at
    // once (no time passes, so no lease runs out).
    first.socket.destroy();
    using second = await RawClient.open(harness.socketPath);
    await result(second, "toolpool/session", { sessionId, cronAcks: true });
    await second.waitFor((message) => message.method === CRON_FIRED);
    expect(firings(second)).toEqual([{ ...fired!, attempt: 2 }]);

    expect(await result(second, "toolpool/cronAck", { firingIds: [fired!.firingId] })).toEqual({ acked: 1 });
    expect(await result(second, "toolpool/cronAck", { sessionId, firingIds: [fired!.firingId, "never-sent"] })).toEqual({ acked: 0 });
    expect(cron.scheduler.pendingCount(sessionId)).toBe(0);
    second.socket.destroy();

    using third = await RawClient.open(harness.socketPath);
    await result(third, "toolpool/session", { sessionId, cronAcks: true });
    clock.advance(10 * DEFAULT_LEASE_MS);
    await settled(third);
    expect(firings(third)).toEqual([]);
  });

  test("a cronAcks client that moves to another session hands what it held back to the old session at once", async () => {
    using dir = makeStateDir();
    await using daemon = await startCronDaemon(dir.path);
    const { clock, harness } = daemon;
    const sessionId = "shared-agent";
    using mover = await RawClient.open(harness.socketPath);
    await result(mover, "toolpool/session", { sessionId, delivery: "proxy", cronAcks: true });
    await result(mover, "toolpool/call", { sessionId, name: "CronCreate", input: { cron: "* * * * *", prompt: "p", recurring: false } });
    clock.advance(MINUTE);
    await mover.waitFor((message) => message.method === CRON_FIRED);
    const [fired] = firings(mover);

    await result(mover, "toolpool/session", { sessionId: "another-agent", cronAcks: true });
    using stayer = await RawClient.open(harness.socketPath);
    await result(stayer, "toolpool/session", { sessionId, cronAcks: true });
    await stayer.waitFor((message) => message.method === CRON_FIRED);
    expect(firings(stayer)).toEqual([{ ...fired!, attempt: 2 }]);
    await settled(mover);
    expect(firings(mover)).toEqual([fired!]);
  });

  test("a connected cronAcks client that does not acknowledge gets the firing again when the lease runs out", async () => {
    using dir = makeStateDir();
    await using daemon = await startCronDaemon(dir.path);
    const { clock, harness } = daemon;
    using client = await RawClient.open(harness.socketPath);
    await result(client, "toolpool/session", { delivery: "proxy", cronAcks: true });
    await result(client, "toolpool/call", { name: "CronCreate", input: { cron: "* * * * *", prompt: "p", recurring: false } });
    clock.advance(MINUTE);
    await client.waitFor((message) => message.method === CRON_FIRED);
    const [fired] = firings(client);
    clock.advance(DEFAULT_LEASE_MS);
    await client.waitFor(() => firings(client).length === 2);
    expect(firings(client)).toEqual([fired!, { ...fired!, attempt: 2 }]);

    expect(await result(client, "toolpool/cronAck", { firingIds: [fired!.firingId] })).toEqual({ acked: 1 });
    clock.advance(10 * DEFAULT_LEASE_MS);
    await settled(client);
    expect(firings(client).length).toBe(2);
  });

  test("without cronAcks a firing is acknowledged once written, as before: a reconnect does not see it", async () => {
    using dir = makeStateDir();
    await using daemon = await startCronDaemon(dir.path);
    const { clock, cron, harness } = daemon;
    const sessionId = "plain-agent";
    using first = await RawClient.open(harness.socketPath);
    await result(first, "toolpool/session", { sessionId, delivery: "proxy" });
    await result(first, "toolpool/call", { sessionId, name: "CronCreate", input: { cron: "* * * * *", prompt: "p", recurring: false } });
    clock.advance(MINUTE);
    await first.waitFor((message) => message.method === CRON_FIRED);
    expect(cron.scheduler.pendingCount(sessionId)).toBe(0);
    first.socket.destroy();

    using second = await RawClient.open(harness.socketPath);
    await result(second, "toolpool/session", { sessionId, cronAcks: true });
    await settled(second);
    expect(firings(second)).toEqual([]);
  });

  test("toolpool/cronAck with bad params is -32602 naming the field", async () => {
    using dir = makeStateDir();
    await using daemon = await startCronDaemon(dir.path);
    using client = await RawClient.open(daemon.harness.socketPath);
    const error = async (method: string, params: Record<string, unknown>) => (await client.request(method, params)).error;
    const invalid = (method: string, ...lines: string[]) => ({ code: -32602, message: [`Invalid params for ${method}:`, ...lines].join("\n") });
    expect(await error("toolpool/cronAck", {})).toEqual(invalid("toolpool/cronAck", '  - field "firingIds": Invalid input: expected array, received undefined'));
    expect(await error("toolpool/cronAck", { firingIds: [] })).toEqual(invalid("toolpool/cronAck", '  - field "firingIds": Too small: expected array to have >=1 items'));
    expect(await error("toolpool/cronAck", { firingIds: Array.from({ length: 501 }, (_, index) => `f${index}`) })).toEqual(
      invalid("toolpool/cronAck", '  - field "firingIds": Too big: expected array to have <=500 items'),
    );
    expect(await error("toolpool/cronAck", { firingIds: ["ok", ""] })).toEqual(invalid("toolpool/cronAck", '  - field "firingIds.1": Too small: expected string to have >=1 characters'));
    expect(await error("toolpool/cronAck", { firingIds: ["x".repeat(129)] })).toEqual(invalid("toolpool/cronAck", '  - field "firingIds.0": Too big: expected string to have <=128 characters'));
    expect(await error("toolpool/cronAck", { firingIds: ["f"], jobId: "j" })).toEqual(invalid("toolpool/cronAck", '  - top level: Unrecognized key: "jobId" (jobId)'));
    expect(await error("toolpool/cronAck", { firingIds: ["f"], sessionId: "nobody" })).toEqual({
      code: -32602,
      message: 'Invalid params: field "sessionId": no session "nobody"; open one with toolpool/session',
    });
    expect(await error("toolpool/session", { cronAcks: "yes" })).toEqual(invalid("toolpool/session", '  - field "cronAcks": Invalid input: expected boolean, received string'));
  });
});
