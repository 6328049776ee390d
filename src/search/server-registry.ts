import { squash } from "./document-fields.ts";
import { ensureInt32 } from "./growable.ts";

/** FNV-1a over UTF-16 code units: start from KEY_HASH_SEED, fold in one code unit at a time. */
export const KEY_HASH_SEED = 0x811c9dc5 | 0;
export function keyHash(hash: number, code: number): number {
  return Math.imul(hash ^ code, 0x01000193);
}

/**
 * Hash filter positions (a power of two): two bits each, "some key starts so" and "some key is
 * so", side by side, so the two questions a word window asks read one cache line (64 KiB in all).
 */
const FILTER_POSITIONS = 1 << 18;
const PREFIX_BIT = 1;
const KEY_BIT = 2;

/** Int32Array words: bit 31 read from a Uint32Array is a number above int32, an exit for optimised code. */
function hasBit(bits: Int32Array, hash: number, which: number): boolean {
  const at = (hash & (FILTER_POSITIONS - 1)) * 2;
  return (bits[at >>> 5]! & (which << (at & 31))) !== 0;
}

function setBit(bits: Int32Array, hash: number, which: number): void {
  const at = (hash & (FILTER_POSITIONS - 1)) * 2;
  bits[at >>> 5]! |= which << (at & 31);
}

/**
 * MCP servers known to an index, matched loosely ("GitHub", "github", "git-hub" are one server),
 * each with the index slots of its tools in the order they joined. Server ids are never reused.
 *
 * Membership is a doubly linked list per server threaded through per-slot typed arrays: no
 * object per server or per member (a Set of names per server was ~18 MiB at 100k tools), O(1)
 * join and leave, and pool order kept. A slot belongs to at most one server at a time; the
 * caller removes a member before its slot is reused.
 */
export class ServerRegistry {
  private readonly idByKey = new Map<string, number>();
  /** Exact spelling → id, so adding a server's tools squashes its name once. */
  private readonly idByName = new Map<string, number>();
  private readonly names: string[] = [];
  private head = new Int32Array(16).fill(-1);
  private tail = new Int32Array(16).fill(-1);
  private counts = new Int32Array(16);
  private next = new Int32Array(64);
  private previous = new Int32Array(64);
  /**
   * Hashes (keyHash) of every whole key: a query's word windows are tested as numbers, no string
   * built, and only a hash hit is checked exactly. Keys are never dropped (ids are never reused),
   * so the set is bounded by the number of keys.
   */
  private readonly keyHashes = new Set<number>();
  /**
   * A bit per hash (low bits) of every prefix of every key, and of every whole key (keyHashes),
   * asked first: a query asks ~80 hashes, almost all absent, and a bit answers that without a
   * probe of a large Set. The prefix bit alone answers mayPrefixKey: a wrong "yes" only lets a
   * window grow by a word, whose key is then checked exactly like any other.
   */
  private readonly filterBits = new Int32Array((FILTER_POSITIONS * 2) >>> 5);
  /** Bumped when a server gains its first tool or loses its last: which names are live changed. */
  liveVersion = 0;
  /** Bumped when a key is added: an answer of mayPrefixKey or mayBeKey may have changed (ServerKeys). */
  keysVersion = 0;

  idOf(server: string): number | undefined {
    return this.idOfKey(squash(server));
  }

  /** Like idOf, for a name already squashed. */
  idOfKey(key: string): number | undefined {
    const id = this.idByKey.get(key);
    return id !== undefined && this.counts[id]! > 0 ? id : undefined;
  }

  /**
   * Whether some known key may start with the text hashed to `hash` (false: certainly none). The
   * filter's bit alone: a query's short words ("a", "get") are true prefixes, and a probe of a Set
   * of every prefix (~11k at 1,155 servers) per such word cost more than the words a wrong "yes" adds.
   */
  mayPrefixKey(hash: number): boolean {
    return hasBit(this.filterBits, hash, PREFIX_BIT);
  }

  /** Whether some known key may be the text hashed to `hash` (false: certainly none). */
  mayBeKey(hash: number): boolean {
    return hasBit(this.filterBits, hash, KEY_BIT) && this.keyHashes.has(hash);
  }

  /** Ids of servers that have tools now. */
  liveIds(): number[] {
    return this.names.map((_, id) => id).filter((id) => this.counts[id]! > 0);
  }

  /** The server's name as spelled by the tool that last made it live (its first tool since it had none). */
  nameOf(id: number): string {
    return this.names[id]!;
  }

  /** How many tools the server has now. */
  memberCount(id: number): number {
    return this.counts[id]!;
  }

  /** The server's member slots, in the order they joined. */
  membersOf(id: number): number[] {
    return this.appendMembers(id, []);
  }

  /** Appends the server's member slots, in the order they joined, to `into`; returns it. */
  appendMembers(id: number, into: number[]): number[] {
    for (let slot = this.head[id]!; slot >= 0; slot = this.next[slot]!) into.push(slot);
    return into;
  }

  /** Adds the tool in `slot` to the server (registered on first use); returns the server's id. */
  addMember(server: string, slot: number): number {
    const id = this.register(server);
    if (this.counts[id] === 0) {
      // A server coming back to life takes the spelling it comes back under: one whose tools all left
      // ("GitHub", renamed "git-hub") must not lend its old spelling (and its name's terms) to the new.
      this.names[id] = server;
      this.liveVersion++;
    }
    this.next = ensureInt32(this.next, slot + 1);
    this.previous = ensureInt32(this.previous, slot + 1);
    const last = this.tail[id]!;
    this.previous[slot] = last;
    this.next[slot] = -1;
    if (last >= 0) this.next[last] = slot;
    else this.head[id] = slot;
    this.tail[id] = slot;
    this.counts[id]!++;
    return id;
  }

  /** Removes the tool in `slot`, which must be a member of server `id`. */
  removeMember(id: number, slot: number): void {
    const before = this.previous[slot]!;
    const after = this.next[slot]!;
    if (before >= 0) this.next[before] = after;
    else this.head[id] = after;
    if (after >= 0) this.previous[after] = before;
    else this.tail[id] = before;
    this.next[slot] = -1;
    this.previous[slot] = -1;
    if (--this.counts[id]! === 0) this.liveVersion++;
  }

  private register(server: string): number {
    const known = this.idByName.get(server);
    if (known !== undefined) return known;
    const key = squash(server);
    let id = this.idByKey.get(key);
    if (id === undefined) {
      id = this.names.length;
      this.idByKey.set(key, id);
      let hash = KEY_HASH_SEED;
      for (let i = 0; i < key.length; i++) setBit(this.filterBits, (hash = keyHash(hash, key.charCodeAt(i))), PREFIX_BIT);
      this.keyHashes.add(hash);
      setBit(this.filterBits, hash, KEY_BIT);
      this.keysVersion++;
      this.names.push(server);
      this.counts = ensureInt32(this.counts, id + 1);
      this.head = growFilled(this.head, id + 1);
      this.tail = growFilled(this.tail, id + 1);
    }
    this.idByName.set(server, id);
    return id;
  }
}

/** ensureInt32 whose new entries are -1 (no slot). */
function growFilled(array: Int32Array<ArrayBuffer>, minLength: number): Int32Array<ArrayBuffer> {
  if (array.length >= minLength) return array;
  const grown = ensureInt32(array, minLength);
  grown.fill(-1, array.length);
  return grown;
}
