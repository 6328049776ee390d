import { squash } from "./document-fields.ts";

/** FNV-1a over UTF-16 code units: start from KEY_HASH_SEED, fold in one code unit at a time. */
export const KEY_HASH_SEED = 0x811c9dc5 | 0;
export function keyHash(hash: number, code: number): number {
  return Math.imul(hash ^ code, 0x01000193);
}

/** Sizes of the hash filters (bits, powers of two): 32 KiB and 8 KiB. */
const PREFIX_FILTER_BITS = 1 << 18;
const KEY_FILTER_BITS = 1 << 16;

function hasBit(bits: Uint32Array, hash: number): boolean {
  const at = hash & ((bits.length << 5) - 1);
  return (bits[at >>> 5]! & (1 << (at & 31))) !== 0;
}

function setBit(bits: Uint32Array, hash: number): void {
  const at = hash & ((bits.length << 5) - 1);
  bits[at >>> 5]! |= 1 << (at & 31);
}

/**
 * MCP servers known to an index, matched loosely ("GitHub", "github", "git-hub" are one server),
 * each with the pool names of its tools. Server ids are never reused.
 */
export class ServerRegistry {
  private readonly idByKey = new Map<string, number>();
  /** Exact spelling → id, so adding a server's tools squashes its name once. */
  private readonly idByName = new Map<string, number>();
  private readonly names: string[] = [];
  private readonly members: Set<string>[] = [];
  /**
   * Hashes (keyHash) of every prefix of every key, and of every whole key: a query's word windows
   * are tested as numbers, no string built, and only a hash hit is checked exactly. Keys are never
   * dropped (ids are never reused), so both sets are bounded by the keys' total length.
   */
  private readonly prefixHashes = new Set<number>();
  private readonly keyHashes = new Set<number>();
  /**
   * One bit per hash (low bits) of the sets above, asked first: a query asks ~80 hashes, almost
   * all absent, and a bit in a few kilobytes answers that without a probe of a large Set.
   */
  private readonly prefixBits = new Uint32Array(PREFIX_FILTER_BITS >>> 5);
  private readonly keyBits = new Uint32Array(KEY_FILTER_BITS >>> 5);
  /** Bumped when a server gains its first tool or loses its last: which names are live changed. */
  liveVersion = 0;

  idOf(server: string): number | undefined {
    return this.idOfKey(squash(server));
  }

  /** Like idOf, for a name already squashed. */
  idOfKey(key: string): number | undefined {
    const id = this.idByKey.get(key);
    return id !== undefined && this.members[id]!.size > 0 ? id : undefined;
  }

  /** Whether some known key may start with the text hashed to `hash` (false: certainly none). */
  mayPrefixKey(hash: number): boolean {
    return hasBit(this.prefixBits, hash) && this.prefixHashes.has(hash);
  }

  /** Whether some known key may be the text hashed to `hash` (false: certainly none). */
  mayBeKey(hash: number): boolean {
    return hasBit(this.keyBits, hash) && this.keyHashes.has(hash);
  }

  /** Ids of servers that have tools now. */
  liveIds(): number[] {
    return this.names.map((_, id) => id).filter((id) => this.members[id]!.size > 0);
  }

  /** The server's name as first registered. */
  nameOf(id: number): string {
    return this.names[id]!;
  }

  membersOf(id: number): ReadonlySet<string> {
    return this.members[id]!;
  }

  addMember(server: string, name: string): number {
    const known = this.idByName.get(server);
    if (known !== undefined) {
      if (this.members[known]!.size === 0) this.liveVersion++;
      this.members[known]!.add(name);
      return known;
    }
    const key = squash(server);
    let id = this.idByKey.get(key);
    if (id === undefined) {
      id = this.names.length;
      this.idByKey.set(key, id);
      let hash = KEY_HASH_SEED;
      for (let i = 0; i < key.length; i++) {
        this.prefixHashes.add((hash = keyHash(hash, key.charCodeAt(i))));
        setBit(this.prefixBits, hash);
      }
      this.keyHashes.add(hash);
      setBit(this.keyBits, hash);
      this.names.push(server);
      this.members.push(new Set());
    }
    if (this.members[id]!.size === 0) this.liveVersion++;
    this.members[id]!.add(name);
    this.idByName.set(server, id);
    return id;
  }

  removeMember(id: number, name: string): void {
    const members = this.members[id];
    if (members?.delete(name) && members.size === 0) this.liveVersion++;
  }
}
