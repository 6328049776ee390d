/** CronCreate, CronList and CronDelete through the execution pipeline, on a scheduler with a manual clock. */
import { describe, expect, test } from "bun:test";
import { createCronTools } from "../../src/builtin/cron-tools.ts";
import { makeStateDir, openService } from "../cron/fixture.ts";
import { ManualClock } from "../cron/manual-clock.ts";
import { makeWorkspace } from "./fixture.ts";

const T0 = "2026-01-01T00:00:00Z";

function setup() {
  const dir = makeStateDir();
  const clock = new ManualClock(T0);
  const service = openService(dir.path, clock);
  service.scheduler.start();
  const workspace = makeWorkspace();
  const tools = createCronTools(service.scheduler);
  const run = (name: string, input: unknown, sessionId = "s1", permissions?: { mode: "default" | "readOnly" | "bypass"; allow: string[]; deny: string[] }) =>
    workspace.run(name, input, { tools, context: { sessionId }, ...(permissions && { permissions }) });
  const call = (name: string, input: unknown, sessionId = "s1") => workspace.call(name, input, { tools, context: { sessionId } });
  return {
    clock,
    service,
    run,
    call,
    [Symbol.dispose]() {
      service.close();
      workspace[Symbol.dispose]();
      dir[Symbol.dispose]();
    },
  };
}

describe("cron tools", () => {
  test("create, list and delete a job", async () => {
    using cron = setup();
    const created = await cron.call("CronCreate", { cron: "0 9 * * 1-5", prompt: "Summarize yesterday's failed builds" });
    const job = created.structuredContent?.job as { id: string };
    expect(created).toEqual({
      content: [
        {
          type: "text",
          text:
            `Scheduled recurring job ${job.id} ("0 9 * * 1-5"). Next run: 2026-01-01 09:00 UTC. ` +
            "When it fires, this session's client is notified with the prompt (or, if none is connected, when one reconnects).",
        },
      ],
      isError: false,
      structuredContent: {
        job: {
          id: job.id,
          cron: "0 9 * * 1-5",
          prompt: "Summarize yesterday's failed builds",
          recurring: true,
          nextRunAt: "2026-01-01T09:00:00.000Z",
          nextRunLocal: "2026-01-01 09:00 UTC",
        },
      },
    });
    const once = (await cron.call("CronCreate", { cron: "30 12 * * *", prompt: "Lunch reminder", recurring: false })).structuredContent?.job as { id: string };
    expect(await cron.run("CronList", {})).toEqual({
      text: [
        "2 cron jobs:",
        `- ${job.id}: "0 9 * * 1-5", recurring, next run 2026-01-01 09:00 UTC`,
        "  prompt: Summarize yesterday's failed builds",
        `- ${once.id}: "30 12 * * *", one-off, next run 2026-01-01 12:30 UTC`,
        "  prompt: Lunch reminder",
      ].join("\n"),
      isError: false,
    });
    expect(await cron.run("CronDelete", { id: job.id })).toEqual({ text: `Deleted cron job ${job.id}; it will not fire again.`, isError: false });
    expect((await cron.run("CronList", {})).text).toStartWith("1 cron job:\n");
    expect(await cron.run("CronList", {}, "other")).toEqual({ text: "No cron jobs in this session. Create one with CronCreate.", isError: false });
  });

  test("a bad cron expression is refused with an example of a good one", async () => {
    using cron = setup();
    expect(await cron.run("CronCreate", { cron: "every morning", prompt: "x" })).toEqual({
      text:
        '"every morning" has 2 fields; a cron expression here has exactly five (no seconds, no years). Use five fields — minute hour day-of-month month day-of-week — for example "*/15 * * * *" (every 15 minutes), "0 9 * * 1-5" (09:00 on weekdays) or "30 18 1 * *" (18:30 on the 1st of each month).',
      isError: true,
    });
    expect((await cron.run("CronCreate", { cron: "0 25 * * *", prompt: "x" })).text).toStartWith(
      '"0 25 * * *" is not a valid 5-field cron expression: Invalid value for hour: 25.',
    );
    expect(cron.service.scheduler.list("s1")).toEqual([]);
  });

  test("deleting an unknown id names the session's jobs; another session's job is only unsubscribed", async () => {
    using cron = setup();
    const job = (await cron.call("CronCreate", { cron: "0 * * * *", prompt: "hourly" })).structuredContent?.job as { id: string };
    expect(await cron.run("CronDelete", { id: "nope" })).toEqual({ text: `No cron job "nope" in this session. This session's jobs are: ${job.id}.`, isError: true });
    expect(await cron.run("CronDelete", { id: job.id }, "s2")).toEqual({ text: `No cron job "${job.id}" in this session. This session has no cron jobs.`, isError: true });
    cron.service.scheduler.subscribe("s2", job.id);
    expect((await cron.run("CronList", {}, "s2")).text).toContain(`- ${job.id} [subscribed]: "0 * * * *"`);
    expect(await cron.run("CronDelete", { id: job.id }, "s2")).toEqual({
      text: `Cron job ${job.id} belongs to another session; this session will no longer receive its firings.`,
      isError: false,
    });
    expect(cron.service.scheduler.list("s1").length).toBe(1);
  });

  test("a job created through the tool survives a restart and is listed again", async () => {
    using dir = makeStateDir();
    const clock = new ManualClock(T0);
    using workspace = makeWorkspace();
    const first = openService(dir.path, clock);
    const created = await workspace.call("CronCreate", { cron: "15 * * * *", prompt: "p" }, { tools: createCronTools(first.scheduler), context: { sessionId: "s1" } });
    const id = (created.structuredContent?.job as { id: string }).id;
    first.close();
    using second = openService(dir.path, clock);
    const listed = await workspace.run("CronList", {}, { tools: createCronTools(second.scheduler), context: { sessionId: "s1" } });
    expect(listed.text).toBe(`1 cron job:\n- ${id}: "15 * * * *", recurring, next run 2026-01-01 00:15 UTC\n  prompt: p`);
  });

  test("read-only sessions may list but not create or delete", async () => {
    using cron = setup();
    const readOnly = { mode: "readOnly" as const, allow: [], deny: [] };
    expect(await cron.run("CronCreate", { cron: "0 * * * *", prompt: "p" }, "s1", readOnly)).toEqual({
      text: "Permission denied for CronCreate: the session is read-only and this call may write.",
      isError: true,
    });
    expect((await cron.run("CronList", {}, "s1", readOnly)).isError).toBe(false);
    expect((await cron.run("CronDelete", { id: "x" }, "s1", readOnly)).isError).toBe(true);
  });

  test("descriptions name the time zone; all three are deferred", () => {
    using cron = setup();
    const tools = createCronTools(cron.service.scheduler);
    expect(tools.map((tool) => [tool.name, tool.shouldDefer, tool.description.endsWith("Times are in the daemon's time zone, UTC.")])).toEqual([
      ["CronCreate", true, true],
      ["CronList", true, true],
      ["CronDelete", true, false],
    ]);
  });
});
