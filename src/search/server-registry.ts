import { squash } from "./document-fields.ts";

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
  /** Every prefix of every key (keys are never dropped, ids never reused): bounded by the keys' length. */
  private readonly keyPrefixes = new Set<string>();
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

  isKeyPrefix(prefix: string): boolean {
    return this.keyPrefixes.has(prefix);
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
      for (let end = 1; end <= key.length; end++) this.keyPrefixes.add(key.slice(0, end));
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
