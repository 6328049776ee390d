import { HashSlots } from "./hash-slots.ts";

/**
 * Case-insensitive lookup keys → pool names, without a lowercased copy of each key: entries are
 * filed under a hash of the lowercased key and hold the keys as given, so a lookup lowercases
 * only the candidates it checks. At 100k tools the lowercased copies (three names in four have
 * capitals) and the garbage of making them were ~20 MiB of the build's peak.
 *
 * An entry is a key and the pool name it leads to: for a pool name, the same string twice.
 */
export class FoldedKeys {
  /** Folded hash → entry (hash-slots.ts: a Map of 100k keys was ~6.5 MiB, all of it traced). */
  private readonly byHash = new HashSlots((entry) => this.entryKeys[entry]!.toLowerCase());
  /** Per entry: the key as given, and the pool name it leads to (the same string, most often). */
  private entryKeys: (string | undefined)[] = [];
  private entryNames: (string | undefined)[] = [];
  private readonly freeEntries: number[] = [];

  add(key: string, name: string): void {
    const hash = foldedHash(key);
    for (let at = this.byHash.find(hash); at >= 0; at = this.byHash.find(hash, at)) {
      const entry = this.byHash.valueAt(at);
      if (this.entryKeys[entry] === key && this.entryNames[entry] === name) return;
    }
    for (const entry of this.spilled(hash, key)) if (this.entryKeys[entry] === key && this.entryNames[entry] === name) return;
    const entry = this.freeEntries.pop() ?? this.entryKeys.length;
    this.entryKeys[entry] = key;
    this.entryNames[entry] = name;
    this.byHash.add(hash, entry);
  }

  remove(key: string, name: string): void {
    const hash = foldedHash(key);
    for (let at = this.byHash.find(hash); at >= 0; at = this.byHash.find(hash, at)) {
      const entry = this.byHash.valueAt(at);
      if (this.entryKeys[entry] !== key || this.entryNames[entry] !== name) continue;
      this.forget(hash, entry);
      return;
    }
    for (const entry of this.spilled(hash, key)) {
      if (this.entryKeys[entry] !== key || this.entryNames[entry] !== name) continue;
      this.forget(hash, entry);
      return;
    }
  }

  private forget(hash: number, entry: number): void {
    this.byHash.remove(hash, entry);
    this.entryKeys[entry] = undefined;
    this.entryNames[entry] = undefined;
    this.freeEntries.push(entry);
  }

  /** Entries of `key`'s lowercase kept off the hash table's buckets (hash-slots.ts); almost always none. */
  private spilled(hash: number, key: string): readonly number[] {
    return this.byHash.spilledCount === 0 ? this.byHash.spilled(hash, key) : this.byHash.spilled(hash, key.toLowerCase());
  }

  /** The string held for `key` (the first one added with that spelling), so equal keys can share one. */
  storedKey(key: string): string | undefined {
    const hash = foldedHash(key);
    for (let at = this.byHash.find(hash); at >= 0; at = this.byHash.find(hash, at)) {
      const stored = this.entryKeys[this.byHash.valueAt(at)]!;
      if (stored === key) return stored;
    }
    for (const entry of this.spilled(hash, key)) if (this.entryKeys[entry] === key) return this.entryKeys[entry];
    return undefined;
  }

  /** Pool names with a key that lowercases to `lower` (itself lowercased), de-duplicated, in the order added. */
  names(lower: string): string[] {
    const hash = foldedHash(lower);
    const found: string[] = [];
    for (let at = this.byHash.find(hash); at >= 0; at = this.byHash.find(hash, at)) {
      const entry = this.byHash.valueAt(at);
      const name = this.entryNames[entry]!;
      if (this.entryKeys[entry]!.toLowerCase() === lower && !found.includes(name)) found.push(name);
    }
    for (const entry of this.spilled(hash, lower)) if (!found.includes(this.entryNames[entry]!)) found.push(this.entryNames[entry]!);
    return found;
  }
}

/** FNV-1a of `text.toLowerCase()`; ASCII text is folded as it is read (no string made). */
export function foldedHash(text: string): number {
  let hash = 0x811c9dc5 | 0;
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code >= 0x80) return plainHash(text.toLowerCase());
    if (code >= 0x41 && code <= 0x5a) code += 0x20;
    hash = Math.imul(hash ^ code, 0x01000193);
  }
  return hash;
}

function plainHash(text: string): number {
  let hash = 0x811c9dc5 | 0;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash;
}
