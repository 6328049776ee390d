/**
 * Keeps the k best (slot, score) pairs seen, as a min-heap over reusable typed arrays, so picking
 * the top of thousands of scored slots needs no sort and no allocation.
 * Ties prefer the lower slot (earlier added), which keeps results deterministic.
 */
export class TopK {
  private slots = new Int32Array(16);
  private scores = new Float64Array(16);
  size = 0;
  capacity = 0;

  reset(capacity: number): void {
    this.capacity = capacity;
    this.size = 0;
    if (this.slots.length < capacity) {
      this.slots = new Int32Array(capacity);
      this.scores = new Float64Array(capacity);
    }
  }

  /** The score a newcomer must beat once the heap is full. */
  threshold(): number {
    return this.size < this.capacity ? -Infinity : this.scores[0]!;
  }

  /** Whether (slot, score) would be kept; lets a caller skip costly checks for losers. */
  wouldAccept(slot: number, score: number): boolean {
    if (this.size < this.capacity) return true;
    return this.better(slot, score, this.slots[0]!, this.scores[0]!);
  }

  push(slot: number, score: number): void {
    if (this.size < this.capacity) {
      let at = this.size++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!this.better(this.slots[parent]!, this.scores[parent]!, slot, score)) break;
        this.slots[at] = this.slots[parent]!;
        this.scores[at] = this.scores[parent]!;
        at = parent;
      }
      this.slots[at] = slot;
      this.scores[at] = score;
      return;
    }
    if (!this.wouldAccept(slot, score)) return;
    this.siftDown(slot, score);
  }

  /**
   * The kept pairs, in no particular order (the re-rank sorts them), written into `into` (its objects reused, more added as needed, its length set to
   * the count): a caller that ranks query after query makes no garbage here.
   */
  drainInto<T extends { slot: number; score: number }>(into: T[]): T[] {
    for (let i = 0; i < this.size; i++) {
      // Appended, never read past the end: a read past it is undefined, which optimised code that
      // had always found a pair there left on (a query with more candidates than the one before).
      if (i === into.length) into.push(newPair() as T);
      const pair = into[i]!;
      pair.slot = this.slots[i]!;
      pair.score = this.scores[i]!;
    }
    into.length = this.size;
    this.size = 0;
    return into;
  }

  /** True when (slotA, scoreA) ranks above (slotB, scoreB). */
  private better(slotA: number, scoreA: number, slotB: number, scoreB: number): boolean {
    return scoreA > scoreB || (scoreA === scoreB && slotA < slotB);
  }

  private siftDown(slot: number, score: number): void {
    let at = 0;
    const size = this.size;
    for (;;) {
      const left = at * 2 + 1;
      if (left >= size) break;
      const right = left + 1;
      let worst = left;
      if (right < size && this.better(this.slots[left]!, this.scores[left]!, this.slots[right]!, this.scores[right]!)) {
        worst = right;
      }
      if (!this.better(slot, score, this.slots[worst]!, this.scores[worst]!)) break;
      this.slots[at] = this.slots[worst]!;
      this.scores[at] = this.scores[worst]!;
      at = worst;
    }
    this.slots[at] = slot;
    this.scores[at] = score;
  }
}

/**
 * A new pair for drainInto: one function, where a default parameter made a new closure per call,
 * which optimised code that had inlined the one it met left on (BadConstantValue).
 */
function newPair(): { slot: number; score: number } {
  return { slot: 0, score: 0 };
}
