/**
 * Delivery of firings to connected clients: queued while nobody listens, delivered once on connect,
 * never twice in one process, and after a crash between send and ack delivered again with the same
 * firing id (at-least-once; a client that remembers ids handles each firing exactly once).
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { CRON_FIRED_METHOD, CronDelivery, type CronFiredNotification, type CronSink } from "../../src/cron/cron-delivery.ts";
import { HOUR, MINUTE, makeStateDir, openService, type OpenService } from "./fixture.ts";
import { ManualClock } from "./manual-clock.ts";

const T0 = "2026-01-01T00:00:00Z";

/** A client connection: what it received, and whether it takes more. */
class FakeClient implements CronSink {
  readonly received: CronFiredNotification[] = [];
  accepting = true;
  send(notification: CronFiredNotification): boolean {
    if (!this.accepting) return false;
    this.received.push(notification);
    return true;
  }
}

/** The daemon side: which clients of which session are connected. */
function connections(service: OpenService) {
  const bySession = new Map<string, FakeClient[]>();
  const delivery = new CronDelivery({ scheduler: service.scheduler, sinks: (sessionId) => bySession.get(sessionId) ?? [] });
  return {
    delivery,
    connect(sessionId: string, client = new FakeClient()) {
      bySession.set(sessionId, [...(bySession.get(sessionId) ?? []), client]);
      delivery.deliver(sessionId);
      return client;
    },
    disconnect(sessionId: string) {
      bySession.delete(sessionId);
    },
  };
}

describe("CronDelivery", () => {
  test("a firing while no client of the session is connected waits, is delivered once on connect, and never again", () => {
    using dir = makeStateDir();
    const clock = new ManualClock(T0);
    const service = openService(dir.path, clock);
    const daemon = connections(service);
    service.scheduler.start();
    const job = service.scheduler.create({ sessionId: "s1", cron: "0 * * * *", prompt: "check the build", recurring: true });
    clock.advance(HOUR);
    expect(service.scheduler.pendingCount("s1")).toBe(1);

    const client = daemon.connect("s1");
    expect(client.received).toEqual([
      {
        jsonrpc: "2.0",
        method: CRON_FIRED_METHOD,
        params: {
          sessionId: "s1",
          firingId: expect.any(String),
          jobId: job.id,
          cron: "0 * * * *",
          prompt: "check the build",
          recurring: true,
          scheduledFor: "2026-01-01T01:00:00.000Z",
          lastScheduledFor: "2026-01-01T01:00:00.000Z",
          occurrences: 1,
          firedAt: "2026-01-01T01:00:00.000Z",
          attempt: 1,
        },
      },
    ]);
    expect(service.scheduler.pendingCount("s1")).toBe(0);
    daemon.connect("s1", new FakeClient());
    expect(client.received.length).toBe(1);
    service.close();

    using restarted = openService(dir.path, clock);
    const after = connections(restarted);
    restarted.scheduler.start();
    expect(after.connect("s1").received).toEqual([]);
  });

  test("a connected client gets a firing when it happens; every client of the session gets it, once", () => {
    using dir = makeStateDir();
    const clock = new ManualClock(T0);
    using service = openService(dir.path, clock);
    const daemon = connections(service);
    service.scheduler.start();
    service.scheduler.create({ sessionId: "s1", cron: "*/10 * * * *", prompt: "poll", recurring: true });
    const first = daemon.connect("s1");
    const second = daemon.connect("s1");
    clock.advance(10 * MINUTE);
    expect([first.received.length, second.received.length, service.scheduler.pendingCount("s1")]).toEqual([1, 1, 0]);
    expect(first.received[0]?.params.firingId).toBe(second.received[0]?.params.firingId ?? "");
    clock.advance(10 * MINUTE);
    expect(first.received.map((notification) => notification.params.scheduledFor)).toEqual(["2026-01-01T00:10:00.000Z", "2026-01-01T00:20:00.000Z"]);
  });

  test("each session gets only its own firings; an absent session's wait for it", () => {
    using dir = makeStateDir();
    const clock = new ManualClock(T0);
    using service = openService(dir.path, clock);
    const daemon = connections(service);
    service.scheduler.start();
    service.scheduler.create({ sessionId: "s1", cron: "0 * * * *", prompt: "mine", recurring: true });
    service.scheduler.create({ sessionId: "s2", cron: "0 * * * *", prompt: "theirs", recurring: true });
    const client = daemon.connect("s1");
    clock.advance(HOUR);
    expect(client.received.map((notification) => notification.params.prompt)).toEqual(["mine"]);
    expect(service.scheduler.pendingCount("s2")).toBe(1);
    expect(daemon.connect("s2").received.map((notification) => notification.params.prompt)).toEqual(["theirs"]);
  });

  test("a send that fails leaves the firing queued; the next connect delivers it as attempt 2", () => {
    using dir = makeStateDir();
    const clock = new ManualClock(T0);
    using service = openService(dir.path, clock);
    const daemon = connections(service);
    service.scheduler.start();
    service.scheduler.create({ sessionId: "s1", cron: "0 * * * *", prompt: "p", recurring: true });
    const broken = new FakeClient();
    broken.accepting = false;
    daemon.connect("s1", broken);
    clock.advance(HOUR);
    expect(service.scheduler.pendingCount("s1")).toBe(1);
    daemon.disconnect("s1");
    const client = daemon.connect("s1");
    expect(client.received.map((notification) => notification.params.attempt)).toEqual([2]);
    expect(service.scheduler.pendingCount("s1")).toBe(0);
  });

  test("within one process a firing being delivered is not handed out again", () => {
    using dir = makeStateDir();
    const clock = new ManualClock(T0);
    using service = openService(dir.path, clock);
    const daemon = connections(service);
    service.scheduler.start();
    service.scheduler.create({ sessionId: "s1", cron: "0 * * * *", prompt: "p", recurring: true });
    clock.advance(HOUR);
    const inFlight = service.scheduler.claim("s1");
    expect(inFlight.length).toBe(1);
    expect(daemon.connect("s1").received).toEqual([]);
    service.scheduler.ack("s1", inFlight.map((firing) => firing.firingId));
    expect(service.scheduler.pendingCount("s1")).toBe(0);
  });

  test("a lease that runs out (an ack that never came) makes the firing deliverable again", () => {
    using dir = makeStateDir();
    const clock = new ManualClock(T0);
    using service = openService(dir.path, clock);
    const daemon = connections(service);
    service.scheduler.start();
    service.scheduler.create({ sessionId: "s1", cron: "0 * * * *", prompt: "p", recurring: false });
    clock.advance(HOUR);
    service.scheduler.claim("s1");
    const client = daemon.connect("s1");
    expect(client.received).toEqual([]);
    clock.advance(30_000);
    expect(client.received.map((notification) => notification.params.attempt)).toEqual([2]);
  });

  test("a crash between send and ack: delivered again after restart with the same firing id, then never again", async () => {
    using dir = makeStateDir();
    const clock = new ManualClock(T0);
    const setup = openService(dir.path, clock);
    setup.scheduler.start();
    setup.scheduler.create({ sessionId: "s1", cron: "0 * * * *", prompt: "p", recurring: true });
    clock.advance(HOUR);
    setup.close();

    const child = Bun.spawn([process.execPath, join(import.meta.dir, "deliver-then-crash.ts"), dir.path, "s1", new Date(clock.now()).toISOString()], {
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
    await child.exited;
    expect({ signal: child.signalCode, stderr }).toEqual({ signal: "SIGKILL", stderr: "" });
    const beforeCrash = JSON.parse(stdout) as CronFiredNotification;
    expect(beforeCrash.params.attempt).toBe(1);

    // The client handled it and remembers its id, as the protocol asks.
    const handled = new Set([beforeCrash.params.firingId]);
    clock.advance(MINUTE);
    const service = openService(dir.path, clock);
    const daemon = connections(service);
    service.scheduler.start();
    const client = daemon.connect("s1");
    expect(client.received.map(({ params }) => ({ firingId: params.firingId, attempt: params.attempt }))).toEqual([
      { firingId: beforeCrash.params.firingId, attempt: 2 },
    ]);
    const fresh = client.received.filter(({ params }) => !handled.has(params.firingId));
    expect(fresh).toEqual([]);
    service.close();

    using again = openService(dir.path, clock);
    connections(again);
    again.scheduler.start();
    expect(again.scheduler.pendingCount("s1")).toBe(0);
  });
});
