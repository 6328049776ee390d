/**
 * int32 hash → int32 values (≥ 0), several values per hash allowed: the caller keeps the keys
 * (a name per slot, say) and confirms each candidate the table gives for a hash. A Map of 100k
 * string keys took ~6.5 MiB and 100k entries for the collector to trace; this is two typed arrays
 * of twice as many buckets (~2 MiB), nothing traced.
 *
 * Linear probing; a removal shifts the entries after it back (no tombstones), which keeps the
 * values of one hash in the order they were added.
 *
 * No lookup, insertion or removal looks at more than MAX_PROBES buckets. The keys are pool names
 * (and aliases, raw names), which a server's author writes, and the hash is a fixed FNV-1a: 32k
 * names of one hash (Joux multicollisions, test/helpers/fnv-collisions.ts) each walked the whole
 * run they made (hostile pass: indexing them took 10.9 s instead of 0.5, quadratic in the count).
 * A value with no free bucket within MAX_PROBES of its home is kept exactly, in a Map by its key
 * (`keyOf`, asked only then): the caller reads those with `spilled(hash, key)` after the buckets.
 */
const EMPTY = -1;
/** Buckets an operation looks at, at most: at ≤ 50% load an honest run is rarely past 8. */
export const MAX_PROBES = 32;

export class HashSlots {
  private hashes = new Int32Array(16);
  private values = new Int32Array(16).fill(EMPTY);
  /** Values in the buckets. */
  private placed = 0;
  /** Values that found no bucket near their home, by hash, then by key, in the order added. */
  private overflow = new Map<number, Map<string, number[]>>();
  private overflowCount = 0;
  private readonly none: readonly number[] = [];

  /** `keyOf(value)`: the key a value is confirmed by (asked only for a value kept off the buckets). */
  constructor(private readonly keyOf: (value: number) => string) {}

  get size(): number {
    return this.placed + this.overflowCount;
  }

  /** How many values are kept off the buckets (0 unless keys were crafted to collide): callers skip `spilled` then. */
  get spilledCount(): number {
    return this.overflowCount;
  }

  /**
   * The next bucket holding `hash`: the first when `after` is -1, else the first after bucket
   * `after` (a bucket this returned). -1 when there is none (see also `spilled`).
   */
  find(hash: number, after = -1): number {
    const { hashes, values } = this;
    const mask = values.length - 1;
    const start = home(hash, mask);
    let probes = after < 0 ? 0 : ((after - start) & mask) + 1;
    for (let at = (start + probes) & mask; probes < MAX_PROBES; at = (at + 1) & mask, probes++) {
      if (values[at] === EMPTY) return -1;
      if (hashes[at] === hash) return at;
    }
    return -1;
  }

  /** The value in a bucket find() gave. */
  valueAt(bucket: number): number {
    return this.values[bucket]!;
  }

  /** The values of `key` (whose hash is `hash`) kept off the buckets, in the order added; almost always none. */
  spilled(hash: number, key: string): readonly number[] {
    if (this.overflowCount === 0) return this.none;
    return this.overflow.get(hash)?.get(key) ?? this.none;
  }

  add(hash: number, value: number): void {
    if (value < 0) throw new Error(`HashSlots holds values ≥ 0, got ${value}`);
    if ((this.placed + 1) * 2 > this.values.length) this.resize(this.values.length * 2);
    this.put(hash, value);
  }

  /** Removes one (hash, value) entry; false when there is none. */
  remove(hash: number, value: number): boolean {
    let at = this.find(hash);
    while (at >= 0 && this.values[at] !== value) at = this.find(hash, at);
    if (at < 0) return this.removeSpilled(hash, value);
    const { hashes, values } = this;
    const mask = values.length - 1;
    let hole = at;
    // Every entry lies within MAX_PROBES of its home, so none at MAX_PROBES or more past the hole can move into it.
    for (let next = (hole + 1) & mask; values[next] !== EMPTY && ((next - hole) & mask) < MAX_PROBES; next = (next + 1) & mask) {
      const start = home(hashes[next]!, mask);
      // An entry may move back into the hole unless its home lies cyclically in (hole, next].
      const stays = hole < next ? start > hole && start <= next : start > hole || start <= next;
      if (stays) continue;
      hashes[hole] = hashes[next]!;
      values[hole] = values[next]!;
      hole = next;
    }
    values[hole] = EMPTY;
    this.placed--;
    return true;
  }

  /** Every value, the buckets' in bucket order, then those kept off them. */
  *allValues(): IterableIterator<number> {
    for (let at = 0; at < this.values.length; at++) if (this.values[at] !== EMPTY) yield this.values[at]!;
    for (const byKey of this.overflow.values()) for (const list of byKey.values()) yield* list;
  }

  /** Into a bucket near the hash's home, else (or when its key has spilled values already: order) off them. */
  private put(hash: number, value: number): void {
    const byKey = this.overflowCount > 0 ? this.overflow.get(hash) : undefined;
    const key = byKey !== undefined ? this.keyOf(value) : undefined;
    if (key === undefined || !byKey!.has(key)) {
      const bucket = this.freeBucket(hash);
      if (bucket >= 0) {
        this.hashes[bucket] = hash;
        this.values[bucket] = value;
        this.placed++;
        return;
      }
    }
    const spilledKey = key ?? this.keyOf(value);
    let keys = this.overflow.get(hash);
    if (keys === undefined) this.overflow.set(hash, (keys = new Map()));
    let list = keys.get(spilledKey);
    if (list === undefined) keys.set(spilledKey, (list = []));
    list.push(value);
    this.overflowCount++;
  }

  private removeSpilled(hash: number, value: number): boolean {
    if (this.overflowCount === 0) return false;
    const keys = this.overflow.get(hash);
    const key = keys === undefined ? undefined : this.keyOf(value);
    const list = key === undefined ? undefined : keys!.get(key);
    const at = list === undefined ? -1 : list.indexOf(value);
    if (at < 0) return false;
    list!.splice(at, 1);
    if (list!.length === 0) keys!.delete(key!);
    if (keys!.size === 0) this.overflow.delete(hash);
    this.overflowCount--;
    return true;
  }

  /** The first empty bucket within MAX_PROBES of the hash's home, or -1. */
  private freeBucket(hash: number): number {
    const mask = this.values.length - 1;
    for (let at = home(hash, mask), probes = 0; probes < MAX_PROBES; at = (at + 1) & mask, probes++) {
      if (this.values[at] === EMPTY) return at;
    }
    return -1;
  }

  /** Places every value again in the order added per key: the buckets' first, then those kept off them (some may fit now). */
  private resize(size: number): void {
    const { hashes, values, overflow } = this;
    this.hashes = new Int32Array(size);
    this.values = new Int32Array(size).fill(EMPTY);
    this.placed = 0;
    this.overflow = new Map();
    this.overflowCount = 0;
    // In old bucket order, starting after an empty bucket: a hash's values keep their order.
    let start = 0;
    while (values[start] !== EMPTY) start++;
    for (let i = 1; i <= values.length; i++) {
      const at = (start + i) % values.length;
      if (values[at] !== EMPTY) this.put(hashes[at]!, values[at]!);
    }
    for (const [hash, keys] of overflow) for (const list of keys.values()) for (const value of list) this.put(hash, value);
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
