/**
 * Case-insensitive lookup keys → pool names, without a lowercased copy of each key: entries are
 * filed under a hash of the lowercased key and hold the keys as given, so a lookup lowercases
 * only the candidates it checks. At 100k tools the lowercased copies (three names in four have
 * capitals) and the garbage of making them were ~20 MiB of the build's peak.
 *
 * An entry is a key that is its own pool name (the common case: no array), or an array of
 * `key, name` pairs in the order they were added.
 */
export class FoldedKeys {
  private readonly entries = new Map<number, string | string[]>();

  add(key: string, name: string): void {
    const hash = foldedHash(key);
    const entry = this.entries.get(hash);
    if (entry === undefined && key === name) {
      this.entries.set(hash, key);
      return;
    }
    const pairs = entry === undefined ? [] : typeof entry === "string" ? [entry, entry] : entry;
    for (let i = 0; i < pairs.length; i += 2) if (pairs[i] === key && pairs[i + 1] === name) return;
    pairs.push(key, name);
    this.entries.set(hash, pairs);
  }

  remove(key: string, name: string): void {
    const hash = foldedHash(key);
    const entry = this.entries.get(hash);
    if (entry === undefined) return;
    const pairs = typeof entry === "string" ? [entry, entry] : entry;
    const kept: string[] = [];
    for (let i = 0; i < pairs.length; i += 2) if (pairs[i] !== key || pairs[i + 1] !== name) kept.push(pairs[i]!, pairs[i + 1]!);
    if (kept.length === 0) this.entries.delete(hash);
    else this.entries.set(hash, kept.length === 2 && kept[0] === kept[1] ? kept[0]! : kept);
  }

  /** Pool names with a key that lowercases to `lower` (itself lowercased), de-duplicated, in the order added. */
  names(lower: string): string[] {
    const entry = this.entries.get(foldedHash(lower));
    if (entry === undefined) return [];
    if (typeof entry === "string") return entry.toLowerCase() === lower ? [entry] : [];
    const names: string[] = [];
    for (let i = 0; i < entry.length; i += 2) {
      const name = entry[i + 1]!;
      if (entry[i]!.toLowerCase() === lower && !names.includes(name)) names.push(name);
    }
    return names;
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
