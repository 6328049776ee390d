/**
 * A server's `maxConcurrent`: at most that many of its calls run at once; the next ones wait in a
 * bounded queue, first come first served; past the queue a call is refused at once with a
 * retryable tool error that says so (a queue without a bound only moves the overload into memory
 * and into every waiting agent's clock). A waiting call whose signal aborts leaves the queue.
 */

/** Waiting calls per running slot, unless the server entry says otherwise. */
export const QUEUE_PER_SLOT = 4;

export type Admission = { kind: "admitted"; release: () => void } | { kind: "full"; running: number; waiting: number } | { kind: "aborted" };

export class CallQueue {
  #running = 0;
  readonly #waiting: { admit: () => void; abandon: () => void }[] = [];

  constructor(
    readonly maxConcurrent: number,
    readonly maxQueued: number = maxConcurrent * QUEUE_PER_SLOT,
  ) {}

  get running(): number {
    return this.#running;
  }

  get waiting(): number {
    return this.#waiting.length;
  }

  async acquire(signal: AbortSignal): Promise<Admission> {
    if (signal.aborted) return { kind: "aborted" };
    if (this.#running < this.maxConcurrent) return this.#admit();
    if (this.#waiting.length >= this.maxQueued) return { kind: "full", running: this.#running, waiting: this.#waiting.length };
    const { promise, resolve } = Promise.withResolvers<Admission>();
    const entry = {
      admit: () => {
        signal.removeEventListener("abort", entry.abandon);
        resolve(this.#admit());
      },
      abandon: () => {
        const at = this.#waiting.indexOf(entry);
        if (at >= 0) this.#waiting.splice(at, 1);
        resolve({ kind: "aborted" });
      },
    };
    this.#waiting.push(entry);
    signal.addEventListener("abort", entry.abandon, { once: true });
    return promise;
  }

  #admit(): Admission {
    this.#running++;
    let released = false;
    return {
      kind: "admitted",
      release: () => {
        if (released) return;
        released = true;
        this.#running--;
        this.#waiting.shift()?.admit();
      },
    };
  }
}

/** The tool error for a call refused at a full queue: retryable, and says why. */
export function queueFullMessage(server: string, tool: string, maxConcurrent: number, waiting: number): string {
  return `MCP server "${server}" is busy: ${maxConcurrent} call(s) running (its maxConcurrent) and ${waiting} waiting, the most its queue holds. ${tool} did not run; retry in a few seconds.`;
}
