/**
 * Fair turns for connections with a backlog of requests. A connection dispatches the first line of
 * each read at once (an interactive client — one request, then its answer — never queues); what
 * else it has read waits here and is dispatched one line per turn, round-robin across connections,
 * for at most DISPATCH_SLICE_MS per turn of the event loop, after which the loop reads sockets and
 * writes answers again. So twenty clients pipelining costly requests share the daemon with each
 * other, and another client's `ping` waits for at most one slice plus one request, not for all of
 * their backlogs.
 */

/** Time per event-loop turn spent on queued lines before the loop serves I/O again. */
export const DISPATCH_SLICE_MS = 8;

export interface TurnTaker {
  /** Dispatches one queued line; returns whether it has more waiting. */
  takeTurn(): boolean;
}

export class DispatchTurns {
  readonly #queue: TurnTaker[] = [];
  readonly #queued = new Set<TurnTaker>();
  #scheduled = false;

  constructor(
    private readonly sliceMs: number = DISPATCH_SLICE_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get waiting(): number {
    return this.#queue.length;
  }

  enqueue(taker: TurnTaker): void {
    if (this.#queued.has(taker)) return;
    this.#queued.add(taker);
    this.#queue.push(taker);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#run();
    });
  }

  #run(): void {
    const started = this.now();
    while (this.#queue.length > 0 && this.now() - started < this.sliceMs) {
      const taker = this.#queue.shift()!;
      let more = false;
      try {
        more = taker.takeTurn();
      } finally {
        if (more) this.#queue.push(taker);
        else this.#queued.delete(taker);
      }
    }
    if (this.#queue.length > 0) this.#schedule();
  }
}
