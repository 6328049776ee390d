import type { GroupRegistry } from "./group-registry.ts";
import type { NameLookup } from "./name-lookup.ts";
import type { ServerRegistry } from "./server-registry.ts";
import type { GroupSelection, QueryResult, ServerSelection } from "./types.ts";
import { MAX_RESULTS_LIMIT } from "./result-limits.ts";
import { addUpTo, bareServerSpellings, restOf } from "./unit-selection.ts";

/** A query (or a `select:` name) longer than this is not compared with server names. */
export const MAX_SERVER_NAME_CHARS = 128;
/** Missing `select:` names that get did-you-mean suggestions; the rest are reported missing only. */
export const MAX_SUGGESTED_MISSES = 3;

/** What `select:` reads of the index: its names, servers and groups (ToolSearchIndex's own). */
export interface SelectionSource {
  lookup: NameLookup;
  servers: ServerRegistry;
  groups: GroupRegistry;
  /** Pool names of a server's tools, in the order they joined. */
  memberNames(server: number): string[];
}

/** The `select:` form of ToolSearch: tool names, and servers and groups selected as units. */
export class NameSelection {
  constructor(private readonly units: SelectionSource) {}

  /**
   * `select:` names. A server or group selected as a unit expands to its members that `filter`
   * admits (the session's pool): a tool outside it is neither named nor counted.
   */
  select(requested: readonly string[], filter?: (name: string) => boolean, scope?: (name: string) => boolean): QueryResult {
    const inScope = (members: Iterable<string>) => {
      if (scope === undefined) return true;
      for (const member of members) if (scope(member)) return true;
      return false;
    };
    const admitted = (members: Iterable<string>) => (filter === undefined ? [...members] : [...members].filter(filter));
    const found: string[] = [];
    const missing: string[] = [];
    const didYouMean = new Set<string>();
    const servers: ServerSelection[] = [];
    const groups: GroupSelection[] = [];
    for (const name of requested) {
      // A tool outside the asker's scope resolves as a name that does not exist (no existence leak).
      const resolved = scoped(this.units.lookup.resolve(name), scope);
      const serverId = resolved.length === 0 ? this.selectedServer(name) : undefined;
      // A server none of whose tools the asker has is unknown to it, like one never configured.
      const server = serverId !== undefined && inScope(this.units.memberNames(serverId)) ? serverId : undefined;
      const group = resolved.length === 0 && server === undefined ? this.units.groups.resolve(name, this.units.servers, inScope) : undefined;
      if (group !== undefined && "members" in group) {
        const serverName = this.units.servers.nameOf(group.server);
        // The same group asked twice ("issues, ISSUES") is one selection, noted once.
        if (groups.some((each) => each.server === serverName && each.group === group.name)) continue;
        // A group selected as a unit, like a server: its tools in pool order, as many as fit.
        const members = admitted(group.members);
        const selected = addUpTo(found, members, MAX_RESULTS_LIMIT);
        const rest = selected < members.length ? restOf(members, found) : [];
        groups.push({ server: serverName, group: group.name, total: members.length, selected, ...(rest.length > 0 && { rest }) });
        continue;
      }
      if (group !== undefined) {
        missing.push(name);
        for (const spelling of group.ambiguous) didYouMean.add(spelling);
        continue;
      }
      if (server !== undefined) {
        // The same server asked twice ("mcp__forge, MCP__FORGE") is one selection, noted once.
        if (servers.some((each) => each.server === this.units.servers.nameOf(server))) continue;
        // A server selected as a unit: its tools in pool order, as many as fit in one selection.
        const members = admitted(this.units.memberNames(server));
        const selected = addUpTo(found, members, MAX_RESULTS_LIMIT);
        servers.push({ server: this.units.servers.nameOf(server), total: members.length, selected });
        continue;
      }
      if (resolved.length === 0) {
        missing.push(name);
        // Like the suggestions below, for the first few misses only (each walks the server's groups).
        const bare = missing.length <= MAX_SUGGESTED_MISSES ? this.bareServer(name, scope) : undefined;
        if (bare !== undefined) for (const spelling of bareServerSpellings(this.units.servers.nameOf(bare), this.units.groups.groupsOf(bare, scope))) didYouMean.add(spelling);
        // Suggestions for the first few misses only: each is an edit-distance scan of the names of
        // similar length, and 100 misses took 0.5-1.5 s of the thread at 5,000 tools.
        if (missing.length <= MAX_SUGGESTED_MISSES) for (const suggestion of this.units.lookup.suggest(name, scope)) didYouMean.add(suggestion);
      }
      for (const poolName of resolved) if (!found.includes(poolName)) found.push(poolName);
    }
    const result: QueryResult = { kind: "select", matches: found.map((name) => ({ name, score: 1 })), found, missing };
    if (didYouMean.size > 0) result.didYouMean = [...didYouMean];
    if (servers.length > 0) result.servers = servers;
    if (groups.length > 0) result.groups = groups;
    return result;
  }

  /** A `select:` name that is a server's bare name (no `mcp__`), with a tool in scope. */
  private bareServer(name: string, scope?: (name: string) => boolean): number | undefined {
    if (name.length > MAX_SERVER_NAME_CHARS || name.includes("/") || name.slice(0, 5).toLowerCase() === "mcp__") return undefined;
    const id = this.units.servers.idOf(name);
    // A server named with `__` is not selectable as `mcp__<server>` (selectedServer): nothing to offer.
    if (id === undefined || this.units.servers.nameOf(id).includes("__")) return undefined;
    return scope === undefined || this.units.memberNames(id).some(scope) ? id : undefined;
  }

  /** `mcp__<server>` (or `mcp__<server>__`) naming a server with tools, in a `select:`. */
  private selectedServer(name: string): number | undefined {
    if (name.length <= 5 || name.slice(0, 5).toLowerCase() !== "mcp__") return undefined;
    const rest = name.slice(5).replace(/__$/, "");
    // Server names hold no "/" (config: [a-zA-Z0-9_-]): `mcp__github/` names an empty group, not the server.
    if (rest.length === 0 || rest.includes("__") || rest.includes("/")) return undefined;
    return this.units.servers.idOf(rest);
  }
}

/** Names `scope` admits (all of them without one): a name outside it is one that does not exist. */
export function scoped(names: string[], scope: ((name: string) => boolean) | undefined): string[] {
  return scope === undefined || names.length === 0 ? names : names.filter(scope);
}
