/**
 * Servers and groups as units in ToolSearch's answers: a group's tools past a full selection, a
 * server's tools already loaded. The engine is read through the lookups an answer makes for its
 * notes (ToolSearchEngine.peek: not a search, finds nothing).
 */
import type { GroupSelection, QueryOptions, QueryResult } from "../search/types.ts";
import { MAX_GROUP_REST } from "../search/unit-selection.ts";
import type { Tool } from "../tool/tool.ts";

/** Tools per page of a server listing (`mcp__server`, `mcp__server page:2`). */
export const LISTING_PAGE_SIZE = 100;

/** The engine as the notes read it. */
export interface NoteEngine {
  query(text: string, options?: QueryOptions): QueryResult;
}

/**
 * A group's tools a full selection left out, in pool order, at most `max`: as the engine read them
 * from the group's member list while selecting it (GroupSelection.rest). The listing does not say
 * which tools are in which group, so "select the rest by name" alone left a model no way to find them.
 */
export function groupRest(deferredTool: (name: string) => Tool | undefined, selection: GroupSelection, chosen: ReadonlySet<string>, max = MAX_GROUP_REST): string[] {
  const rest: string[] = [];
  for (const name of selection.rest ?? []) {
    if (rest.length >= max) break;
    if (!chosen.has(name) && deferredTool(name) !== undefined) rest.push(name);
  }
  return rest;
}

/** Loaded tools a note names at most. */
export const MAX_LOADED_NAMED = 20;

/**
 * A server's tools the session has in full already (core: not deferred), pool order, the first
 * MAX_LOADED_NAMED, and how many there are: a listing or a selection of the server names them, where
 * "no deferred tools" and "its 0 tool(s)" once stood for a server whose every tool was loaded.
 */
export function loadedMembers(engine: NoteEngine, loadedTool: (name: string) => boolean, server: string): { names: string[]; total: number } {
  const listed = engine.query(`mcp__${server}`, { maxResults: MAX_LOADED_NAMED, filter: loadedTool });
  return listed.listed === true ? { names: listed.matches.map((match) => match.name), total: listed.listedTotal ?? 0 } : { names: [], total: 0 };
}

/**
 * A keyword query that is a group's spelling alone (`mcp__forge/issues`, as listings write it) and
 * matched nothing: its `select:` form, when that selects something — said as a near miss, where the
 * answer was only "no deferred tools matched".
 */
export function groupSpelling(engine: NoteEngine, query: string, result: Pick<QueryResult, "kind" | "matches">, filter: (name: string) => boolean): string[] {
  if (result.kind !== "keyword" || result.matches.length > 0 || !/^mcp__[^\s/]+\/[^\s/]+$/i.test(query)) return [];
  const selected = engine.query(`select:${query}`, { filter });
  return (selected.groups ?? []).some((group) => group.total > 0) ? [`select:${query}`] : [];
}
