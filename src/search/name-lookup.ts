import { EXECUTE_EXTRA_TOOL_NAME, TOOL_SEARCH_TOOL_NAME } from "../deferral/meta-tools.ts";
import { isWhiteSpace } from "./char-class.ts";
import { squash } from "./document-fields.ts";
import { boundedEditDistance, EditDistanceScratch } from "./edit-distance.ts";
import { FoldedKeys } from "./folded-keys.ts";
import type { SearchDocument } from "./types.ts";

const MAX_SUGGESTIONS = 3;

/** What the lookup reads of a tool: the names a caller may type for it. */
export type NamedKeys = Pick<SearchDocument, "name" | "aliases" | "rawToolName">;

/** The pool names the lookup's owner already keeps (the index's name → slot map): not copied here. */
export interface PoolNames {
  has(name: string): boolean;
  keys(): Iterable<string>;
}

/**
 * Resolves what a caller may type for a tool — its pool name, an alias, or the MCP server's raw
 * tool name — to pool names, exactly, then case-insensitively; and finds near misses. The pool
 * names themselves are the owner's (`pool`); the lookup adds only the other keys, and the owner
 * must know a tool's name before add() and may forget it after remove().
 */
export class NameLookup {
  /**
   * Aliases and raw names → pool names. A key usually names one tool: the value is that name, and
   * an array only on a collision (one array per key for 100k tools is a lot of objects to trace).
   */
  private readonly exact = new Map<string, Names>();
  private readonly folded = new FoldedKeys();
  /** Built on the first suggest() and kept up to date after; most indexes never need it. */
  private squashed: Map<string, Names> | undefined;
  /** Built on the first suggest() too: folded keys by length, each with its character mask. */
  private buckets: Map<number, Map<string, number>> | undefined;
  private readonly scratch = new EditDistanceScratch();
  /**
   * No key, nor its lowercase, is longer than this (it only grows, so it stays a bound after a
   * removal): a longer text, such as a request in words, names no tool and is not looked up (the
   * lookups hash and lowercase the whole text on every query never seen before).
   */
  private longestKey = 0;
  /**
   * Whether any key ever added holds white space (it only turns true): while none does, a text
   * with white space (a request in words) names no tool, and the lookups below hash none of it.
   */
  private spacedKeys = false;

  constructor(private readonly pool: PoolNames) {}

  /**
   * `key` as the lookup already holds it, or `key` itself when new. Copies of a server's tools
   * under other names share raw names: at 100k tools, ~45k equal strings held once each.
   */
  sharedKey(key: string): string {
    return this.folded.storedKey(key) ?? key;
  }

  add(doc: NamedKeys): void {
    for (const given of keysOf(doc)) {
      const key = given === doc.name ? given : this.sharedKey(given);
      this.longestKey = Math.max(this.longestKey, lowercaseBound(key));
      this.spacedKeys ||= hasWhiteSpace(key);
      if (key !== doc.name) push(this.exact, key, doc.name);
      this.folded.add(key, doc.name);
      if (this.buckets !== undefined) this.bucket(key.toLowerCase());
      if (this.squashed !== undefined) push(this.squashed, squash(key), doc.name);
    }
  }

  /** Forgets a tool; `doc` must carry the keys it was added with. */
  remove(doc: NamedKeys): void {
    for (const key of keysOf(doc)) {
      if (key !== doc.name) pull(this.exact, key, doc.name);
      this.folded.remove(key, doc.name);
      if (this.buckets !== undefined) this.unbucket(key.toLowerCase());
      if (this.squashed !== undefined) pull(this.squashed, squash(key), doc.name);
    }
  }

  /**
   * Pool names that `text` names. A pool name wins over aliases and raw names that collide with it;
   * an exact-case match wins over a case-insensitive one.
   */
  resolve(text: string): string[] {
    if (text.length > this.longestKey || (!this.spacedKeys && hasWhiteSpace(text))) return [];
    if (this.pool.has(text)) return [text];
    const exact = this.exact.get(text);
    if (exact !== undefined) return [...listOf(exact)];
    return this.folded.names(text.toLowerCase());
  }

  private squashedKeys(): Map<string, Names> {
    if (this.squashed !== undefined) return this.squashed;
    const squashed = new Map<string, Names>();
    // Every key of every tool is a pool name or in `exact` (no copy of the tools is kept for this).
    for (const name of this.pool.keys()) push(squashed, squash(name), name);
    for (const [key, names] of this.exact) for (const name of listOf(names)) push(squashed, squash(key), name);
    this.squashed = squashed;
    return squashed;
  }

  /**
   * Up to three pool names whose name, alias or raw name is a near miss of `text`; only names
   * `admit` takes (the asker's scope) are counted, so a name outside it neither shows nor takes the
   * place of one inside.
   */
  suggest(text: string, admit: (name: string) => boolean = () => true): string[] {
    const suggestions = new Set<string>();
    for (const name of listOf(this.squashedKeys().get(squash(text)))) if (admit(name)) suggestions.add(name);
    const needle = text.toLowerCase();
    const limit = needle.length <= 4 ? 1 : needle.length <= 12 ? 2 : 3;
    const needleMask = characterMask(needle);
    const buckets = this.lengthBuckets();
    const ranked: { name: string; distance: number }[] = [];
    for (let length = needle.length - limit; length <= needle.length + limit; length++) {
      for (const [key, mask] of buckets.get(length) ?? []) {
        // Each edit changes at most two bits of the character-presence mask: a cheap lower bound.
        if (popcount(mask ^ needleMask) > 2 * limit) continue;
        const distance = boundedEditDistance(needle, key, limit, this.scratch);
        if (distance > limit || distance === 0) continue;
        for (const name of this.folded.names(key)) ranked.push({ name, distance });
      }
    }
    ranked.sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name));
    for (const { name } of ranked) {
      if (suggestions.size >= MAX_SUGGESTIONS) break;
      if (admit(name)) suggestions.add(name);
    }
    return [...suggestions].slice(0, MAX_SUGGESTIONS);
  }

  /** Folded keys by length, each with its character mask; built on first use, then kept current. */
  private lengthBuckets(): Map<number, Map<string, number>> {
    if (this.buckets !== undefined) return this.buckets;
    this.buckets = new Map();
    for (const name of this.pool.keys()) this.bucket(name.toLowerCase());
    for (const key of this.exact.keys()) this.bucket(key.toLowerCase());
    return this.buckets;
  }

  private bucket(key: string): void {
    if (this.buckets === undefined) return;
    let bucket = this.buckets.get(key.length);
    if (bucket === undefined) this.buckets.set(key.length, (bucket = new Map()));
    bucket.set(key, characterMask(key));
  }

  private unbucket(key: string): void {
    if (this.buckets === undefined || this.folded.names(key).length > 0) return;
    this.buckets.get(key.length)?.delete(key);
  }
}

/** One bit per character class present: a–z, 0–9 (one bit), `_`, `-`, `.`, anything else. */
function characterMask(text: string): number {
  let mask = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x61 && code <= 0x7a) mask |= 1 << (code - 0x61);
    else if (code >= 0x30 && code <= 0x39) mask |= 1 << 26;
    else if (code === 0x5f) mask |= 1 << 27;
    else if (code === 0x2d) mask |= 1 << 28;
    else if (code === 0x2e) mask |= 1 << 29;
    else mask |= 1 << 30;
  }
  return mask;
}

function popcount(value: number): number {
  let bits = value - ((value >>> 1) & 0x55555555);
  bits = (bits & 0x33333333) + ((bits >>> 2) & 0x33333333);
  return (Math.imul((bits + (bits >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Lowercasing makes no white space, so a key without any matches no text with some, in any case. */
function hasWhiteSpace(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (isWhiteSpace(text.charCodeAt(i))) return true;
  return false;
}

/**
 * At least the length of `key` and of `key.toLowerCase()`: the same for ASCII; lowercasing a code
 * unit gives at most three (and never fewer, so a longer text's lowercase is longer too).
 */
function lowercaseBound(key: string): number {
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) >= 0x80) return key.length * 3;
  return key.length;
}

function keysOf(doc: NamedKeys): string[] {
  const keys = [doc.name];
  for (const key of doc.aliases ?? []) if (!keys.includes(key)) keys.push(key);
  if (doc.rawToolName !== undefined && !keys.includes(doc.rawToolName) && mayBeRawKey(doc.rawToolName)) keys.push(doc.rawToolName);
  return keys;
}

/**
 * A server's raw tool name is a key unless it could pass for another tool's name, in any case:
 * another server's pool name (`mcp__…`) or a meta-tool's, which no pool name answers first. A
 * hostile server listing tools named `ToolSearch` and `mcp__github__create_issue` had
 * `select:ToolSearch` load its own, and `select:mcp__github__create_issue` too while github was
 * connecting; they stay reachable by their own pool names.
 */
function mayBeRawKey(raw: string): boolean {
  const lower = raw.toLowerCase();
  return !lower.startsWith("mcp__") && lower !== TOOL_SEARCH_TOOL_NAME.toLowerCase() && lower !== EXECUTE_EXTRA_TOOL_NAME.toLowerCase();
}

type Names = string | readonly string[];

function listOf(names: Names | undefined): readonly string[] {
  return names === undefined ? [] : typeof names === "string" ? [names] : names;
}

function push(map: Map<string, Names>, key: string, name: string): void {
  const names = map.get(key);
  if (names === undefined) map.set(key, name);
  else if (!listOf(names).includes(name)) map.set(key, [...listOf(names), name]);
}

function pull(map: Map<string, Names>, key: string, name: string): void {
  const kept = listOf(map.get(key)).filter((candidate) => candidate !== name);
  if (kept.length === 0) map.delete(key);
  else map.set(key, kept.length === 1 ? kept[0]! : kept);
}
