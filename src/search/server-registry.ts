import { squash } from "./document-fields.ts";

/** FNV-1a over UTF-16 code units: start from KEY_HASH_SEED, fold in one code unit at a time. */
export const KEY_HASH_SEED = 0x811c9dc5 | 0;
export function keyHash(hash: number, code: number): number {
  return Math.imul(hash ^ code, 0x01000193);
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
    return this.prefixHashes.has(hash);
  }

  /** Whether some known key may be the text hashed to `hash` (false: certainly none). */
  mayBeKey(hash: number): boolean {
    return this.keyHashes.has(hash);
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
      for (let i = 0; i < key.length; i++) this.prefixHashes.add((hash = keyHash(hash, key.charCodeAt(i))));
      this.keyHashes.add(hash);
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
