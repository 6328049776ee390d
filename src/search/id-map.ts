/**
 * Non-negative integer ids → positive integers (0: absent), for the handful of ids one query
 * has: open addressing in a table of a few hundred bytes that stays in cache, where a
 * vocabulary-sized array would be read, written and cleared at a likely cache miss per id.
 * Grows with what it holds; clear() empties it for the next query.
 */
const MIN_SLOTS = 128;

export class IdMap {
  private keys = new Int32Array(MIN_SLOTS).fill(-1);
  private values = new Int32Array(MIN_SLOTS);
  private shift = 32 - Math.log2(MIN_SLOTS);
  private count = 0;

  /** The value of `id`; 0 when it has none. */
  get(id: number): number {
    const mask = this.keys.length - 1;
    for (let at = this.home(id); ; at = (at + 1) & mask) {
      const held = this.keys[at]!;
      if (held === id) return this.values[at]!;
      if (held === -1) return 0;
    }
  }

  set(id: number, value: number): void {
    if ((this.count + 1) * 2 > this.keys.length) this.grow();
    const mask = this.keys.length - 1;
    let at = this.home(id);
    while (this.keys[at] !== -1 && this.keys[at] !== id) at = (at + 1) & mask;
    if (this.keys[at] === -1) this.count++;
    this.keys[at] = id;
    this.values[at] = value;
  }

  clear(): void {
    if (this.count === 0) return;
    this.keys.fill(-1);
    this.count = 0;
  }

  private home(id: number): number {
    return Math.imul(id, 0x9e3779b1) >>> this.shift;
  }

  private grow(): void {
    const keys = this.keys;
    const values = this.values;
    this.keys = new Int32Array(keys.length * 2).fill(-1);
    this.values = new Int32Array(keys.length * 2);
    this.shift--;
    this.count = 0;
    for (let at = 0; at < keys.length; at++) if (keys[at] !== -1) this.set(keys[at]!, values[at]!);
  }
}
