/**
 * MCP servers' groups (the grouping extension, src/mcp/server-groups.ts) as the search index knows
 * them: which tools are in each group of each server, for `select:mcp__<server>/<group>` (or a bare
 * `select:<group>` that only one server has) and for a server listing that names its groups. Group
 * names match without regard to case; each server's groups are its own (two servers may both have
 * an `issues` group). Bounded by the documents: an entry lives as long as one of its tools does.
 */
import type { ServerRegistry } from "./server-registry.ts";

export interface GroupInfo {
  name: string;
  /** How many tools of the index are in it. */
  size: number;
}

export class GroupRegistry {
  /** server id → lowercased group name → { spelling, members }. */
  private readonly byServer = new Map<number, Map<string, { name: string; members: Set<string> }>>();

  add(server: number, groups: readonly string[], tool: string): void {
    let own = this.byServer.get(server);
    if (own === undefined) this.byServer.set(server, (own = new Map()));
    for (const group of groups) {
      const key = group.toLowerCase();
      let entry = own.get(key);
      if (entry === undefined) own.set(key, (entry = { name: group, members: new Set() }));
      entry.members.add(tool);
    }
  }

  remove(server: number, tool: string): void {
    const own = this.byServer.get(server);
    if (own === undefined) return;
    for (const [key, entry] of own) if (entry.members.delete(tool) && entry.members.size === 0) own.delete(key);
    if (own.size === 0) this.byServer.delete(server);
  }

  /** A server's groups, by name, sized by the members `passes` admits (a group with none is left out). */
  groupsOf(server: number, passes: (tool: string) => boolean = () => true): GroupInfo[] {
    const own = this.byServer.get(server);
    if (own === undefined) return [];
    const groups: GroupInfo[] = [];
    for (const entry of own.values()) {
      let size = 0;
      for (const member of entry.members) if (passes(member)) size++;
      if (size > 0) groups.push({ name: entry.name, size });
    }
    return groups.sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * The group a `select:` name means: `mcp__<server>/<group>`, or a bare group name that exactly one
   * server has. `ambiguous` lists the qualified spellings when several servers have it. A group
   * whose members `visible` rejects (outside the asker's profile) is not there: not resolved, not named.
   */
  resolve(spelling: string, servers: ServerRegistry, visible: (members: ReadonlySet<string>) => boolean = () => true): { server: number; name: string; members: ReadonlySet<string> } | { ambiguous: string[] } | undefined {
    const slash = spelling.indexOf("/");
    if (slash > 5 && spelling.slice(0, 5).toLowerCase() === "mcp__") {
      const server = servers.idOf(spelling.slice(5, slash));
      const entry = server === undefined ? undefined : this.byServer.get(server)?.get(spelling.slice(slash + 1).toLowerCase());
      return entry === undefined || !visible(entry.members) ? undefined : { server: server!, name: entry.name, members: entry.members };
    }
    if (slash >= 0) return undefined;
    const key = spelling.toLowerCase();
    const hits: { server: number; name: string; members: ReadonlySet<string> }[] = [];
    // A bare spelling that is a server's name means that server: another server's group of that name
    // is no answer to it (a server naming a group "github" loaded its own tools for select:github).
    const named = servers.idOf(spelling);
    for (const [server, own] of this.byServer) {
      const entry = own.get(key);
      if (entry !== undefined && visible(entry.members) && (named === undefined || named === server)) hits.push({ server, name: entry.name, members: entry.members });
    }
    if (hits.length === 1) return hits[0];
    if (hits.length === 0) return undefined;
    return { ambiguous: hits.map((hit) => `mcp__${servers.nameOf(hit.server)}/${hit.name}`).sort() };
  }
}
