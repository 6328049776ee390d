/**
 * Words (runs of UTF-16 code units inside a longer text) → a value, looked up by the characters
 * in place: no string is built for the word, and none is hashed. A query's words are looked up
 * once each on every query never seen before; a Map keyed by a fresh `slice` of the text pays
 * for the new string, its hash, and several dependent cache misses in a vocabulary-sized table,
 * which made word → term the largest single cost of a new query.
 *
 * Open addressing (linear probing) over typed arrays; the characters live in one pool. Bounded:
 * at its entry bound (MAX_ENTRIES unless told) the table empties itself (the caller recomputes on a miss), words longer
 * than MAX_WORD_CHARS are not kept, and no lookup or insertion looks at more than MAX_PROBES
 * buckets: the hash is a fixed FNV-1a whose low bits depend only on the words' low bits, so a
 * query's author can cheaply write thousands of words with one home bucket (hostile pass: 16k
 * such words made every new query ~12× slower). A word with no free bucket near its home is
 * simply not kept.
 */
export const MAX_WORD_CHARS = 48;
export const MAX_ENTRIES = 1 << 14;
/** Buckets a lookup or an insertion looks at, at most: at ≤ 50% load an honest run is rarely past 8. */
export const MAX_PROBES = 32;
/**
 * A table outgrowing its first 512 entries grows once, to room for its bound (~384 KiB of
 * buckets, records and numbers at MAX_ENTRIES): grown by doubling, each power of two crossed made one new query
 * pay a rehash and a copy of every record (measured in docs/search.md). A table that stays small
 * (a tokenizer for a few fixed words) stays small.
 */
/**
 * A record packs a word's pool offset and length as `start << LENGTH_BITS | length` (an int32: the
 * pool holds at most a table's maxEntries words of MAX_WORD_CHARS, well under 2^25 code units), unpacked by a shift and a mask.
 */
const LENGTH_BITS = 6;
const LENGTH_MASK = (1 << LENGTH_BITS) - 1;
/** wordHash of the empty word: a scan that hashes as it goes starts here and takes wordHashStep per code unit. */
export const WORD_HASH_SEED = 0x811c9dc5 | 0;

/** One FNV-1a step: the hash of a word's first n + 1 code units from that of its first n. */
export function wordHashStep(hash: number, code: number): number {
  return Math.imul(hash ^ code, 0x01000193);
}

/** FNV-1a over text[start, end): the hash `get` and `set` take. */
export function wordHash(text: string, start: number, end: number): number {
  let hash = WORD_HASH_SEED;
  for (let i = start; i < end; i++) hash = wordHashStep(hash, text.charCodeAt(i));
  return hash;
}

export class WordTable<V> {
  /**
   * `maxEntries`: the entries held before the table empties itself, a power of two (the buckets
   * are twice as many, masked).
   */
  constructor(private readonly maxEntries = MAX_ENTRIES) {
    if (maxEntries < 512 || (maxEntries & (maxEntries - 1)) !== 0) throw new Error(`WordTable: ${maxEntries} entries is not a power of two of at least 512`);
  }

  /** Entry index + 1 per bucket; 0 is empty. */
  private buckets = new Int32Array(1024);
  /**
   * Per entry, its hash and where its characters are (`entry * 2`, `entry * 2 + 1`): one record
   * in one cache line, not three arrays. A new query's words are looked up while another engine's
   * data may have evicted the table, so each line read is a likely miss.
   */
  private records = new Int32Array(1024);
  private pool = new Uint16Array(4096);
  private poolUsed = 0;
  private values: V[] = [];

  get size(): number {
    return this.values.length;
  }

  /**
   * Two integers per entry for the caller's use (`entry * 2`, `entry * 2 + 1`), zero when added:
   * facts about a value kept beside it without an object per entry.
   */
  numbers = new Int32Array(1024);

  /** The value of text[start, end), whose wordHash is `hash`; undefined when absent. */
  get(text: string, start: number, end: number, hash: number): V | undefined {
    const entry = this.find(text, start, end, hash);
    return entry < 0 ? undefined : this.values[entry];
  }

  /** The value of an entry find() or add() gave. */
  valueAt(entry: number): V {
    return this.values[entry]!;
  }

  /**
   * For words about to be looked up (their hashes, `count` of them), the entry in each word's home
   * bucket (-1 when empty) into `entries`, after reading the record and first characters of each
   * such entry: each level for every word before the next, so that the memory reads of different
   * words overlap instead of waiting for one another (a new query's words are looked up while
   * other work has evicted the table). Changes nothing; the answer only keeps the reads from being
   * dropped as unused.
   */
  warm(hashes: Int32Array, count: number, entries: Int32Array): number {
    const mask = this.buckets.length - 1;
    const buckets = this.buckets;
    const records = this.records;
    let read = 0;
    for (let i = 0; i < count; i++) entries[i] = buckets[hashes[i]! & mask]! - 1;
    for (let i = 0; i < count; i++) {
      const entry = entries[i]!;
      if (entry >= 0) read ^= records[entry * 2 + 1]!;
    }
    const pool = this.pool;
    for (let i = 0; i < count; i++) {
      const entry = entries[i]!;
      if (entry < 0) continue;
      const packed = records[entry * 2 + 1]!;
      read ^= pool[packed >> LENGTH_BITS]!;
    }
    return read;
  }

  /** The entry of text[start, end), whose wordHash is `hash`; -1 when absent. */
  find(text: string, start: number, end: number, hash: number): number {
    const length = end - start;
    if (length > MAX_WORD_CHARS) return -1;
    const mask = this.buckets.length - 1;
    const records = this.records;
    for (let at = hash & mask, probes = 0; probes < MAX_PROBES; at = (at + 1) & mask, probes++) {
      const entry = this.buckets[at]! - 1;
      if (entry < 0) return -1;
      if (records[entry * 2] !== hash) continue;
      const packed = records[entry * 2 + 1]!;
      if ((packed & LENGTH_MASK) !== length) continue;
      const from = packed >> LENGTH_BITS;
      let same = true;
      for (let i = 0; i < length && same; i++) same = this.pool[from + i] === text.charCodeAt(start + i);
      if (same) return entry;
    }
    return -1;
  }

  /**
   * Remembers text[start, end) → value (the word must be absent); its entry, or -1 for a word not
   * kept (too long, or no free bucket within MAX_PROBES of its home).
   */
  add(text: string, start: number, end: number, hash: number, value: V): number {
    const length = end - start;
    if (length > MAX_WORD_CHARS) return -1;
    if (this.values.length >= this.maxEntries) this.clear();
    if ((this.values.length + 1) * 2 > this.buckets.length) this.rehash(2 * this.maxEntries);
    const bucket = this.freeBucket(hash);
    if (bucket < 0) return -1;
    const entry = this.values.length;
    if (entry * 2 >= this.records.length) this.growEntries();
    if (this.poolUsed + length > this.pool.length) {
      const pool = new Uint16Array(Math.max(this.pool.length * 2, this.poolUsed + length));
      pool.set(this.pool);
      this.pool = pool;
    }
    for (let i = 0; i < length; i++) this.pool[this.poolUsed + i] = text.charCodeAt(start + i);
    this.records[entry * 2] = hash;
    this.records[entry * 2 + 1] = (this.poolUsed << LENGTH_BITS) | length;
    this.poolUsed += length;
    this.values.push(value);
    this.numbers[entry * 2] = 0;
    this.numbers[entry * 2 + 1] = 0;
    this.buckets[bucket] = entry + 1;
    return entry;
  }

  clear(): void {
    this.buckets.fill(0);
    this.values = [];
    this.poolUsed = 0;
  }

  /** The first empty bucket within MAX_PROBES of the hash's home, or -1. */
  private freeBucket(hash: number): number {
    const mask = this.buckets.length - 1;
    for (let at = hash & mask, probes = 0; probes < MAX_PROBES; at = (at + 1) & mask, probes++) {
      if (this.buckets[at] === 0) return at;
    }
    return -1;
  }

  /** An entry that finds no bucket near its home is left out: unreachable, gone at the next clear(). */
  private rehash(size: number): void {
    this.buckets = new Int32Array(size);
    for (let entry = 0; entry < this.values.length; entry++) {
      const bucket = this.freeBucket(this.records[entry * 2]!);
      if (bucket >= 0) this.buckets[bucket] = entry + 1;
    }
  }

  private growEntries(): void {
    const records = new Int32Array(this.maxEntries * 2);
    records.set(this.records);
    this.records = records;
    const numbers = new Int32Array(this.maxEntries * 2);
    numbers.set(this.numbers);
    this.numbers = numbers;
  }
}
