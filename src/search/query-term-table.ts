import { IdMap } from "./id-map.ts";

/**
 * The query's term ids → their position + 1 in the query's terms (0: not a query term), set
 * around one re-rank: a 2,048-bit filter and a small id map (id-map.ts), a few hundred bytes,
 * instead of vocabulary-sized arrays a re-rank of a query never seen before would find out of
 * cache (writing each entry, reading it, clearing it).
 */
const FILTER_WORDS = 64;

export class QueryTermTable {
  /**
   * Bit `id & 2047`: "not a query term" for almost every other id, before any probe. Int32Array:
   * a word with bit 31 set reads back from a Uint32Array as a number above int32, and optimised
   * code that had met only int32 words left (an OSR exit) on every such read.
   */
  private readonly filter = new Int32Array(FILTER_WORDS);
  private readonly positions = new IdMap();

  /** Fills the table from the query's terms (after clear(), or on a new table). */
  set(terms: readonly { id: number }[]): void {
    for (let t = 0; t < terms.length; t++) {
      const id = terms[t]!.id;
      this.filter[(id >>> 5) & (FILTER_WORDS - 1)]! |= 1 << (id & 31);
      this.positions.set(id, t + 1);
    }
  }

  clear(): void {
    this.filter.fill(0);
    this.positions.clear();
  }

  /** False when `id` is certainly no query term (a bit test, no probe). */
  mayHave(id: number): boolean {
    return (this.filter[(id >>> 5) & (FILTER_WORDS - 1)]! & (1 << (id & 31))) !== 0;
  }

  /** Position + 1 of `id` in the query's terms; 0 when it is none of them. */
  positionOf(id: number): number {
    return this.positions.get(id);
  }
}
