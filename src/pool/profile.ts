/**
 * Tool groups and profiles: which of the pool's tools one session has at all. A profile includes
 * entries (everything when it lists none) and then excludes entries; an entry is a group
 * (`group:fs`), an exact tool name, an MCP server (`mcp__github`: every tool of that server) or a
 * glob over tool names (`mcp__*__search*`). A tool outside the session's profile is not in its pool:
 * not in its tools array, not searchable, not callable. Filtering keeps the pool's order, so the
 * cache-stable array rules hold inside a profile. Pure: no I/O, state passed in.
 */
import type { Tool } from "../tool/tool.ts";
import type { Pool } from "./assemble.ts";

/** The built-in groups (names as OpenClaw's tool groups use them); a config group of the same name replaces one. */
export const BUILTIN_TOOL_GROUPS: Readonly<Record<string, readonly string[]>> = {
  "group:fs": ["Read", "Write", "Edit", "Glob", "Grep", "NotebookEdit"],
  "group:runtime": ["Bash", "Sleep"],
  "group:web": ["WebFetch"],
  "group:planning": ["TodoWrite"],
  "group:automation": ["CronCreate", "CronList", "CronDelete", "RemoteTrigger"],
  "group:builtin": ["group:fs", "group:runtime", "group:web", "group:planning", "group:automation"],
  "group:mcp": ["mcp__*"],
};

/** Group nesting deeper than this is a mistake (or a cycle), refused with the path named. */
const MAX_GROUP_DEPTH = 8;

export interface ProfileDefinition {
  include: readonly string[];
  exclude: readonly string[];
}

export interface ProfileConfig {
  toolGroups: Readonly<Record<string, readonly string[]>>;
  profiles: Readonly<Record<string, ProfileDefinition>>;
}

/** A profile with its groups expanded: what a session keeps for its whole life. */
export interface ResolvedProfile {
  name: string;
  include: string[];
  exclude: string[];
}

export class ProfileError extends Error {}

export function resolveProfile(name: string, config: ProfileConfig): ResolvedProfile {
  const definition = Object.hasOwn(config.profiles, name) ? config.profiles[name] : undefined;
  if (!definition) {
    const known = Object.keys(config.profiles).sort();
    throw new ProfileError(`unknown profile ${JSON.stringify(name)}; ${known.length ? `configured profiles: ${known.join(", ")}` : "the config defines no profiles"}`);
  }
  const groups = { ...BUILTIN_TOOL_GROUPS, ...config.toolGroups };
  return {
    name,
    include: expandEntries(definition.include, groups, `profiles.${name}.include`),
    exclude: expandEntries(definition.exclude, groups, `profiles.${name}.exclude`),
  };
}

/** Groups replaced by their members (recursively); throws for an unknown group or a cycle. */
export function expandEntries(entries: readonly string[], groups: Readonly<Record<string, readonly string[]>>, field: string, trail: readonly string[] = []): string[] {
  const out: string[] = [];
  for (const entry of entries) {
    if (!entry.startsWith("group:")) {
      out.push(entry);
      continue;
    }
    const members = Object.hasOwn(groups, entry) ? groups[entry] : undefined;
    if (!members) throw new ProfileError(`field "${field}": unknown tool group ${JSON.stringify(entry)} (known: ${Object.keys(groups).sort().join(", ")})`);
    if (trail.includes(entry) || trail.length >= MAX_GROUP_DEPTH) throw new ProfileError(`field "${field}": tool group ${entry} contains itself (${[...trail, entry].join(" → ")})`);
    out.push(...expandEntries(members, groups, field, [...trail, entry]));
  }
  return [...new Set(out)];
}

/** Whether one (expanded) entry names the tool. */
export function entryMatcher(entry: string): (tool: Tool) => boolean {
  return entriesMatcher([entry]);
}

/**
 * Whether any of the entries names the tool, compiled once: names and servers into sets, globs
 * into linear-time matchers (no regex backtracking) — a session filters its whole pool with it.
 */
export function entriesMatcher(entries: readonly string[]): (tool: Tool) => boolean {
  const names = new Set<string>();
  const servers = new Set<string>();
  const globs: ((name: string) => boolean)[] = [];
  for (const entry of entries) {
    if (entry.includes("*") || entry.includes("?")) {
      globs.push(globMatcher(entry));
      continue;
    }
    const server = /^mcp__((?:(?!__)[a-zA-Z0-9_-])+)$/.exec(entry)?.[1];
    if (server !== undefined) servers.add(server);
    else names.add(entry);
  }
  return (tool) => {
    if (names.has(tool.name)) return true;
    if (tool.mcpInfo !== undefined && servers.has(tool.mcpInfo.server)) return true;
    for (const glob of globs) if (glob(tool.name)) return true;
    for (const alias of tool.aliases) if (names.has(alias)) return true;
    return false;
  };
}

/**
 * A whole-name glob: `*` any run of characters, `?` one character. The pieces between stars are
 * matched leftmost in order (first piece at the start, last at the end), which is exact for globs
 * and linear in the name's length times the pattern's.
 */
export function globMatcher(pattern: string): (name: string) => boolean {
  const pieces = pattern.split("*");
  const first = pieces[0]!;
  const last = pieces.length > 1 ? pieces[pieces.length - 1]! : undefined;
  const middle = pieces.slice(1, -1).filter((piece) => piece.length > 0);
  const matchesAt = (name: string, piece: string, at: number) => {
    if (at + piece.length > name.length) return false;
    for (let index = 0; index < piece.length; index++) {
      if (piece[index] !== "?" && piece[index] !== name[at + index]) return false;
    }
    return true;
  };
  return (name) => {
    if (last === undefined) return name.length === first.length && matchesAt(name, first, 0);
    if (name.length < first.length + last.length || !matchesAt(name, first, 0) || !matchesAt(name, last, name.length - last.length)) return false;
    let at = first.length;
    const end = name.length - last.length;
    for (const piece of middle) {
      let found = -1;
      for (let start = at; start + piece.length <= end; start++) {
        if (matchesAt(name, piece, start)) {
          found = start;
          break;
        }
      }
      if (found === -1) return false;
      at = found + piece.length;
    }
    return true;
  };
}

export function profileMatcher(profile: ResolvedProfile): (tool: Tool) => boolean {
  const include = profile.include.length === 0 ? () => true : entriesMatcher(profile.include);
  const exclude = entriesMatcher(profile.exclude);
  return (tool) => include(tool) && !exclude(tool);
}

/**
 * A matcher that follows the session's current profile, compiled again only when it changes
 * (a session re-opened with another profile): search filters call it once per candidate.
 */
export function followProfile(current: () => ResolvedProfile | null): (tool: Tool) => boolean {
  let compiledFor: ResolvedProfile | null | undefined;
  let matcher: (tool: Tool) => boolean = () => true;
  return (tool) => {
    const profile = current();
    if (profile !== compiledFor) {
      compiledFor = profile;
      matcher = profile ? profileMatcher(profile) : () => true;
    }
    return matcher(tool);
  };
}

/** The session's view of the pool: the same order, only the profile's tools; no profile, the pool itself. */
export function applyProfile(pool: Pool, profile: ResolvedProfile | null): Pool {
  return profile ? filterPool(pool, profileMatcher(profile)) : pool;
}

export function filterPool(pool: Pool, admits: (tool: Tool) => boolean): Pool {
  let tools: readonly Tool[] | undefined;
  return {
    get tools() {
      tools ??= pool.tools.filter(admits);
      return tools;
    },
    collisions: pool.collisions,
    get: (name) => {
      const tool = pool.get(name);
      return tool && admits(tool) ? tool : undefined;
    },
  };
}

/** Why a call to `name` is refused for this profile; undefined when the profile is not the reason. */
export function outsideProfile(pool: Pool, profile: ResolvedProfile | null, name: string): string | undefined {
  if (!profile) return undefined;
  const tool = pool.get(name);
  if (!tool || profileMatcher(profile)(tool)) return undefined;
  return `${tool.name} is not available in this session: it is outside the session's tool profile "${profile.name}".`;
}
