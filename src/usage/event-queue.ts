/**
 * A bounded queue of events written in batches: flushed when it holds `batchSize` events or
 * `flushMs` after the first unflushed one, whichever comes first. Pushing never waits and never
 * throws; when the writer falls so far behind that `maxQueued` events wait, new ones are dropped
 * (and counted) until it catches up, because usage is worth less than the memory and the calls it
 * would hold up. (Dropping the newest keeps a push O(1); shifting out the oldest would not.)
 */

export interface QueueTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface EventQueueOptions<T> {
  /** Writes one batch; a throw is reported to `onError` and the batch is dropped. */
  write: (batch: readonly T[]) => void;
  onError: (error: unknown, dropped: number) => void;
  flushMs?: number;
  batchSize?: number;
  maxQueued?: number;
  timers?: QueueTimers;
}

export const DEFAULT_FLUSH_MS = 250;
export const DEFAULT_BATCH_SIZE = 128;
export const DEFAULT_MAX_QUEUED = 10_000;

const systemTimers: QueueTimers = {
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    // A pending flush must not keep a stopping process alive; stop() flushes what is left.
    (handle as { unref?: () => void }).unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class EventQueue<T> {
  #queued: T[] = [];
  #timer: unknown;
  #dropped = 0;
  #closed = false;
  readonly #flushMs: number;
  readonly #batchSize: number;
  readonly #maxQueued: number;
  readonly #timers: QueueTimers;

  constructor(private readonly options: EventQueueOptions<T>) {
    this.#flushMs = options.flushMs ?? DEFAULT_FLUSH_MS;
    this.#batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    this.#maxQueued = options.maxQueued ?? DEFAULT_MAX_QUEUED;
    this.#timers = options.timers ?? systemTimers;
  }

  get size(): number {
    return this.#queued.length;
  }

  /** Events dropped because the queue was full, since the start. */
  get dropped(): number {
    return this.#dropped;
  }

  push(event: T): void {
    if (this.#closed) return;
    if (this.#queued.length >= this.#maxQueued) {
      this.#dropped++;
      return;
    }
    this.#queued.push(event);
    // Written on a later tick, never inside the call that recorded the event.
    if (this.#queued.length >= this.#batchSize) this.#schedule(0);
    else this.#schedule(this.#flushMs);
  }

  /** Writes everything queued now (stats reads and shutdown call this). */
  flush(): void {
    if (this.#timer !== undefined) this.#timers.clearTimeout(this.#timer);
    this.#timer = undefined;
    while (this.#queued.length > 0) this.#writeBatch();
  }

  #writeBatch(): void {
    const batch = this.#queued.splice(0, this.#batchSize);
    try {
      this.options.write(batch);
    } catch (error) {
      this.options.onError(error, batch.length);
    }
  }

  /** Flushes and stops taking events. */
  close(): void {
    this.flush();
    this.#closed = true;
  }

  #schedule(ms: number): void {
    if (this.#timer !== undefined) {
      if (ms > 0) return;
      this.#timers.clearTimeout(this.#timer);
    }
    // One batch per turn of the event loop (~1 ms each): a backlog is written between requests,
    // never as one long stall.
    this.#timer = this.#timers.setTimeout(() => {
      this.#timer = undefined;
      this.#writeBatch();
      if (this.#queued.length > 0) this.#schedule(0);
    }, ms);
  }
}
