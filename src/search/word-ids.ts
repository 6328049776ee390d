import { ensureInt32 } from "./growable.ts";

/** Returned by find() for a word the table does not hold. */
export const MISSING_WORD = -2;

/**
 * Lowercased word → term id (-1 for a word that is not indexed), looked up straight from a range
 * of a text: the range is hashed and compared code unit by code unit, A–Z folded on the fly, so a
 * word seen before costs no string. Indexing 100k tools meets ~30 million words; one substring
 * and one lowercased copy of each was most of the build's garbage, hence of its peak memory.
 *
 * Open addressing over typed arrays; at `limit` words the table is emptied (a vocabulary an
 * adversary grows cannot grow it forever; words are simply looked up again).
 */
export class WordIds {
  private slots = new Int32Array(1024);
  private hashes = new Int32Array(512);
  private ids = new Int32Array(512);
  private words: string[] = [];

  constructor(private readonly limit: number) {}

  get size(): number {
    return this.words.length;
  }

  /** The id stored for text[start, end) with A–Z lowercased, or MISSING_WORD. */
  find(text: string, start: number, end: number): number {
    const hash = hashRange(text, start, end);
    const mask = this.slots.length - 1;
    const length = end - start;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const entry = this.slots[at]! - 1;
      if (entry < 0) return MISSING_WORD;
      if (this.hashes[entry] !== hash) continue;
      const word = this.words[entry]!;
      if (word.length !== length) continue;
      let same = true;
      for (let i = 0; i < length && same; i++) same = word.charCodeAt(i) === lowerCode(text.charCodeAt(start + i));
      if (same) return this.ids[entry]!;
    }
  }

  /** Stores the id of `word`, which must be lowercase in A–Z and not yet in the table. */
  set(word: string, id: number): void {
    if (this.words.length >= this.limit) this.clear();
    const entry = this.words.length;
    this.words.push(word);
    this.hashes = ensureInt32(this.hashes, entry + 1);
    this.ids = ensureInt32(this.ids, entry + 1);
    const hash = hashRange(word, 0, word.length);
    this.hashes[entry] = hash;
    this.ids[entry] = id;
    if ((entry + 1) * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    else this.place(entry, hash);
  }

  clear(): void {
    this.words = [];
    this.slots = new Int32Array(1024);
    this.hashes = new Int32Array(512);
    this.ids = new Int32Array(512);
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

/** FNV-1a over the code units of text[start, end), A–Z lowercased, then mixed so low bits spread. */
function hashRange(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5 | 0;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ lowerCode(text.charCodeAt(i)), 0x01000193);
  hash ^= hash >>> 15;
  return Math.imul(hash, 0x2c1b3c6d) ^ (hash >>> 12);
}
