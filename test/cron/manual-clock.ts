/** A clock the test moves by hand: timers run, in order, only when `advance` passes their time. */
import type { TimerClock } from "../../src/runtime/clock.ts";

interface PendingTimer {
  at: number;
  callback: () => void;
}

export class ManualClock implements TimerClock {
  #now: number;
  #nextId = 1;
  readonly #timers = new Map<number, PendingTimer>();

  constructor(start: number | string) {
    this.#now = typeof start === "string" ? Date.parse(start) : start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): number {
    const id = this.#nextId++;
    this.#timers.set(id, { at: this.#now + Math.max(0, ms), callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }

  get pendingTimers(): number {
    return this.#timers.size;
  }

  /** Moves time forward by `ms`, running every timer that comes due on the way, at its own time. */
  advance(ms: number): void {
    const target = this.#now + ms;
    for (;;) {
      let dueId: number | undefined;
      let due: PendingTimer | undefined;
      for (const [id, timer] of this.#timers) {
        if (timer.at <= target && (!due || timer.at < due.at)) {
          dueId = id;
          due = timer;
        }
      }
      if (!due || dueId === undefined) break;
      this.#timers.delete(dueId);
      this.#now = Math.max(this.#now, due.at);
      due.callback();
    }
    this.#now = target;
  }

  /** Jumps without running timers: the machine was asleep, or the daemon was not running. */
  jump(ms: number): void {
    this.#now += ms;
  }
}
