/**
 * Non-negative integer ids → positive integers (0: absent), for the handful of ids one query
 * has: open addressing in a table of a few hundred bytes that stays in cache, where a
 * vocabulary-sized array would be read, written and cleared at a likely cache miss per id.
 * Grows with what it holds; clear() empties it for the next query.
 *
 * No lookup or insertion looks at more than MAX_PROBES buckets: a query's author picks its words,
 * so its term ids, and could pick thousands whose homes crowd one stretch of the table (a 4,096-
 * character query is about 2,000 words), each insertion then walking the whole run. An id with
 * no free bucket near its home goes to a small Map instead (exact, just slower; honest ids at
 * ≤ 50 % load are rarely past a few buckets).
 */
const MIN_SLOTS = 128;
/** Buckets a lookup or an insertion looks at, at most. */
export const MAX_PROBES = 32;

export class IdMap {
  private keys = new Int32Array(MIN_SLOTS).fill(-1);
  private values = new Int32Array(MIN_SLOTS);
  private shift = 32 - Math.log2(MIN_SLOTS);
  /** Ids held in `keys`. */
  private count = 0;
  /** Ids that found no free bucket within MAX_PROBES of their home; never also in `keys`. */
  private overflow: Map<number, number> | undefined;

  /** The value of `id`; 0 when it has none. */
  get(id: number): number {
    const mask = this.keys.length - 1;
    for (let at = this.home(id), probes = 0; probes < MAX_PROBES; at = (at + 1) & mask, probes++) {
      const held = this.keys[at]!;
      if (held === id) return this.values[at]!;
      if (held === -1) return 0;
    }
    return this.overflow?.get(id) ?? 0;
  }

  set(id: number, value: number): void {
    if ((this.count + 1) * 2 > this.keys.length) this.grow();
    const mask = this.keys.length - 1;
    for (let at = this.home(id), probes = 0; probes < MAX_PROBES; at = (at + 1) & mask, probes++) {
      const held = this.keys[at]!;
      if (held === id) {
        this.values[at] = value;
        return;
      }
      if (held === -1) {
        // No id is both here and in the overflow: a free bucket before it means it never overflowed.
        this.keys[at] = id;
        this.values[at] = value;
        this.count++;
        return;
      }
    }
    (this.overflow ??= new Map()).set(id, value);
  }

  clear(): void {
    this.overflow?.clear();
    if (this.count === 0) return;
    this.keys.fill(-1);
    this.count = 0;
  }

  private home(id: number): number {
    return Math.imul(id, 0x9e3779b1) >>> this.shift;
  }

  /** Doubles the table and places every id again, the overflow's too (some may fit now). */
  private grow(): void {
    const keys = this.keys;
    const values = this.values;
    const overflow = this.overflow;
    this.keys = new Int32Array(keys.length * 2).fill(-1);
    this.values = new Int32Array(keys.length * 2);
    this.shift--;
    this.count = 0;
    this.overflow = undefined;
    for (let at = 0; at < keys.length; at++) if (keys[at] !== -1) this.set(keys[at]!, values[at]!);
    if (overflow !== undefined) for (const [id, value] of overflow) this.set(id, value);
  }
}
