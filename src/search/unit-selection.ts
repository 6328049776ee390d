/**
 * A server or group selected as a unit (`select:mcp__<server>`, `select:mcp__<server>/<group>`):
 * its members added to a selection until it is full, and — for a group — the members it left out.
 */

/**
 * A group's members past a full selection that its answer may name (three more selections' worth);
 * also the most the group notes of one answer name in all (builtin/tool-search.ts).
 */
export const MAX_GROUP_REST = 300;

/** Adds members to `found` (pool order, no repeats) until it holds `limit`; how many of the members it holds. */
export function addUpTo(found: string[], members: Iterable<string>, limit: number): number {
  let selected = 0;
  for (const member of members) {
    if (found.length >= limit && !found.includes(member)) break;
    if (!found.includes(member)) found.push(member);
    selected++;
  }
  return selected;
}

/**
 * The members a full selection left out, pool order, at most MAX_GROUP_REST: read from the
 * group's own member list as it is selected (an answer once walked up to 20 listing pages of the
 * server per group for them — 60 walks of a 5,000-tool server, ~140-530 ms of the serving thread).
 */
export function restOf(members: readonly string[], found: readonly string[]): string[] {
  const chosen = new Set(found);
  const rest: string[] = [];
  for (let i = 0; i < members.length && rest.length < MAX_GROUP_REST; i++) if (!chosen.has(members[i]!)) rest.push(members[i]!);
  return rest;
}

/** Groups a bare server name's suggestions name at most (beside the server's own spelling). */
export const MAX_SUGGESTED_GROUPS = 5;

/**
 * A `select:` name that is a server's bare name (`github`, not `mcp__github`): it selects nothing —
 * a bare word loading a whole server by surprise would be a large, silent load — but the answer
 * offers the spellings that do, `mcp__<server>` and its groups' `mcp__<server>/<group>` (those with
 * a member `inScope` admits), so the next select: is one step away.
 */
export function bareServerSpellings(server: string, groups: readonly { name: string }[]): string[] {
  return [`mcp__${server}`, ...groups.slice(0, MAX_SUGGESTED_GROUPS).map((group) => `mcp__${server}/${group.name}`)];
}
