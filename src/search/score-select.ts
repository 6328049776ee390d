import type { TopK } from "./top-k.ts";

/** Buckets by the top bits of a float32 score (sign 0, 8 exponent bits, 3 mantissa bits): 2,048. */
const BUCKET_SHIFT = 20;
const BUCKETS = 1 << (32 - BUCKET_SHIFT - 1);
/** Scores read, evenly spaced, to guess a cut when contenders are at least SAMPLED_FROM × k (the cut then keeps about half of them or fewer). */
const SAMPLES = 32;
const SAMPLED_FROM = 6;
/** The guessed cut aims to keep about this many times k. */
const SAMPLE_MARGIN = 3;

/**
 * The k best scored slots by (score descending, slot ascending), the order TopK keeps, found by a
 * histogram of the scores' bits instead of pushing every contender through a heap: for a
 * non-negative float32 the bit pattern read as an unsigned integer orders like the value, so one
 * pass counts scores per bucket, the bucket holding the k-th best is found from the top, and a
 * second pass takes every slot above it outright and passes only that bucket's slots through the
 * heap (which settles the cut, ties by slot). Two linear passes; the heap sees a few slots, not
 * the ~100 replacements a heap over all contenders makes.
 *
 * Many contenders (a long request touches thousands of tools) are first cut by a guess: a few
 * scores read across the list say about where the best SAMPLE_MARGIN × k begin, one pass keeps
 * every slot scoring at least that, and the two passes run over those. When fewer than k are kept
 * the guess was too high and the passes run over all; otherwise every slot left out scores below
 * k kept ones, so the best k are the same.
 */
export class ScoreSelector {
  private readonly counts = new Int32Array(BUCKETS);
  private above = new Int32Array(64);
  /** The slots in the boundary bucket, for the heap. */
  private edge = new Int32Array(64);
  /** `scores` read as bits, made again only when the scorer's array is a new one. */
  private bits: Uint32Array<ArrayBufferLike> = new Uint32Array(0);
  private bitsOf: Float32Array | undefined;
  /** The slots a guessed cut keeps, and the sampled scores (sorted as read). */
  private kept = new Int32Array(64);
  private readonly samples = new Float64Array(SAMPLES);

  /**
   * The best `k` of `touched[0, count)` into `into` (objects reused, length set), or undefined when
   * some score is negative (the bit order does not hold there; the caller uses its heap).
   */
  select<T extends { slot: number; score: number }>(
    touched: Int32Array,
    count: number,
    scores: Float32Array,
    k: number,
    heap: TopK,
    into: T[],
  ): T[] | undefined {
    if (count < SAMPLED_FROM * k) return this.selectAll(touched, count, scores, k, heap, into);
    const { samples } = this;
    for (let i = 0; i < SAMPLES; i++) {
      const score = scores[touched[Math.floor((i * count) / SAMPLES)]!]!;
      let at = i;
      for (; at > 0 && samples[at - 1]! > score; at--) samples[at] = samples[at - 1]!;
      samples[at] = score;
    }
    const cut = samples[SAMPLES - 1 - Math.ceil((SAMPLES * SAMPLE_MARGIN * k) / count)]!;
    if (this.kept.length < count) this.kept = new Int32Array(Math.max(count, this.kept.length * 2));
    const kept = this.kept;
    let keptCount = 0;
    for (let i = 0; i < count; i++) {
      const slot = touched[i]!;
      kept[keptCount] = slot;
      keptCount += ((scores[slot]! >= cut) as unknown as number) | 0;
    }
    return keptCount >= k ? this.selectAll(kept, keptCount, scores, k, heap, into) : this.selectAll(touched, count, scores, k, heap, into);
  }

  private selectAll<T extends { slot: number; score: number }>(
    touched: Int32Array,
    count: number,
    scores: Float32Array,
    k: number,
    heap: TopK,
    into: T[],
  ): T[] | undefined {
    if (this.bitsOf !== scores) {
      this.bits = new Uint32Array(scores.buffer, scores.byteOffset, scores.length);
      this.bitsOf = scores;
    }
    const bits = this.bits;
    // `counts` is all zeros between calls; only the buckets scores fell in are cleared after.
    const counts = this.counts;
    let lowest = BUCKETS;
    let highest = -1;
    for (let i = 0; i < count; i++) {
      const pattern = bits[touched[i]!]!;
      if (pattern >= 0x80000000) {
        if (highest >= lowest) counts.fill(0, lowest, highest + 1);
        return undefined;
      }
      const bucket = pattern >>> BUCKET_SHIFT;
      counts[bucket]!++;
      if (bucket < lowest) lowest = bucket;
      if (bucket > highest) highest = bucket;
    }
    let boundary = highest;
    let taken = 0;
    if (count <= k) {
      boundary = -1;
    } else {
      for (; boundary > lowest && taken + counts[boundary]! < k; boundary--) taken += counts[boundary]!;
    }
    if (highest >= lowest) counts.fill(0, lowest, highest + 1);
    if (this.above.length < count) {
      this.above = new Int32Array(Math.max(count, this.above.length * 2));
      this.edge = new Int32Array(this.above.length);
    }
    const { above, edge } = this;
    // Each slot is written to both lists and counted only where it belongs: no branch per slot,
    // which mispredicted at each of the few slots at or above the boundary, scattered through the list.
    let aboveCount = 0;
    let edgeCount = 0;
    for (let i = 0; i < count; i++) {
      const slot = touched[i]!;
      const bucket = bits[slot]! >>> BUCKET_SHIFT;
      above[aboveCount] = slot;
      aboveCount += ((bucket > boundary) as unknown as number) | 0;
      edge[edgeCount] = slot;
      edgeCount += ((bucket === boundary) as unknown as number) | 0;
    }
    heap.reset(Math.max(1, k - taken));
    for (let i = 0; i < edgeCount; i++) heap.push(edge[i]!, scores[edge[i]!]!);
    const out = heap.drainInto(into);
    const kept = out.length;
    for (let i = 0; i < aboveCount; i++) {
      // Appended, never read past the end (top-k.ts drainInto).
      if (kept + i === out.length) out.push({ slot: 0, score: 0 } as T);
      const pair = out[kept + i]!;
      pair.slot = above[i]!;
      pair.score = scores[above[i]!]!;
    }
    out.length = kept + aboveCount;
    return out;
  }
}
