/** Cron expressions: what parses, what runs when, and the refusals the model reads. */
import { describe, expect, test } from "bun:test";
import { countSlots, CronExpressionError, parseCronExpression } from "../../src/cron/cron-expression.ts";

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

describe("parseCronExpression", () => {
  const runs: [expression: string, after: string, next: string][] = [
    ["*/15 * * * *", "2026-01-01T00:00:00Z", "2026-01-01T00:15:00.000Z"],
    ["0 9 * * 1-5", "2026-01-02T09:00:00Z", "2026-01-05T09:00:00.000Z"],
    ["0 9 * * MON-FRI", "2026-01-03T00:00:00Z", "2026-01-05T09:00:00.000Z"],
    ["30 18 1 * *", "2026-01-01T19:00:00Z", "2026-02-01T18:30:00.000Z"],
    ["0 0 29 2 *", "2026-01-01T00:00:00Z", "2028-02-29T00:00:00.000Z"],
    ["  5   4 * * *  ", "2026-01-01T00:00:00Z", "2026-01-01T04:05:00.000Z"],
    ["@hourly", "2026-01-01T00:30:00Z", "2026-01-01T01:00:00.000Z"],
  ];
  for (const [expression, after, next] of runs) {
    test(`"${expression}" after ${after} runs at ${next}`, () => {
      expect(iso(parseCronExpression(expression, "UTC").next(at(after)))).toBe(next);
    });
  }

  test("the time zone moves the runs", () => {
    expect(iso(parseCronExpression("0 9 * * *", "America/New_York").next(at("2026-01-01T00:00:00Z")))).toBe("2026-01-01T14:00:00.000Z");
  });

  test("whitespace is normalized in the stored expression", () => {
    expect(parseCronExpression("  5   4 * * *  ", "UTC").expression).toBe("5 4 * * *");
  });

  const HOW_TO =
    'Use five fields — minute hour day-of-month month day-of-week — for example "*/15 * * * *" (every 15 minutes), "0 9 * * 1-5" (09:00 on weekdays) or "30 18 1 * *" (18:30 on the 1st of each month).';
  const refused: [expression: string, message: string][] = [
    ["", `The cron expression is empty. ${HOW_TO}`],
    ["every day", `"every day" has 2 fields; a cron expression here has exactly five (no seconds, no years). ${HOW_TO}`],
    ["0 * * * * *", `"0 * * * * *" has 6 fields; a cron expression here has exactly five (no seconds, no years). ${HOW_TO}`],
    ["60 * * * *", `"60 * * * *" is not a valid 5-field cron expression: Invalid value for minute: 60. ${HOW_TO}`],
    ["*/0 * * * *", `"*/0 * * * *" is not a valid 5-field cron expression: Syntax error, illegal stepping: 0. ${HOW_TO}`],
    ["0 0 30 2 *", `"0 0 30 2 *" never matches a real date, so it would never run. ${HOW_TO}`],
  ];
  for (const [expression, message] of refused) {
    test(`refuses ${JSON.stringify(expression)}`, () => {
      expect(() => parseCronExpression(expression, "UTC")).toThrow(new CronExpressionError(message));
    });
  }

  test("refuses @reboot (there is no boot to run at)", () => {
    expect(() => parseCronExpression("@reboot", "UTC")).toThrow(CronExpressionError);
  });
});

describe("countSlots", () => {
  const minutely = parseCronExpression("* * * * *", "UTC");
  const start = at("2026-01-01T00:00:00Z");

  test("counts the runs in a window, first included, and finds the next one", () => {
    expect(countSlots(minutely, start, start + 10 * 60_000 + 5, 1000)).toEqual({ count: 11, last: start + 10 * 60_000, following: start + 11 * 60_000 });
    expect(countSlots(minutely, start, start, 1000)).toEqual({ count: 1, last: start, following: start + 60_000 });
  });

  test("stops counting at the cap but still finds the last and the next run", () => {
    const month = 30 * 24 * 60 * 60_000;
    expect(countSlots(minutely, start, start + month + 30_000, 1000)).toEqual({ count: 1000, last: start + month, following: start + month + 60_000 });
  });
});
