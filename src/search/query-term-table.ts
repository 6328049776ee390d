import { IdMap } from "./id-map.ts";

/**
 * The query's term ids → their position + 1 in the query's terms (0: not a query term), set
 * around one re-rank: a 2,048-bit filter and a small id map (id-map.ts), a few hundred bytes,
 * instead of vocabulary-sized arrays a re-rank of a query never seen before would find out of
 * cache (writing each entry, reading it, clearing it). Beside them, the query's word pairs
 * (PreparedQuery.pairKeys) as reused typed arrays: no per-query array of masks, no Map probe per
 * pair found in a description.
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
  /** Pair key → its index + 1 in the pair arrays. */
  private readonly pairAt = new IdMap();
  /** Per pair: the CandidateFacts description bits of its two terms, its weight (mean IDF), and the last scan that met it. */
  private pairMasks = new Int32Array(16);
  private pairWeights = new Float64Array(16);
  private pairSeen = new Int32Array(16);
  /** The pairs set with the terms. */
  pairCount = 0;
  /** How many terms were set: a pair's key is `first * termCount + second`. */
  private termCount = 0;
  private scan = 0;

  /**
   * Fills the table from the query's terms (after clear(), or on a new table) and, when given,
   * its pairs (PreparedQuery.pairKeys, keyed `first * terms.length + second`, and pairWeights).
   */
  set(terms: readonly { id: number }[], pairKeys?: readonly number[], pairWeights?: readonly number[]): void {
    for (let t = 0; t < terms.length; t++) {
      const id = terms[t]!.id;
      this.filter[(id >>> 5) & (FILTER_WORDS - 1)]! |= 1 << (id & 31);
      this.positions.set(id, t + 1);
    }
    this.termCount = terms.length;
    this.pairCount = 0;
    if (pairKeys === undefined || pairWeights === undefined || pairKeys.length === 0) return;
    const count = pairKeys.length;
    if (this.pairMasks.length < count) {
      const size = Math.max(count, this.pairMasks.length * 2);
      this.pairMasks = new Int32Array(size);
      this.pairWeights = new Float64Array(size);
      this.pairSeen = new Int32Array(size);
    }
    const positions = terms.length;
    for (let p = 0; p < count; p++) {
      const key = pairKeys[p]!;
      this.pairMasks[p] = (1 << (Math.floor(key / positions) & 31)) | (1 << (key % positions & 31));
      this.pairWeights[p] = pairWeights[p]!;
      this.pairSeen[p] = 0;
      this.pairAt.set(key, p + 1);
    }
    this.pairCount = count;
    this.scan = 0;
  }

  clear(): void {
    this.filter.fill(0);
    this.positions.clear();
    this.pairAt.clear();
    this.pairCount = 0;
  }

  /** False when `id` is certainly no query term (a bit test, no probe). */
  mayHave(id: number): boolean {
    return (this.filter[(id >>> 5) & (FILTER_WORDS - 1)]! & (1 << (id & 31))) !== 0;
  }

  /** Position + 1 of `id` in the query's terms; 0 when it is none of them. */
  positionOf(id: number): number {
    return this.positions.get(id);
  }

  /**
   * The summed weight of the pairs both of whose terms are in a description with these bits
   * (CandidateFacts.descriptionBits), in pair order: 0 when no pair can be there. No scan of the
   * description finds more (a pair found has both terms there), so this bounds phraseWeight.
   */
  pairBound(descriptionBits: number): number {
    let total = 0;
    for (let p = 0; p < this.pairCount; p++) {
      const mask = this.pairMasks[p]!;
      // No branch per pair: a pair not there adds its weight times 0, +0, which leaves the sum as it is.
      total += this.pairWeights[p]! * +((descriptionBits & mask) === mask);
    }
    return total;
  }

  /**
   * Weight (mean IDF) of the distinct query pairs that occur adjacent, in order, in `terms[start, end)`
   * (a description's term ids), each counted once.
   */
  phraseWeight(terms: ArrayLike<number>, start: number, end: number): number {
    const positions = this.positions;
    const scan = ++this.scan;
    let total = 0;
    for (let i = start; i + 1 < end; i++) {
      // Both words must be query words before the pair is worth a probe.
      if (!this.mayHave(terms[i + 1]!) || !this.mayHave(terms[i]!)) continue;
      const first = positions.get(terms[i]!);
      const second = first === 0 ? 0 : positions.get(terms[i + 1]!);
      if (second === 0) continue;
      const at = this.pairAt.get((first - 1) * this.termCount + (second - 1)) - 1;
      if (at < 0 || this.pairSeen[at] === scan) continue;
      this.pairSeen[at] = scan;
      total += this.pairWeights[at]!;
    }
    return total;
  }
}
