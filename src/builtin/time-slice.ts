/**
 * Cooperative time slicing for long loops on the thread that serves every client (a walk over a
 * directory of 50,000 entries, matching the lines of a large file): the loop asks `pause()` often,
 * and every `sliceMs` of wall time it gives the event loop a turn, so other clients' requests are
 * answered in between, and it stops there once the call is cancelled.
 */

/** Longest stretch a loop keeps the event loop before it yields (a ping waits no longer). */
export const DEFAULT_SLICE_MS = 8;

/** Gives the event loop a turn (timers, sockets, I/O callbacks) before the loop goes on. */
export type Yielder = () => Promise<void>;
export const yieldToEventLoop: Yielder = () => new Promise((resolve) => setImmediate(resolve));

export interface TimeSliceOptions {
  signal?: AbortSignal | undefined;
  yielder?: Yielder;
  now?: () => number;
  sliceMs?: number;
  /** The message of the error thrown when the signal has fired. */
  cancelledMessage?: string;
}

/** A `pause()` to await inside a loop; it resolves at once until the slice is used up. */
export function timeSlicer(options: TimeSliceOptions = {}): () => Promise<void> {
  const yielder = options.yielder ?? yieldToEventLoop;
  const now = options.now ?? (() => performance.now());
  const sliceMs = options.sliceMs ?? DEFAULT_SLICE_MS;
  let sliceStart = now();
  return async () => {
    if (now() - sliceStart < sliceMs) return;
    await yielder();
    if (options.signal?.aborted) throw new Error(options.cancelledMessage ?? "the search was cancelled");
    sliceStart = now();
  };
}
