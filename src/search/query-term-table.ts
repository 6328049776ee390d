/**
 * The query's term ids → their position + 1 in the query's terms (0: not a query term), set
 * around one re-rank. A small open-addressing table and a 2,048-bit filter, both a few hundred
 * bytes, instead of vocabulary-sized arrays: a re-rank of a query never seen before would find
 * each of those entries out of cache (writing it, reading it, clearing it).
 */
const FILTER_WORDS = 64;
const MIN_SLOTS = 128;

export class QueryTermTable {
  /** Bit `id & 2047`: "not a query term" for almost every other id, before any probe. */
  private readonly filter = new Uint32Array(FILTER_WORDS);
  private ids = new Int32Array(MIN_SLOTS).fill(-1);
  private positions = new Int32Array(MIN_SLOTS);
  private shift = 32 - Math.log2(MIN_SLOTS);

  /** Fills the table from the query's terms (after clear(), or on a new table). */
  set(terms: readonly { id: number }[]): void {
    let size = MIN_SLOTS;
    while (size < terms.length * 2) size *= 2;
    if (size > this.ids.length) {
      this.ids = new Int32Array(size).fill(-1);
      this.positions = new Int32Array(size);
    }
    this.shift = 32 - Math.log2(this.ids.length);
    const mask = this.ids.length - 1;
    for (let t = 0; t < terms.length; t++) {
      const id = terms[t]!.id;
      this.filter[(id >>> 5) & (FILTER_WORDS - 1)]! |= 1 << (id & 31);
      let at = this.home(id);
      while (this.ids[at] !== -1 && this.ids[at] !== id) at = (at + 1) & mask;
      this.ids[at] = id;
      this.positions[at] = t + 1;
    }
  }

  clear(): void {
    this.filter.fill(0);
    this.ids.fill(-1);
  }

  /** False when `id` is certainly no query term (a bit test, no probe). */
  mayHave(id: number): boolean {
    return (this.filter[(id >>> 5) & (FILTER_WORDS - 1)]! & (1 << (id & 31))) !== 0;
  }

  /** Position + 1 of `id` in the query's terms; 0 when it is none of them. */
  positionOf(id: number): number {
    const mask = this.ids.length - 1;
    for (let at = this.home(id); ; at = (at + 1) & mask) {
      const held = this.ids[at]!;
      if (held === id) return this.positions[at]!;
      if (held === -1) return 0;
    }
  }

  private home(id: number): number {
    return Math.imul(id, 0x9e3779b1) >>> this.shift;
  }
}
