/** The scheduler on a manual clock: when jobs fire, what a restart does with missed runs, and its refusals. */
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { CronError, MAX_JOBS_PER_SESSION, MAX_JOBS_TOTAL } from "../../src/cron/cron-scheduler.ts";
import { MAX_JOBS_PER_CLIENT } from "../../src/cron/client-quota.ts";
import { CronExpressionError } from "../../src/cron/cron-expression.ts";
import { HOUR, MINUTE, makeStateDir, openService } from "./fixture.ts";
import { ManualClock } from "./manual-clock.ts";

const T0 = "2026-01-01T00:00:00Z";
const t0 = Date.parse(T0);

function firingsOf(service: ReturnType<typeof openService>, sessionId: string) {
  const claimed = service.scheduler.claim(sessionId);
  service.scheduler.ack(sessionId, claimed.map((firing) => firing.firingId));
  return claimed.map(({ jobId, scheduledFor, lastScheduledFor, occurrences, attempts }) => ({
    jobId,
    scheduledFor: new Date(scheduledFor).toISOString(),
    lastScheduledFor: new Date(lastScheduledFor).toISOString(),
    occurrences,
    attempts,
  }));
}

describe("CronScheduler", () => {
  test("a job fires at its time, not before, for its creator, and the listener hears of it", () => {
    using dir = makeStateDir();
    const clock = new ManualClock(T0);
    using service = openService(dir.path, clock);
    const heard: string[] = [];
    service.scheduler.onPending((sessionId) => heard.push(sessionId));
    service.scheduler.start();
    const job = service.scheduler.create({ sessionId: "s1", cron: "*/5 * * * *", prompt: "check the build", recurring: true });
    expect(new Date(job.nextRunAt ?? 0).toISOString()).toBe("2026-01-01T00:05:00.000Z");
    clock.advance(5 * MINUTE - 1);
    expect({ heard, pending: service.scheduler.pendingCount("s1") }).toEqual({ heard: [], pending: 0 });
    clock.advance(1);
    expect(heard).toEqual(["s1"]);
    expect(firingsOf(service, "s1")).toEqual([
      { jobId: job.id, scheduledFor: "2026-01-01T00:05:00.000Z", lastScheduledFor: "2026-01-01T00:05:00.000Z", occurrences: 1, attempts: 1 },
    ]);
    // Two more runs while nobody collects: one firing standing for both.
    clock.advance(10 * MINUTE);
    expect(firingsOf(service, "s1")).toEqual([
      { jobId: job.id, scheduledFor: "2026-01-01T00:10:00.000Z", lastScheduledFor: "2026-01-01T00:15:00.000Z", occurrences: 2, attempts: 1 },
    ]);
    expect(service.scheduler.list("s1")[0]?.nextRunAt).toBe(t0 + 20 * MINUTE);
  });

  test("one timer at a time, and none when nothing is scheduled", () => {
    using dir = makeStateDir();
    const clock = new ManualClock(T0);
    using service = openService(dir.path, clock);
    service.scheduler.start();
    expect(clock.pendingTimers).toBe(0);
    const a = service.scheduler.create({ sessionId: "s1", cron: "0 * * * *", prompt: "a", recurring: true });
    service.scheduler.create({ sessionId: "s1", cron: "30 * * * *", prompt: "b", recurring: true });
    expect(clock.pendingTimers).toBe(1);
    service.scheduler.remove("s1", a.id);
    expect(clock.pendingTimers).toBe(1);
    service.scheduler.stop();
    expect(clock.pendingTimers).toBe(0);
  });

  test("a one-off job fires once and is gone", () => {
    using dir = makeStateDir();
    const clock = new ManualClock(T0);
    using service = openService(dir.path, clock);
    service.scheduler.start();
    const job = service.scheduler.create({ sessionId: "s1", cron: "0 9 * * *", prompt: "standup", recurring: false });
    clock.advance(48 * HOUR);
    expect(firingsOf(service, "s1")).toEqual([
      { jobId: job.id, scheduledFor: "2026-01-01T09:00:00.000Z", lastScheduledFor: "2026-01-01T09:00:00.000Z", occurrences: 1, attempts: 1 },
    ]);
    expect(service.scheduler.list("s1")).toEqual([]);
  });

  test("runs nobody collected are coalesced into one firing per session", () => {
    using dir = makeStateDir();
    const clock = new ManualClock(T0);
    using service = openService(dir.path, clock);
    service.scheduler.start();
    service.scheduler.create({ sessionId: "s1", cron: "0 * * * *", prompt: "hourly", recurring: true });
    clock.advance(3 * HOUR);
    expect(firingsOf(service, "s1").map(({ occurrences, scheduledFor, lastScheduledFor }) => ({ occurrences, scheduledFor, lastScheduledFor }))).toEqual([
      { occurrences: 3, scheduledFor: "2026-01-01T01:00:00.000Z", lastScheduledFor: "2026-01-01T03:00:00.000Z" },
    ]);
  });

  test("after a machine sleep the missed runs fire once, late, and the job resumes", () => {
    using dir = makeStateDir();
    const clock = new ManualClock(T0);
    using service = openService(dir.path, clock);
    service.scheduler.start();
    service.scheduler.create({ sessionId: "s1", cron: "0 * * * *", prompt: "hourly", recurring: true });
    clock.jump(5 * HOUR + 30 * MINUTE);
    clock.advance(0);
    expect(firingsOf(service, "s1").map(({ occurrences, lastScheduledFor }) => ({ occurrences, lastScheduledFor }))).toEqual([
      { occurrences: 5, lastScheduledFor: "2026-01-01T05:00:00.000Z" },
    ]);
    expect(service.scheduler.list("s1")[0]?.nextRunAt).toBe(t0 + 6 * HOUR);
  });

  test("jobs persist across a restart; runs missed while the daemon was down fire once on start", () => {
    using dir = makeStateDir();
    const clock = new ManualClock(T0);
    const before = openService(dir.path, clock);
    before.scheduler.start();
    const hourly = before.scheduler.create({ sessionId: "s1", cron: "0 * * * *", prompt: "hourly", recurring: true });
    const once = before.scheduler.create({ sessionId: "s1", cron: "0 2 * * *", prompt: "once at two", recurring: false });
    before.close();

    clock.jump(10 * HOUR + 30 * MINUTE);
    using after = openService(dir.path, clock);
    expect(after.scheduler.list("s1").map((job) => job.id).sort()).toEqual([hourly.id, once.id].sort());
    expect(after.scheduler.pendingCount("s1")).toBe(0);
    after.scheduler.start();
    const fired = firingsOf(after, "s1").sort((a, b) => a.jobId.localeCompare(b.jobId));
    const expected = [
      { jobId: hourly.id, scheduledFor: "2026-01-01T01:00:00.000Z", lastScheduledFor: "2026-01-01T10:00:00.000Z", occurrences: 10, attempts: 1 },
      { jobId: once.id, scheduledFor: "2026-01-01T02:00:00.000Z", lastScheduledFor: "2026-01-01T02:00:00.000Z", occurrences: 1, attempts: 1 },
    ].sort((a, b) => a.jobId.localeCompare(b.jobId));
    expect(fired).toEqual(expected);
    expect(after.scheduler.list("s1").map(({ id, nextRunAt }) => ({ id, nextRunAt }))).toEqual([{ id: hourly.id, nextRunAt: t0 + 11 * HOUR }]);
  });

  test("subscribers get firings too; a subscriber's remove only unsubscribes, the creator's deletes", () => {
    using dir = makeStateDir();
    const clock = new ManualClock(T0);
    using service = openService(dir.path, clock);
    service.scheduler.start();
    const job = service.scheduler.create({ sessionId: "s1", cron: "0 * * * *", prompt: "hourly", recurring: true });
    expect(service.scheduler.subscribe("s2", job.id)).toBe(true);
    expect(service.scheduler.subscribe("s2", "nope")).toBe(false);
    const occurrences = () => ["s1", "s2"].map((sessionId) => {
      const claimed = service.scheduler.claim(sessionId);
      service.scheduler.release(sessionId, claimed.map((firing) => firing.firingId));
      return claimed.reduce((sum, firing) => sum + firing.occurrences, 0);
    });
    clock.advance(HOUR);
    expect(occurrences()).toEqual([1, 1]);
    expect(service.scheduler.remove("s3", job.id)).toBeUndefined();
    expect(service.scheduler.remove("s2", job.id)).toBe("unsubscribed");
    clock.advance(HOUR);
    expect(occurrences()).toEqual([2, 1]);
    expect(service.scheduler.remove("s1", job.id)).toBe("deleted");
    clock.advance(HOUR);
    // Deleting stops future runs; what already fired is still delivered.
    expect(occurrences()).toEqual([2, 1]);
  });

  test("refusals: bad expressions, empty or long prompts, too many jobs", () => {
    using dir = makeStateDir();
    using service = openService(dir.path, new ManualClock(T0));
    const create = (cron: string, prompt = "p") => () => service.scheduler.create({ sessionId: "s1", cron, prompt, recurring: true });
    expect(create("61 * * * *")).toThrow(CronExpressionError);
    expect(create("* * * * *", "  ")).toThrow(new CronError("prompt is empty: say what should happen when the job fires."));
    expect(create("* * * * *", "x".repeat(10_001))).toThrow(new CronError("prompt is 10001 characters; the limit is 10000."));
    for (let index = 0; index < MAX_JOBS_PER_SESSION; index++) create("* * * * *")();
    expect(create("* * * * *")).toThrow(new CronError(`This session already has ${MAX_JOBS_PER_SESSION} cron jobs, the limit. Delete one with CronDelete first.`));
  });

  test("one client's sessions together hold at most MAX_JOBS_PER_CLIENT; another client still creates; deleting frees the share", () => {
    using dir = makeStateDir();
    using service = openService(dir.path, new ManualClock(T0));
    const create = (client: string, sessionId: string) => () => service.scheduler.create({ sessionId, client, cron: "* * * * *", prompt: "p", recurring: true });
    const made = [];
    for (let index = 0; index < MAX_JOBS_PER_CLIENT; index++) made.push(create("c1", `c1-s${Math.floor(index / MAX_JOBS_PER_SESSION)}`)());
    expect(create("c1", "c1-fresh-session")).toThrow(
      new CronError(`This client's sessions already hold ${MAX_JOBS_PER_CLIENT} cron jobs, the per-client limit (other clients share the daemon's ${MAX_JOBS_TOTAL}). Delete one with CronDelete first.`),
    );
    expect(create("c2", "c2-s0")().createdBy).toBe("c2-s0");
    expect(service.scheduler.remove(made[0]!.createdBy, made[0]!.id)).toBe("deleted");
    expect(create("c1", "c1-fresh-session")().createdBy).toBe("c1-fresh-session");
  });

  test("an unknown time zone is refused when the scheduler is built", () => {
    using dir = makeStateDir();
    const { openCronService } = require("../../src/cron/cron-service.ts") as typeof import("../../src/cron/cron-service.ts");
    expect(() => openCronService({ stateDir: dir.path, timezone: "Mars/Olympus" })).toThrow(
      new CronError('Unknown time zone "Mars/Olympus": give an IANA name such as Europe/Berlin.'),
    );
  });

  test("a stored expression this build cannot read parks the job instead of spinning", () => {
    using dir = makeStateDir();
    const clock = new ManualClock(T0);
    const errors: unknown[] = [];
    const setup = openService(dir.path, clock);
    const job = setup.scheduler.create({ sessionId: "s1", cron: "0 * * * *", prompt: "p", recurring: true });
    setup.close();
    const raw = new Database(setup.databasePath);
    raw.run("UPDATE jobs SET cron = 'not a cron' WHERE id = ?", [job.id]);
    raw.close();
    using service = openService(dir.path, clock, errors);
    service.scheduler.start();
    clock.advance(2 * HOUR);
    expect({ errors: errors.length, nextRunAt: service.scheduler.list("s1")[0]?.nextRunAt, timers: clock.pendingTimers }).toEqual({
      errors: 1,
      nextRunAt: null,
      timers: 0,
    });
  });
  test("a database fault while firing (disk full, locked) backs the timer off instead of spinning on a due job", () => {
    using dir = makeStateDir();
    const clock = new ManualClock(T0);
    const delays: number[] = [];
    const setTimeout = clock.setTimeout.bind(clock);
    clock.setTimeout = (callback, ms) => {
      delays.push(ms);
      return setTimeout(callback, ms);
    };
    const errors: unknown[] = [];
    using service = openService(dir.path, clock, errors);
    service.scheduler.create({ sessionId: "s1", cron: "0 * * * *", prompt: "p", recurring: true });
    const raw = new Database(service.databasePath);
    raw.run("CREATE TRIGGER fail_firing BEFORE UPDATE ON jobs BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END");
    raw.close();
    clock.jump(HOUR);
    delays.length = 0;
    service.scheduler.start();
    // The tick on start failed; each retry must wait, more after each failure, never 0 ms in a loop.
    expect(errors.length).toBe(1);
    for (let round = 0; round < 8 && delays.length > 0 && delays.at(-1)! > 0; round++) clock.advance(delays.at(-1)!);
    expect(delays.length).toBeGreaterThan(1);
    expect(delays.every((delay) => delay >= 1_000)).toBe(true);
    expect(delays.slice(0, 4)).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(errors.length).toBe(delays.length);
    // Fixed: the next tick fires the job and the timer goes back to its schedule.
    const fix = new Database(service.databasePath);
    fix.run("DROP TRIGGER fail_firing");
    fix.close();
    clock.advance(delays.at(-1)!);
    expect(service.scheduler.pendingCount("s1")).toBe(1);
    expect(delays.at(-1)).toBeGreaterThan(8_000);
    expect(service.scheduler.list("s1")[0]?.nextRunAt).toBe(t0 + 2 * HOUR);
  });
});
