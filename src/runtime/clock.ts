/**
 * Wall-clock time, passed in like the logger: session ages, eviction and uptime read it, so tests
 * move a manual clock instead of sleeping. `TimerClock` adds timers (the cron scheduler, the search
 * index's background catch-up), which never keep a stopping daemon (or a test run) alive.
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export interface TimerClock extends Clock {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemTimerClock: TimerClock = {
  now: () => Date.now(),
  setTimeout(callback, ms) {
    const timer = setTimeout(callback, ms);
    timer.unref?.();
    return timer;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
