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
 * grows cannot grow it forever; they are simply worked out again).
 */
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
    for (let at = hash & mask; ; at = (at + 1) & mask) {
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
  }

  /** Stores the value of `word` (lowercase in A–Z when folding case), not yet in the table; a full table is emptied first. */
  set(word: string, id: number): void {
    if (this.words.length >= this.limit) this.clear();
    const entry = this.words.length;
    this.words.push(word);
    this.hashes = ensureInt32(this.hashes, entry + 1);
    this.ids = ensureInt32(this.ids, entry + 1);
    const hash = hashRange(word, 0, word.length, this.foldCase);
    this.hashes[entry] = hash;
    this.ids[entry] = id;
    if ((entry + 1) * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    else this.place(entry, hash);
  }

  /** Empties the table, keeping its arrays. */
  clear(): void {
    this.words.length = 0;
    this.slots.fill(0);
  }

  private place(entry: number, hash: number): void {
    const mask = this.slots.length - 1;
    let at = hash & mask;
    while (this.slots[at] !== 0) at = (at + 1) & mask;
    this.slots[at] = entry + 1;
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size);
    for (let entry = 0; entry < this.words.length; entry++) this.place(entry, this.hashes[entry]!);
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
