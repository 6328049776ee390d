/**
 * Bounded parallelism for background connects: twenty servers spawning at once would fight for
 * CPU and make every one of them slow to start. Waiters are served first come, first served; a
 * waiter whose signal aborts leaves the queue without taking a slot, and one a call is waiting for
 * is promoted past the others. `turn()` paces the starts
 * themselves: a spawn blocks the thread for milliseconds, and eight in one turn of the event loop
 * kept the daemon's socket unanswered for ~140 ms at start-up.
 */
export class ConnectLimiter {
  #active = 0;
  #lastTurn: Promise<void> = Promise.resolve();
  readonly #queue: { grant: () => void; signal: AbortSignal }[] = [];

  constructor(private readonly limit: number) {}

  /** Resolves with a release function once a slot is free; rejects if `signal` aborts first. */
  acquire(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.#active < this.limit) {
      this.#active++;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve, reject) => {
      const entry = {
        signal,
        grant: () => {
          signal.removeEventListener("abort", onAbort);
          resolve(this.#releaser());
        },
      };
      const onAbort = () => {
        const index = this.#queue.indexOf(entry);
        if (index !== -1) this.#queue.splice(index, 1);
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#queue.push(entry);
    });
  }

  /** Resolves on a later event-loop turn than every earlier caller's: one start per turn, I/O between. */
  /**
   * A waiter whose server a call now needs leaves the queue and starts at once, over the limit if it
   * must: it must not wait behind every eager server still queued. False when `signal` is not queued.
   */
  promote(signal: AbortSignal): boolean {
    const index = this.#queue.findIndex((entry) => entry.signal === signal);
    if (index === -1) return false;
    const [entry] = this.#queue.splice(index, 1);
    this.#active++;
    entry!.grant();
    return true;
  }

  turn(priority = false): Promise<void> {
    // A promoted start is not paced behind the queue's turns either.
    if (priority) return new Promise<void>((resolve) => setImmediate(resolve));
    const next = this.#lastTurn.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
    this.#lastTurn = next;
    return next;
  }

  get active(): number {
    return this.#active;
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // A promoted start ran over the limit: its slot ends with it, not passed on.
      if (this.#active > this.limit) {
        this.#active--;
        return;
      }
      const next = this.#queue.shift();
      // The slot passes straight to the next waiter, so the count stays the same.
      if (next) next.grant();
      else this.#active--;
    };
  }
}
