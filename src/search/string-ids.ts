import { ensureInt32 } from "./growable.ts";

/** Returned by find() for a key the table does not hold. */
export const MISSING = -2;

/**
 * String → int32 (≥ -1), looked up straight from a range of a text: the range is hashed and
 * compared code unit by code unit (with `foldCase`, A–Z lowercased on the fly), so a key seen
 * before costs no string. The tokenizer keeps word → term id here: indexing 100k tools meets
 * ~30 million words, and one substring plus one lowercased copy of each was most of the build's
 * garbage, hence of its peak memory. Its cache of shared texts lives here too: a Map refilled
 * many times over a build left every outgrown hash table behind as garbage; these few typed
 * arrays are reused.
 *
 * Open addressing over typed arrays; at `limit` keys the table is emptied (keys an adversary
 * grows cannot grow it forever; they are simply worked out again), and no lookup or insertion
 * looks at more than MAX_PROBES buckets: FNV-1a has a fixed seed, so a server's author can write
 * 65k words of one 32-bit hash (Joux multicollisions), and each new one walked the whole run
 * (hostile pass: indexing them took 2.1 s instead of 0.7, quadratic in the count). A key with
 * no free bucket near its home is simply not kept.
 */
/** Buckets a lookup or an insertion looks at, at most: at ≤ 50% load an honest run is rarely past 8. */
export const MAX_PROBES = 32;

export class StringIds {
  private slots = new Int32Array(1024);
  private hashes = new Int32Array(512);
  private ids = new Int32Array(512);
  private words: string[] = [];

  constructor(
    private readonly limit: number,
    private readonly foldCase: boolean,
  ) {}

  get size(): number {
    return this.words.length;
  }

  /** The value stored for text[start, end) (A–Z lowercased when folding case), or MISSING. */
  find(text: string, start: number, end: number): number {
    const fold = this.foldCase;
    const hash = hashRange(text, start, end, fold);
    const mask = this.slots.length - 1;
    const length = end - start;
    for (let at = hash & mask, probes = 0; probes < MAX_PROBES; at = (at + 1) & mask, probes++) {
      const entry = this.slots[at]! - 1;
      if (entry < 0) return MISSING;
      if (this.hashes[entry] !== hash) continue;
      const word = this.words[entry]!;
      if (word.length !== length) continue;
      let same = true;
      if (fold) for (let i = 0; i < length && same; i++) same = word.charCodeAt(i) === lowerCode(text.charCodeAt(start + i));
      else for (let i = 0; i < length && same; i++) same = word.charCodeAt(i) === text.charCodeAt(start + i);
      if (same) return this.ids[entry]!;
    }
    return MISSING;
  }

  /**
   * Stores the value of `word` (lowercase in A–Z when folding case), not yet in the table; a full
   * table is emptied first. False when it is not kept (no free bucket within MAX_PROBES of its home).
   */
  set(word: string, id: number): boolean {
    if (this.words.length >= this.limit) this.clear();
    const entry = this.words.length;
    if ((entry + 1) * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    const hash = hashRange(word, 0, word.length, this.foldCase);
    const bucket = this.freeSlot(hash);
    if (bucket < 0) return false;
    this.words.push(word);
    this.hashes = ensureInt32(this.hashes, entry + 1);
    this.ids = ensureInt32(this.ids, entry + 1);
    this.hashes[entry] = hash;
    this.ids[entry] = id;
    this.slots[bucket] = entry + 1;
    return true;
  }

  /** Empties the table, keeping its arrays. */
  clear(): void {
    this.words.length = 0;
    this.slots.fill(0);
  }

  /** The first empty bucket within MAX_PROBES of the hash's home, or -1. */
  private freeSlot(hash: number): number {
    const mask = this.slots.length - 1;
    for (let at = hash & mask, probes = 0; probes < MAX_PROBES; at = (at + 1) & mask, probes++) {
      if (this.slots[at] === 0) return at;
    }
    return -1;
  }

  /** A key that finds no bucket near its home is left out: unreachable, gone at the next clear(). */
  private rehash(size: number): void {
    this.slots = new Int32Array(size);
    for (let entry = 0; entry < this.words.length; entry++) {
      const bucket = this.freeSlot(this.hashes[entry]!);
      if (bucket >= 0) this.slots[bucket] = entry + 1;
    }
  }
}

function lowerCode(code: number): number {
  return code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
}

/** FNV-1a over the code units of text[start, end) (A–Z lowercased when folding), then mixed so low bits spread. */
function hashRange(text: string, start: number, end: number, fold: boolean): number {
  let hash = 0x811c9dc5 | 0;
  if (fold) for (let i = start; i < end; i++) hash = Math.imul(hash ^ lowerCode(text.charCodeAt(i)), 0x01000193);
  else for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  hash ^= hash >>> 15;
  return Math.imul(hash, 0x2c1b3c6d) ^ (hash >>> 12);
}

/** Words longer than this are not kept by WordIds (found MISSING: the caller works their id out again). */
export const MAX_POOLED_CHARS = 64;
/** WordIds' bucket, 1 << BUCKET_SHIFT ints: its key's hash, value, characters' offset in the pool, and length + 1 (0: empty). */
const BUCKET_SHIFT = 2;

/**
 * StringIds for words, A–Z folded: each bucket holds its key's hash, value and where its characters
 * are in one pool, so a lookup reads the bucket's line and the pool's: two cache lines where a
 * bucket → entry → string → characters → value chain read five or six. A query's words new to its
 * parse are looked up here while other work has evicted the table, so each line is a likely miss.
 * The pool also spares a string object per word (≤ MAX_POOLED_CHARS code units; a longer word is
 * not kept). Bounded like StringIds: `limit` keys, then emptied; MAX_PROBES buckets a walk.
 */
export class WordIds {
  private buckets = new Int32Array(1024 << BUCKET_SHIFT);
  private pool = new Uint16Array(4096);
  private poolUsed = 0;
  private count = 0;

  constructor(private readonly limit: number) {}

  get size(): number {
    return this.count;
  }

  /** The value stored for text[start, end) with A–Z lowercased, or MISSING. */
  find(text: string, start: number, end: number): number {
    const length = end - start;
    if (length > MAX_POOLED_CHARS) return MISSING;
    const hash = hashRange(text, start, end, true);
    const buckets = this.buckets;
    const mask = (buckets.length >> BUCKET_SHIFT) - 1;
    for (let at = hash & mask, probes = 0; probes < MAX_PROBES; at = (at + 1) & mask, probes++) {
      const bucket = at << BUCKET_SHIFT;
      const stored = buckets[bucket + 3]!;
      if (stored === 0) return MISSING;
      if (buckets[bucket] !== hash || stored !== length + 1) continue;
      const pool = this.pool;
      const from = buckets[bucket + 2]!;
      let same = true;
      for (let i = 0; i < length && same; i++) same = pool[from + i] === lowerCode(text.charCodeAt(start + i));
      if (same) return buckets[bucket + 1]!;
    }
    return MISSING;
  }

  /**
   * Stores the value of `word` (lowercase in A–Z), not yet in the table; a full table is emptied
   * first. False when it is not kept (longer than MAX_POOLED_CHARS, or no free bucket within
   * MAX_PROBES of its home).
   */
  set(word: string, id: number): boolean {
    const length = word.length;
    if (length > MAX_POOLED_CHARS) return false;
    if (this.count >= this.limit) this.clear();
    if ((this.count + 1) * 2 > this.buckets.length >> BUCKET_SHIFT) this.rehash((this.buckets.length >> BUCKET_SHIFT) * 2);
    const hash = hashRange(word, 0, length, true);
    const bucket = freeBucket(this.buckets, hash);
    if (bucket < 0) return false;
    if (this.poolUsed + length > this.pool.length) {
      const pool = new Uint16Array(Math.max(this.pool.length * 2, this.poolUsed + length));
      pool.set(this.pool);
      this.pool = pool;
    }
    for (let i = 0; i < length; i++) this.pool[this.poolUsed + i] = word.charCodeAt(i);
    const at = bucket << BUCKET_SHIFT;
    this.buckets[at] = hash;
    this.buckets[at + 1] = id;
    this.buckets[at + 2] = this.poolUsed;
    this.buckets[at + 3] = length + 1;
    this.poolUsed += length;
    this.count++;
    return true;
  }

  /** Empties the table, keeping its arrays. */
  clear(): void {
    this.buckets.fill(0);
    this.poolUsed = 0;
    this.count = 0;
  }

  /** Every kept key moved to a table of `size` buckets; one that finds no bucket near its home is left out. */
  private rehash(size: number): void {
    const old = this.buckets;
    const buckets = new Int32Array(size << BUCKET_SHIFT);
    for (let at = 0; at < old.length; at += 1 << BUCKET_SHIFT) {
      if (old[at + 3] === 0) continue;
      const bucket = freeBucket(buckets, old[at]!);
      if (bucket >= 0) buckets.set(old.subarray(at, at + (1 << BUCKET_SHIFT)), bucket << BUCKET_SHIFT);
    }
    this.buckets = buckets;
  }
}

/** WordIds: the first empty bucket within MAX_PROBES of the hash's home, or -1. */
function freeBucket(buckets: Int32Array, hash: number): number {
  const mask = (buckets.length >> BUCKET_SHIFT) - 1;
  for (let at = hash & mask, probes = 0; probes < MAX_PROBES; at = (at + 1) & mask, probes++) {
    if (buckets[(at << BUCKET_SHIFT) + 3] === 0) return at;
  }
  return -1;
}
