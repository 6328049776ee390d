/**
 * Delivery to clients that acknowledge firings themselves (`toolpool/session {cronAcks: true}`):
 * a firing only such clients took leaves the outbox when one of them acknowledges it; unacknowledged
 * it is delivered again when its lease runs out, or at once to the next client when its holders go.
 */
import { describe, expect, test } from "bun:test";
import { DEFAULT_LEASE_MS } from "../../src/cron/cron-scheduler.ts";
import { CronDelivery, type CronFiredNotification, type CronSink } from "../../src/cron/cron-delivery.ts";
import { HOUR, MINUTE, makeStateDir, openService, type OpenService } from "./fixture.ts";
import { ManualClock } from "./manual-clock.ts";

const T0 = "2026-01-01T00:00:00Z";

/** A client connection: what it received, and whether it acknowledges firings itself. */
class FakeClient implements CronSink {
  readonly received: CronFiredNotification[] = [];
  constructor(readonly acknowledges: boolean) {}
  send(notification: CronFiredNotification): boolean {
    this.received.push(notification);
    return true;
  }
  /** firingId@attempt of each firing received, in order. */
  get seen(): string[] {
    return this.received.map(({ params }) => `${params.firingId}@${params.attempt}`);
  }
}

/** The daemon side: which clients of which session are connected; a disconnect is reported. */
function connections(service: OpenService) {
  const bySession = new Map<string, FakeClient[]>();
  const delivery = new CronDelivery({ scheduler: service.scheduler, sinks: (sessionId) => bySession.get(sessionId) ?? [] });
  return {
    delivery,
    connect(sessionId: string, acknowledges: boolean) {
      const client = new FakeClient(acknowledges);
      bySession.set(sessionId, [...(bySession.get(sessionId) ?? []), client]);
      delivery.deliver(sessionId);
      return client;
    },
    disconnect(sessionId: string, client: FakeClient) {
      bySession.set(sessionId, (bySession.get(sessionId) ?? []).filter((connected) => connected !== client));
      delivery.clientGone(client);
    },
  };
}

/** A started service on a manual clock and the daemon side of it; disposing closes the service. */
function started(dir: string) {
  const clock = new ManualClock(T0);
  const service = openService(dir, clock);
  service.scheduler.start();
  return { clock, service, daemon: connections(service), [Symbol.dispose]: service.close };
}

describe("CronDelivery with clients that acknowledge", () => {
  test("a firing taken only by a cronAcks client stays queued (claimed) until the client acknowledges it", () => {
    using dir = makeStateDir();
    using fixture = started(dir.path);
    const { clock, service, daemon } = fixture;
    service.scheduler.create({ sessionId: "s1", cron: "0 * * * *", prompt: "check the build", recurring: false });
    const client = daemon.connect("s1", true);
    clock.advance(HOUR);
    const firingId = client.received[0]?.params.firingId ?? "";
    expect(client.seen).toEqual([`${firingId}@1`]);
    expect({ pending: service.scheduler.pendingCount("s1"), awaiting: daemon.delivery.awaitingAcks }).toEqual({ pending: 1, awaiting: 1 });
    // Claimed for the first client: a second one connecting meanwhile is not handed it again.
    expect(daemon.connect("s1", true).received).toEqual([]);

    expect(daemon.delivery.acknowledge("s1", [firingId, "no-such-firing"])).toBe(1);
    expect({ pending: service.scheduler.pendingCount("s1"), awaiting: daemon.delivery.awaitingAcks }).toEqual({ pending: 0, awaiting: 0 });
    expect(daemon.delivery.acknowledge("s1", [firingId])).toBe(0);
    clock.advance(HOUR);
    expect(client.seen).toEqual([`${firingId}@1`]);
  });

  test("another session's id does not acknowledge a firing", () => {
    using dir = makeStateDir();
    using fixture = started(dir.path);
    const { clock, service, daemon } = fixture;
    service.scheduler.create({ sessionId: "s1", cron: "0 * * * *", prompt: "p", recurring: false });
    const client = daemon.connect("s1", true);
    clock.advance(HOUR);
    expect(daemon.delivery.acknowledge("s2", [client.received[0]?.params.firingId ?? ""])).toBe(0);
    expect({ pending: service.scheduler.pendingCount("s1"), awaiting: daemon.delivery.awaitingAcks }).toEqual({ pending: 1, awaiting: 1 });
  });

  test("unacknowledged, it is delivered again to the connected client when the lease runs out: attempt 2, same firingId", () => {
    using dir = makeStateDir();
    using fixture = started(dir.path);
    const { clock, service, daemon } = fixture;
    service.scheduler.create({ sessionId: "s1", cron: "0 * * * *", prompt: "p", recurring: false });
    const client = daemon.connect("s1", true);
    clock.advance(HOUR);
    const firingId = client.received[0]?.params.firingId ?? "";
    clock.advance(DEFAULT_LEASE_MS - 1);
    expect(client.seen).toEqual([`${firingId}@1`]);
    clock.advance(1);
    expect(client.seen).toEqual([`${firingId}@1`, `${firingId}@2`]);
    expect(client.received[1]?.params).toEqual({ ...client.received[0]!.params, attempt: 2 });

    expect(daemon.delivery.acknowledge("s1", [firingId])).toBe(1);
    clock.advance(10 * DEFAULT_LEASE_MS);
    expect(client.seen).toEqual([`${firingId}@1`, `${firingId}@2`]);
    expect(service.scheduler.pendingCount("s1")).toBe(0);
  });

  test("a cronAcks client that disconnects gives what it did not acknowledge to the next client at once", () => {
    using dir = makeStateDir();
    using fixture = started(dir.path);
    const { clock, service, daemon } = fixture;
    service.scheduler.create({ sessionId: "s1", cron: "0 * * * *", prompt: "a", recurring: false });
    service.scheduler.create({ sessionId: "s1", cron: "0 * * * *", prompt: "b", recurring: false });
    const first = daemon.connect("s1", true);
    clock.advance(HOUR);
    const [handled, dropped] = first.received.map(({ params }) => params.firingId);
    expect(first.seen).toEqual([`${handled}@1`, `${dropped}@1`]);
    expect(daemon.delivery.acknowledge("s1", [handled!])).toBe(1);

    daemon.disconnect("s1", first);
    expect(daemon.delivery.awaitingAcks).toBe(0);
    // No time passes: the lease has not run out, the release on disconnect is what frees it.
    const next = daemon.connect("s1", true);
    expect(next.seen).toEqual([`${dropped}@2`]);
    expect(daemon.delivery.acknowledge("s1", [dropped!])).toBe(1);
    expect(service.scheduler.pendingCount("s1")).toBe(0);
  });

  test("a firing two cronAcks clients hold is released only when the last of them goes", () => {
    using dir = makeStateDir();
    using fixture = started(dir.path);
    const { clock, service, daemon } = fixture;
    service.scheduler.create({ sessionId: "s1", cron: "0 * * * *", prompt: "p", recurring: false });
    const first = daemon.connect("s1", true);
    const second = daemon.connect("s1", true);
    clock.advance(HOUR);
    const firingId = first.received[0]?.params.firingId ?? "";
    expect([first.seen, second.seen]).toEqual([[`${firingId}@1`], [`${firingId}@1`]]);

    daemon.disconnect("s1", first);
    // The second client may still acknowledge it: it stays claimed.
    const third = daemon.connect("s1", true);
    expect(third.received).toEqual([]);
    expect(service.scheduler.pendingCount("s1")).toBe(1);

    daemon.disconnect("s1", second);
    expect(third.seen).toEqual([`${firingId}@2`]);
  });

  test("a firing a cronAcks client acknowledged is not released when it disconnects", () => {
    using dir = makeStateDir();
    using fixture = started(dir.path);
    const { clock, service, daemon } = fixture;
    service.scheduler.create({ sessionId: "s1", cron: "*/10 * * * *", prompt: "p", recurring: true });
    const client = daemon.connect("s1", true);
    clock.advance(10 * MINUTE);
    daemon.delivery.acknowledge("s1", client.received.map(({ params }) => params.firingId));
    daemon.disconnect("s1", client);
    expect(daemon.connect("s1", true).received).toEqual([]);
    expect(service.scheduler.pendingCount("s1")).toBe(0);
  });

  test("mixed: when a client that does not acknowledge took the firing too, it is acknowledged at once", () => {
    using dir = makeStateDir();
    using fixture = started(dir.path);
    const { clock, service, daemon } = fixture;
    service.scheduler.create({ sessionId: "s1", cron: "0 * * * *", prompt: "p", recurring: false });
    const acking = daemon.connect("s1", true);
    const plain = daemon.connect("s1", false);
    clock.advance(HOUR);
    const firingId = plain.received[0]?.params.firingId ?? "";
    expect([acking.seen, plain.seen]).toEqual([[`${firingId}@1`], [`${firingId}@1`]]);
    expect({ pending: service.scheduler.pendingCount("s1"), awaiting: daemon.delivery.awaitingAcks }).toEqual({ pending: 0, awaiting: 0 });
    expect(daemon.delivery.acknowledge("s1", [firingId])).toBe(0);

    daemon.disconnect("s1", acking);
    clock.advance(10 * DEFAULT_LEASE_MS);
    expect(daemon.connect("s1", true).received).toEqual([]);
  });
});
