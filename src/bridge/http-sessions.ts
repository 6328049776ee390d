/**
 * The HTTP bridge's session table, in least-recently-used order. One-shot clients (the MCP
 * Inspector CLI, conformance runners) never send DELETE, so without eviction the table fills and
 * every later client is refused until restart. At the cap, the session idle longest goes — but
 * never one with a request or response stream in flight, and never one idle for less than
 * `evictAfterIdleMs` (a client between the requests of one exchange). An evicted client gets 404
 * on its next request and, as MCP requires, initializes again.
 */

export interface SessionRecord {
  close(): void;
  /** Busy with no request in flight (a call parked for its host's answers): never evicted nor swept. */
  busy?(): boolean;
}

interface Slot<T> {
  value: T;
  lastUsed: number;
  /** Requests whose response (or response stream) has not finished. */
  inFlight: number;
}

export interface SessionTableOptions {
  maxSessions: number;
  evictAfterIdleMs: number;
  now?: () => number;
  onEvict?: (id: string, idleMs: number) => void;
}

export type Admission = { kind: "admitted" } | { kind: "wait"; ms: number } | { kind: "full" };

export class SessionTable<T extends SessionRecord> {
  readonly #slots = new Map<string, Slot<T>>();
  readonly #options: SessionTableOptions;
  readonly #now: () => number;
  #evictions = 0;
  /** Opens admitted but not yet registered (their initialize is still running). */
  #opening = 0;

  constructor(options: SessionTableOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#slots.size;
  }

  evictions(): number {
    return this.#evictions;
  }

  /**
   * `admit`, waiting up to `maxWaitMs` for an idle session to become evictable: true once a slot is
   * reserved, false when every session stays active (or the wait ran out).
   */
  async admitWithin(maxWaitMs: number): Promise<boolean> {
    // Real time, not the table's clock: this bounds how long a request really waits.
    const deadline = Date.now() + maxWaitMs;
    for (;;) {
      const admission = this.admit();
      if (admission.kind === "admitted") return true;
      if (admission.kind === "full" || Date.now() >= deadline) return false;
      await Bun.sleep(Math.max(1, Math.min(admission.ms, deadline - Date.now())));
    }
  }

  /**
   * Makes room for one new session: admitted (a slot is reserved; call `opened` or `abandoned`),
   * wait (the oldest idle session becomes evictable in `ms`), or full (every session is active).
   */
  admit(): Admission {
    if (this.#slots.size + this.#opening < this.#options.maxSessions) {
      this.#opening++;
      return { kind: "admitted" };
    }
    const now = this.#now();
    for (const [id, slot] of this.#slots) {
      if (slot.inFlight > 0 || slot.value.busy?.()) continue;
      const idle = now - slot.lastUsed;
      if (idle < this.#options.evictAfterIdleMs) return { kind: "wait", ms: this.#options.evictAfterIdleMs - idle };
      this.#remove(id);
      this.#evictions++;
      this.#options.onEvict?.(id, idle);
      this.#opening++;
      return { kind: "admitted" };
    }
    return { kind: "full" };
  }

  /** Registers a session whose first request (its initialize) is still in flight; returns its `done`. */
  opened(id: string, value: T): () => void {
    this.#opening = Math.max(0, this.#opening - 1);
    this.#slots.set(id, { value, lastUsed: this.#now(), inFlight: 0 });
    return this.begin(id)!;
  }

  abandoned(): void {
    this.#opening = Math.max(0, this.#opening - 1);
  }

  get(id: string): T | undefined {
    return this.#slots.get(id)?.value;
  }

  /** Marks a request as started (and the session as most recently used); returns its `done`. */
  begin(id: string): (() => void) | undefined {
    const slot = this.#slots.get(id);
    if (!slot) return undefined;
    this.#slots.delete(id);
    this.#slots.set(id, slot);
    slot.inFlight++;
    slot.lastUsed = this.#now();
    let finished = false;
    return () => {
      if (finished) return;
      finished = true;
      slot.inFlight--;
      slot.lastUsed = this.#now();
    };
  }

  delete(id: string): void {
    this.#remove(id);
  }

  /** Closes sessions unused for `idleMs` (nothing in flight); returns how many. */
  sweep(idleMs: number): number {
    const cutoff = this.#now() - idleMs;
    let closed = 0;
    for (const [id, slot] of [...this.#slots]) {
      if (slot.inFlight === 0 && !slot.value.busy?.() && slot.lastUsed < cutoff) {
        this.#remove(id);
        closed++;
      }
    }
    return closed;
  }

  clear(): void {
    for (const id of [...this.#slots.keys()]) this.#remove(id);
  }

  #remove(id: string): void {
    const slot = this.#slots.get(id);
    if (!slot) return;
    this.#slots.delete(id);
    slot.value.close();
  }
}

/**
 * The same response, calling `done` once its body has been sent, cancelled or failed: a tool call
 * answered as an SSE stream is in flight until the stream ends, not when the headers go out.
 */
export function trackResponse(response: Response, done: () => void): Response {
  if (!response.body) {
    done();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          done();
          controller.close();
        } else controller.enqueue(chunk.value);
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
