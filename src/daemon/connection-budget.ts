/**
 * One memory budget shared by every connection: the bytes of unfinished lines each one holds plus
 * the bytes of output queued for it. Each connection reports its own figure when it changes; only
 * when the sum passes the budget are all of them measured again (a report can be stale: output
 * drains without telling us), and then the connection holding the most is dropped, then the next,
 * until the sum fits. A hostile or stuck client therefore loses its connection before the daemon
 * loses its memory, and the clients that read their answers keep theirs.
 */
import type { Logger } from "../runtime/logger.ts";

/** A member leaving with this much buffered schedules a garbage collection. */
const COLLECT_AFTER_BYTES = 1024 * 1024;
const COLLECT_DELAY_MS = 100;

export interface BudgetMember {
  readonly id: string;
  /** Bytes this member holds now (measured, not remembered). */
  bufferedBytes(): number;
  /** Frees what it holds at once: called when it is the largest and the budget is spent. */
  drop(reason: string): void;
}

export class ConnectionBudget {
  readonly #reported = new Map<BudgetMember, number>();
  #total = 0;
  #collection: ReturnType<typeof setTimeout> | undefined;
  /** Connections dropped for the budget since start (for status and tests). */
  dropped = 0;

  constructor(
    readonly limitBytes: number,
    private readonly logger: Logger,
  ) {}

  get totalBytes(): number {
    return this.#total;
  }

  /** A member's figure changed; enforces the budget when the sum passes it. */
  report(member: BudgetMember, bytes: number): void {
    const previous = this.#reported.get(member) ?? 0;
    if (previous === bytes) return;
    this.#reported.set(member, bytes);
    this.#total += bytes - previous;
    if (this.#total > this.limitBytes) this.#enforce();
  }

  remove(member: BudgetMember): void {
    const previous = this.#reported.get(member);
    if (previous === undefined) return;
    this.#reported.delete(member);
    this.#total -= previous;
    if (previous >= COLLECT_AFTER_BYTES) this.#scheduleCollection();
  }

  /**
   * Buffers are garbage-collected memory: a dropped 8 MiB line is only given back when the
   * collector runs, which under an attack is later than the next allocations. One collection,
   * shortly after a large holder goes (at most one per interval), returns RSS towards idle.
   */
  #scheduleCollection(): void {
    if (this.#collection) return;
    this.#collection = setTimeout(() => {
      this.#collection = undefined;
      Bun.gc(true);
    }, COLLECT_DELAY_MS);
    this.#collection.unref?.();
  }

  #enforce(): void {
    this.#total = 0;
    for (const member of this.#reported.keys()) {
      const bytes = member.bufferedBytes();
      this.#reported.set(member, bytes);
      this.#total += bytes;
    }
    while (this.#total > this.limitBytes) {
      let largest: BudgetMember | undefined;
      let largestBytes = -1;
      for (const [member, bytes] of this.#reported) {
        if (bytes > largestBytes) {
          largest = member;
          largestBytes = bytes;
        }
      }
      if (!largest || largestBytes <= 0) return;
      this.logger.warn("closing connection: the connections' buffer budget is spent and it holds the most", {
        connection: largest.id,
        bytes: largestBytes,
        totalBytes: this.#total,
        budgetBytes: this.limitBytes,
      });
      this.remove(largest);
      this.dropped++;
      largest.drop(
        `The daemon's buffer budget (${this.limitBytes} bytes across all connections) is spent and this connection held the most (${largestBytes} bytes); closing it.`,
      );
    }
  }
}
