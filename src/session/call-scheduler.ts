/**
 * Per-session call ordering: calls that are not concurrency-safe run one at a time and alone;
 * concurrency-safe calls run side by side. A readers–writer queue in arrival order, so a write
 * never overtakes the reads that came before it, nor starves behind the reads that came after.
 */
interface Waiter {
  exclusive: boolean;
  start: () => void;
}

export class CallScheduler {
  #running = 0;
  #exclusiveRunning = false;
  readonly #queue: Waiter[] = [];

  async run<T>(exclusive: boolean, task: () => Promise<T>): Promise<T> {
    await this.#acquire(exclusive);
    try {
      return await task();
    } finally {
      this.#release(exclusive);
    }
  }

  get active(): number {
    return this.#running;
  }

  #acquire(exclusive: boolean): Promise<void> {
    if (this.#queue.length === 0 && this.#canStart(exclusive)) {
      this.#begin(exclusive);
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#queue.push({ exclusive, start: resolve }));
  }

  #canStart(exclusive: boolean): boolean {
    return exclusive ? this.#running === 0 : !this.#exclusiveRunning;
  }

  #begin(exclusive: boolean): void {
    this.#running++;
    if (exclusive) this.#exclusiveRunning = true;
  }

  #release(exclusive: boolean): void {
    this.#running--;
    if (exclusive) this.#exclusiveRunning = false;
    while (this.#queue.length > 0) {
      const next = this.#queue[0]!;
      if (!this.#canStart(next.exclusive)) break;
      this.#queue.shift();
      this.#begin(next.exclusive);
      next.start();
      if (next.exclusive) break;
    }
  }
}
