/**
 * Time, passed in (STYLE habit 8): supervision waits seconds to minutes between restarts, and tests
 * must check that without waiting. `systemTimers` is the real thing; tests hand in a manual clock.
 */
export type TimerHandle = { readonly id: unknown };

export interface Timers {
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  /** In [0, 1); jitter comes from here so tests can pin it. */
  random(): number;
}

export const systemTimers: Timers = {
  now: () => Date.now(),
  setTimeout(callback, ms) {
    const id = setTimeout(callback, ms);
    // Timers of the pool (backoff, kill grace) must never keep the daemon or a test run alive.
    id.unref?.();
    return { id };
  },
  clearTimeout(handle) {
    clearTimeout(handle.id as ReturnType<typeof setTimeout>);
  },
  random: () => Math.random(),
};

/** Resolves after `ms` on the given timers. */
export function delay(timers: Timers, ms: number): Promise<void> {
  return new Promise((resolve) => timers.setTimeout(resolve, ms));
}
