/**
 * Calls waiting for a server that is starting. Each waiter leaves on its own signal (a cancelled
 * call must not wait for the server), and the rest are released together when the server connects
 * or fails.
 */
export class ReadyGate<Value> {
  readonly #waiters = new Set<{ resolve: (value: Value) => void; reject: (error: Error) => void }>();

  get size(): number {
    return this.#waiters.size;
  }

  /** Waits for `open` or `fail`; rejects with `onAbort()` if `signal` fires first. */
  wait(signal: AbortSignal, onAbort: () => Error): Promise<Value> {
    if (signal.aborted) return Promise.reject(onAbort());
    return new Promise((resolve, reject) => {
      const aborted = () => {
        this.#waiters.delete(waiter);
        reject(onAbort());
      };
      const waiter = {
        resolve: (value: Value) => {
          signal.removeEventListener("abort", aborted);
          resolve(value);
        },
        reject: (error: Error) => {
          signal.removeEventListener("abort", aborted);
          reject(error);
        },
      };
      signal.addEventListener("abort", aborted, { once: true });
      this.#waiters.add(waiter);
    });
  }

  open(value: Value): void {
    for (const waiter of this.#waiters) waiter.resolve(value);
    this.#waiters.clear();
  }

  fail(error: Error): void {
    for (const waiter of this.#waiters) waiter.reject(error);
    this.#waiters.clear();
  }
}
