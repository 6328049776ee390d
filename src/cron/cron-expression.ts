/**
 * Cron expressions: standard 5 fields (minute hour day-of-month month day-of-week, with names,
 * ranges, lists and steps) or a nickname (@hourly, @daily, ...), parsed by croner. A pattern that
 * croner refuses, or that can never match (February 30th), is refused with a message that shows
 * the model what a valid one looks like. Croner is used for arithmetic only: no callback is given,
 * so it starts no timers of its own; the scheduler owns time.
 */
import { Cron } from "croner";

export class CronExpressionError extends Error {
  override readonly name = "CronExpressionError";
}

export interface CronSchedule {
  readonly expression: string;
  /** The first run strictly after `afterMs`, or undefined when there is none. */
  next(afterMs: number): number | undefined;
  /** The last run at or before `atMs`, or undefined when there is none. */
  previous(atMs: number): number | undefined;
}

const HOW_TO =
  'Use five fields — minute hour day-of-month month day-of-week — for example "*/15 * * * *" (every 15 minutes), ' +
  '"0 9 * * 1-5" (09:00 on weekdays) or "30 18 1 * *" (18:30 on the 1st of each month).';

/** A schedule for `expression` in `timezone` (an IANA name; the system's when absent). */
export function parseCronExpression(expression: string, timezone?: string): CronSchedule {
  const trimmed = expression.trim().replace(/\s+/g, " ");
  if (trimmed === "") throw new CronExpressionError(`The cron expression is empty. ${HOW_TO}`);
  if (!trimmed.startsWith("@") && trimmed.split(" ").length !== 5) {
    throw new CronExpressionError(
      `"${trimmed}" has ${trimmed.split(" ").length} fields; a cron expression here has exactly five (no seconds, no years). ${HOW_TO}`,
    );
  }
  let cron: Cron;
  try {
    cron = new Cron(trimmed, { mode: "5-part", ...(timezone !== undefined && { timezone }) });
  } catch (error) {
    const reason = (error as Error).message.replace(/^CronPattern:\s*/, "");
    throw new CronExpressionError(`"${trimmed}" is not a valid 5-field cron expression: ${reason}. ${HOW_TO}`);
  }
  const next = (afterMs: number): number | undefined => cron.nextRun(new Date(afterMs))?.getTime();
  let first: number | undefined;
  try {
    first = next(Date.now());
  } catch (error) {
    throw new CronExpressionError(`The time zone ${JSON.stringify(timezone)} cannot be used: ${(error as Error).message}`);
  }
  if (first === undefined) throw new CronExpressionError(`"${trimmed}" never matches a real date, so it would never run. ${HOW_TO}`);
  // previousRuns counts a run earlier in the reference's own second; a millisecond later keeps `atMs` itself.
  const previous = (atMs: number): number | undefined => cron.previousRuns(1, new Date(atMs + 1))[0]?.getTime();
  return { expression: trimmed, next, previous };
}

/** Whether `timezone` names a time zone this runtime knows. */
export function isKnownTimezone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

export interface SlotCount {
  /** How many scheduled times fall in the window (at most `cap`). */
  count: number;
  /** The last of them. */
  last: number;
  /** The first scheduled time after the window, if any. */
  following: number | undefined;
}

/**
 * The scheduled times from `first` (itself one) up to `until` inclusive. Counting stops at `cap` so
 * a minutely job after a month of downtime costs a bounded loop, not 43,200 iterations.
 */
export function countSlots(schedule: CronSchedule, first: number, until: number, cap: number): SlotCount {
  let count = 1;
  let last = first;
  let following = schedule.next(first);
  while (following !== undefined && following <= until) {
    if (count >= cap) {
      // Past the cap, jump to the window's end: only its last run and the next one still matter.
      return { count, last: schedule.previous(until) ?? last, following: schedule.next(until) };
    }
    count++;
    last = following;
    following = schedule.next(following);
  }
  return { count, last, following };
}
