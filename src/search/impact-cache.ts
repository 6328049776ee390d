import type { Impacts } from "./impacts.ts";

/** What one impact entry holds: a slot (4 bytes), a value (4) and field flags (1). */
export const IMPACT_ENTRY_BYTES = 9;
/**
 * The default budget. A term's impacts are about as large as its postings, so a cache of every
 * term ever asked grows towards the whole index: at 100k tools the 400 bench queries alone left
 * ~17 MiB. Within the budget the least recently used terms are dropped first; a dropped term is
 * worked out again from its postings the next time (the same values, so the same rankings).
 */
export const DEFAULT_IMPACT_BUDGET_BYTES = 16 * 2 ** 20;

/**
 * Term id → its impacts, within a byte budget, least recently used dropped first. Entries are
 * dropped, never recycled: an Impacts a caller still holds stays as it was. A single term larger
 * than the budget is still kept (alone): the scorer needs it now, and most likely again soon.
 * Recency is a doubly linked list over term ids in one typed array (no object per entry): a
 * term's two links side by side, `links[2·id]` previous and `links[2·id + 1]` next, so moving a
 * term to the front reads its own links in one cache line.
 */
export class ImpactCache {
  private readonly byId: (Impacts | undefined)[] = [];
  private links = new Int32Array(512).fill(-1);
  /** Most and least recently used term ids; -1 when empty. */
  private head = -1;
  private tail = -1;
  private used = 0;
  private entries = 0;

  constructor(readonly budgetBytes: number = DEFAULT_IMPACT_BUDGET_BYTES) {
    if (!(budgetBytes >= 0)) throw new Error(`impact budget must be a byte count ≥ 0, got ${budgetBytes}`);
  }

  /** Bytes the cached impacts take (their arrays' capacity). */
  get bytes(): number {
    return this.used;
  }

  /** How many terms are cached. */
  get size(): number {
    return this.entries;
  }

  /** The cached impacts of a term (whatever their version), marked as just used; undefined when not cached. */
  get(id: number): Impacts | undefined {
    const impacts = this.byId[id];
    if (impacts !== undefined && this.head !== id) {
      this.unlink(id);
      this.pushFront(id);
    }
    return impacts;
  }

  /** The cached impacts of a term, leaving the recency order alone (a second read within one query). */
  peek(id: number): Impacts | undefined {
    return this.byId[id];
  }

  /** Caches (or re-caches, after an in-place refresh) a term's impacts as the most recently used, then keeps to the budget. */
  set(id: number, impacts: Impacts): void {
    const before = this.byId[id];
    if (before !== undefined) {
      this.used -= bytesOf(before);
      this.unlink(id);
    } else {
      this.entries++;
      this.ensure(id + 1);
    }
    this.byId[id] = impacts;
    this.used += bytesOf(impacts);
    this.pushFront(id);
    while (this.used > this.budgetBytes && this.tail !== id) this.drop(this.tail);
  }

  private drop(id: number): void {
    const impacts = this.byId[id]!;
    this.used -= bytesOf(impacts);
    this.entries--;
    this.byId[id] = undefined;
    this.unlink(id);
  }

  private unlink(id: number): void {
    const links = this.links;
    const before = links[2 * id]!;
    const after = links[2 * id + 1]!;
    if (before >= 0) links[2 * before + 1] = after;
    else this.head = after;
    if (after >= 0) links[2 * after] = before;
    else this.tail = before;
    links[2 * id] = -1;
    links[2 * id + 1] = -1;
  }

  private pushFront(id: number): void {
    const links = this.links;
    links[2 * id] = -1;
    links[2 * id + 1] = this.head;
    if (this.head >= 0) links[2 * this.head] = id;
    this.head = id;
    if (this.tail < 0) this.tail = id;
  }

  private ensure(length: number): void {
    if (this.links.length >= 2 * length) return;
    const grown = new Int32Array(Math.max(2 * length, this.links.length * 2)).fill(-1);
    grown.set(this.links);
    this.links = grown;
  }
}

function bytesOf(impacts: Impacts): number {
  return impacts.slots.length * IMPACT_ENTRY_BYTES;
}
