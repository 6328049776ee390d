/**
 * Wall-clock time, passed in like the logger: session ages, eviction and uptime read it, so tests
 * move a manual clock instead of sleeping. (Cron has its own clock with timers: src/cron/cron-clock.ts.)
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
