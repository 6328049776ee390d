/** The cron store: what survives a re-open, and the transactional rules of the outbox. */
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import type { CronJobRecord } from "../../src/cron/cron-schema.ts";
import { CronStore, type FiringRecord } from "../../src/cron/cron-store.ts";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { openCronService } from "../../src/cron/cron-service.ts";
import { makeStateDir } from "./fixture.ts";

const T0 = Date.parse("2026-01-01T00:00:00Z");
const job = (overrides: Partial<CronJobRecord> = {}): CronJobRecord => ({
  id: "job1",
  cron: "* * * * *",
  prompt: "check the build",
  recurring: true,
  createdBy: "s1",
  createdAt: T0,
  nextRunAt: T0 + 60_000,
  lastFiredAt: null,
  ...overrides,
});
let ids = 0;
const firing = (record: CronJobRecord, overrides: Partial<FiringRecord> = {}): FiringRecord => ({
  job: record,
  scheduledFor: record.nextRunAt as number,
  lastScheduledFor: record.nextRunAt as number,
  occurrences: 1,
  firedAt: record.nextRunAt as number,
  nextRunAt: (record.nextRunAt as number) + 60_000,
  newFiringId: () => `f${++ids}`,
  ...overrides,
});

describe("CronStore", () => {
  test("jobs, subscriptions and queued firings survive closing and re-opening the database", () => {
    using dir = makeStateDir();
    const path = join(dir.path, "cron.sqlite");
    const first = new CronStore(path);
    first.insertJob(job());
    first.subscribe("job1", "s2", T0);
    expect(first.recordFiring(firing(job()))).toEqual(["s1", "s2"]);
    first.close();

    const second = new CronStore(path);
    expect(second.jobsForSession("s2")).toEqual([{ ...job(), nextRunAt: T0 + 120_000, lastFiredAt: T0 + 60_000 }]);
    expect(second.claim("s1", T0, T0 + 1000, 10).map(({ sessionId, jobId, occurrences, attempts }) => ({ sessionId, jobId, occurrences, attempts }))).toEqual([
      { sessionId: "s1", jobId: "job1", occurrences: 1, attempts: 1 },
    ]);
    expect(second.pendingCount("s2")).toBe(1);
    second.close();
  });

  test("the same scheduled run cannot be recorded twice", () => {
    using store = disposable(new CronStore(":memory:"));
    store.value.insertJob(job());
    expect(store.value.recordFiring(firing(job()))).toEqual(["s1"]);
    // A second recorder (a duplicate timer, a second daemon) read the job before the first moved it.
    expect(store.value.recordFiring(firing(job()))).toEqual([]);
    expect(store.value.pendingCount("s1")).toBe(1);
  });

  test("a firing not yet attempted absorbs the next one of the same job; an attempted one does not", () => {
    using store = disposable(new CronStore(":memory:"));
    let current = job();
    store.value.insertJob(current);
    for (let run = 0; run < 3; run++) {
      store.value.recordFiring(firing(current));
      current = store.value.getJob("job1") as CronJobRecord;
    }
    const [merged] = store.value.claim("s1", T0, T0 + 1, 10);
    expect({ occurrences: merged?.occurrences, scheduledFor: merged?.scheduledFor, last: merged?.lastScheduledFor }).toEqual({
      occurrences: 3,
      scheduledFor: T0 + 60_000,
      last: T0 + 180_000,
    });
    store.value.release("s1", [merged?.firingId ?? ""]);
    store.value.recordFiring(firing(current));
    expect(store.value.pendingCount("s1")).toBe(2);
  });

  test("claim leases, ack removes, release and lease expiry give back", () => {
    using store = disposable(new CronStore(":memory:"));
    store.value.insertJob(job());
    store.value.recordFiring(firing(job()));
    const [claimed] = store.value.claim("s1", T0, T0 + 1000, 10);
    expect(store.value.claim("s1", T0 + 999, T0 + 2000, 10)).toEqual([]);
    expect(store.value.earliestWake()).toBe(T0 + 1000);
    expect(store.value.releaseExpired(T0 + 1000)).toEqual(["s1"]);
    const [again] = store.value.claim("s1", T0 + 1000, T0 + 2000, 10);
    expect({ same: again?.firingId === claimed?.firingId, attempts: again?.attempts }).toEqual({ same: true, attempts: 2 });
    expect(store.value.ack("s1", [claimed?.firingId ?? "", "unknown"])).toBe(1);
    expect(store.value.ack("s1", [claimed?.firingId ?? ""])).toBe(0);
    expect(store.value.pendingCount("s1")).toBe(0);
  });

  test("a one-off job is gone after its firing, which stays queued; deleting a job keeps its firings too", () => {
    using store = disposable(new CronStore(":memory:"));
    store.value.insertJob(job({ recurring: false }));
    store.value.recordFiring(firing(job({ recurring: false }), { nextRunAt: null }));
    expect({ job: store.value.getJob("job1"), subscriptions: store.value.subscribers("job1"), pending: store.value.pendingCount("s1") }).toEqual({
      job: undefined,
      subscriptions: [],
      pending: 1,
    });
    store.value.insertJob(job({ id: "job2" }));
    store.value.recordFiring(firing(job({ id: "job2" })));
    expect(store.value.deleteJob("job2")).toBe(true);
    expect(store.value.pendingCount("s1")).toBe(2);
  });

  test("refuses a database written by a newer schema", () => {
    using dir = makeStateDir();
    const path = join(dir.path, "cron.sqlite");
    new CronStore(path).close();
    const raw = new Database(path);
    raw.run("UPDATE meta SET value = '99' WHERE key = 'schema'");
    raw.close();
    expect(() => new CronStore(path)).toThrow(`${path} has cron schema version 99; this daemon reads version 1`);
  });

  test("a cron database that is not a database is moved aside and the service starts empty, saying so", () => {
    using dir = makeStateDir();
    const path = join(dir.path, "cron.sqlite");
    writeFileSync(path, "not a database, just text ".repeat(200));
    const errors: unknown[] = [];
    const service = openCronService({ stateDir: dir.path, timezone: "UTC", onError: (error) => errors.push(error) });
    try {
      expect(service.scheduler.list("s1")).toEqual([]);
      const aside = readdirSync(dir.path).filter((name) => name.startsWith("cron.sqlite.corrupt-"));
      expect(aside).toHaveLength(1);
      expect(readFileSync(join(dir.path, aside[0]!), "utf8")).toStartWith("not a database");
      expect(errors.map(String)).toEqual([
        `Error: cron database ${path} cannot be read (file is not a database); moved it to ${join(dir.path, aside[0]!)} and started with no jobs`,
      ]);
    } finally {
      service.close();
    }
  });
});

function disposable(store: CronStore) {
  return { value: store, [Symbol.dispose]: () => store.close() };
}
