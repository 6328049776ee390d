/**
 * Time for the cron scheduler, passed in (STYLE habit 8): jobs run minutes to days apart, and tests
 * must check that without waiting. `systemCronClock` is the real thing; tests move a manual one.
 * It is the one clock (runtime/clock.ts) with timers added.
 */
import type { Clock } from "../runtime/clock.ts";

export interface CronClock extends Clock {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemCronClock: CronClock = {
  now: () => Date.now(),
  setTimeout(callback, ms) {
    const timer = setTimeout(callback, ms);
    // The scheduler must never be what keeps a daemon (or a test run) alive.
    timer.unref?.();
    return timer;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
