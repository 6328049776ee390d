/**
 * int32 hash → int32 values (≥ 0), several values per hash allowed: the caller keeps the keys
 * (a name per slot, say) and confirms each candidate the table gives for a hash. A Map of 100k
 * string keys took ~6.5 MiB and 100k entries for the collector to trace; this is two typed arrays
 * of twice as many buckets (~2 MiB), nothing traced.
 *
 * Linear probing; a removal shifts the entries after it back (no tombstones), which keeps the
 * values of one hash in the order they were added.
 */
const EMPTY = -1;

export class HashSlots {
  private hashes = new Int32Array(16);
  private values = new Int32Array(16).fill(EMPTY);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /**
   * The next bucket holding `hash`: the first when `after` is -1, else the first after bucket
   * `after` (a bucket this returned). -1 when there is none.
   */
  find(hash: number, after = -1): number {
    const { hashes, values } = this;
    const mask = values.length - 1;
    for (let at = after < 0 ? home(hash, mask) : (after + 1) & mask; ; at = (at + 1) & mask) {
      const value = values[at]!;
      if (value === EMPTY) return -1;
      if (hashes[at] === hash) return at;
    }
  }

  /** The value in a bucket find() gave. */
  valueAt(bucket: number): number {
    return this.values[bucket]!;
  }

  add(hash: number, value: number): void {
    if (value < 0) throw new Error(`HashSlots holds values ≥ 0, got ${value}`);
    if ((this.count + 1) * 2 > this.values.length) this.resize(this.values.length * 2);
    this.place(hash, value);
    this.count++;
  }

  /** Removes one (hash, value) entry; false when there is none. */
  remove(hash: number, value: number): boolean {
    let at = this.find(hash);
    while (at >= 0 && this.values[at] !== value) at = this.find(hash, at);
    if (at < 0) return false;
    const { hashes, values } = this;
    const mask = values.length - 1;
    let hole = at;
    for (let next = (hole + 1) & mask; values[next] !== EMPTY; next = (next + 1) & mask) {
      const start = home(hashes[next]!, mask);
      // An entry may move back into the hole unless its home lies cyclically in (hole, next].
      const stays = hole < next ? start > hole && start <= next : start > hole || start <= next;
      if (stays) continue;
      hashes[hole] = hashes[next]!;
      values[hole] = values[next]!;
      hole = next;
    }
    values[hole] = EMPTY;
    this.count--;
    return true;
  }

  /** Every value, in bucket order. */
  *allValues(): IterableIterator<number> {
    for (let at = 0; at < this.values.length; at++) if (this.values[at] !== EMPTY) yield this.values[at]!;
  }

  private place(hash: number, value: number): void {
    const mask = this.values.length - 1;
    let at = home(hash, mask);
    while (this.values[at] !== EMPTY) at = (at + 1) & mask;
    this.hashes[at] = hash;
    this.values[at] = value;
  }

  private resize(size: number): void {
    const { hashes, values } = this;
    this.hashes = new Int32Array(size);
    this.values = new Int32Array(size).fill(EMPTY);
    // In old bucket order, starting after an empty bucket: a hash's values keep their order.
    let start = 0;
    while (values[start] !== EMPTY) start++;
    for (let i = 1; i <= values.length; i++) {
      const at = (start + i) % values.length;
      if (values[at] !== EMPTY) this.place(hashes[at]!, values[at]!);
    }
  }
}

function home(hash: number, mask: number): number {
  const mixed = Math.imul(hash ^ (hash >>> 16), 0x45d9f3b);
  return (mixed ^ (mixed >>> 16)) & mask;
}

/** FNV-1a over a string's UTF-16 code units. */
export function stringHash(text: string): number {
  let hash = 0x811c9dc5 | 0;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash;
}
