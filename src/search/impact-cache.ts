import type { Impacts } from "./impacts.ts";

/** What one impact entry holds: a slot with its field flags (4 bytes) and a value (4). */
export const IMPACT_ENTRY_BYTES = 8;
/**
 * The default budget. A term's impacts are about as large as its postings, so a cache of every
 * term ever asked grows towards the whole index: at 100k tools the 400 bench queries alone left
 * ~17 MiB. Past the budget terms not used lately are dropped first (ImpactCache); a dropped term is
 * worked out again from its postings the next time (the same values, so the same rankings).
 */
export const DEFAULT_IMPACT_BUDGET_BYTES = 16 * 2 ** 20;

/**
 * Term id → its impacts, within a byte budget; when over it, terms not used since the clock hand
 * last passed them are dropped first (CLOCK, an approximation of least recently used: which term
 * is dropped never changes a value, only what is worked out again). Entries are dropped, never
 * recycled: an Impacts a caller still holds stays as it was. A single term larger than the
 * budget is still kept (alone): the scorer needs it now, and most likely again soon.
 * A use is one mark written on the term's impacts (`Impacts.used`, on the object the query reads
 * anyway), where exact recency relinked a list, reading and writing the links of the term and of
 * its two neighbours: lines a new query found evicted (and a byte table by term id was a line more
 * per query term).
 */
export class ImpactCache {
  private readonly byId: (Impacts | undefined)[] = [];
  /** The cached term ids, in no particular order; the hand walks over them. */
  private ring = new Int32Array(64);
  private hand = 0;
  private usedBytes = 0;
  private entries = 0;

  constructor(readonly budgetBytes: number = DEFAULT_IMPACT_BUDGET_BYTES) {
    if (!(budgetBytes >= 0)) throw new Error(`impact budget must be a byte count ≥ 0, got ${budgetBytes}`);
  }

  /** Bytes the cached impacts take (their arrays' capacity). */
  get bytes(): number {
    return this.usedBytes;
  }

  /** How many terms are cached. */
  get size(): number {
    return this.entries;
  }

  /** The cached impacts of a term (whatever their version), marked as used; undefined when not cached. */
  get(id: number): Impacts | undefined {
    const impacts = this.byId[id];
    if (impacts !== undefined) impacts.used = 1;
    return impacts;
  }

  /** The cached impacts of a term, not marked as used (a second read within one query). */
  peek(id: number): Impacts | undefined {
    return this.byId[id];
  }

  /**
   * Caches a term's impacts, or re-caches them after an in-place refresh (then marked as used),
   * then keeps to the budget. A new term starts unmarked: one asked once goes before any asked again.
   */
  set(id: number, impacts: Impacts): void {
    const before = this.byId[id];
    if (before !== undefined) {
      this.usedBytes -= bytesOf(before);
    } else {
      this.ensureRing();
      this.ring[this.entries++] = id;
    }
    this.byId[id] = impacts;
    this.usedBytes += bytesOf(impacts);
    impacts.used = before !== undefined ? 1 : 0;
    // Every pass of the hand either drops a term or clears a mark, so this ends within two turns.
    while (this.usedBytes > this.budgetBytes && this.entries > 1) {
      if (this.hand >= this.entries) this.hand = 0;
      const at = this.ring[this.hand]!;
      if (at === id) {
        this.hand++;
      } else if (this.byId[at]!.used === 1) {
        this.byId[at]!.used = 0;
        this.hand++;
      } else {
        this.drop(this.hand);
      }
    }
  }

  /** Drops the term at ring position `position`; the last ring entry takes its place. */
  private drop(position: number): void {
    const id = this.ring[position]!;
    this.usedBytes -= bytesOf(this.byId[id]!);
    this.byId[id] = undefined;
    this.ring[position] = this.ring[--this.entries]!;
  }

  private ensureRing(): void {
    if (this.ring.length <= this.entries) {
      const grown = new Int32Array(this.ring.length * 2);
      grown.set(this.ring);
      this.ring = grown;
    }
  }
}

function bytesOf(impacts: Impacts): number {
  return impacts.entries.length * IMPACT_ENTRY_BYTES;
}
