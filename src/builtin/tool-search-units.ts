/**
 * Servers and groups as units in ToolSearch's answers: which servers a listing spans, a group's
 * tools past a full selection, a server's tools already loaded. Each reads the engine through the
 * lookups an answer makes for its notes (ToolSearchEngine.peek: not a search, finds nothing).
 */
import { parseQueryWords } from "../search/query-parser.ts";
import type { GroupSelection, QueryOptions, QueryResult } from "../search/types.ts";
import type { Tool } from "../tool/tool.ts";

/** Tools per page of a server listing (`mcp__server`, `mcp__server page:2`). */
export const LISTING_PAGE_SIZE = 100;

/** The engine as the notes read it. */
export interface NoteEngine {
  query(text: string, options?: QueryOptions): QueryResult;
}

/** Servers a listing query names (`mcp__a mcp__b`) that have deferred tools, as the listing spans them; at most 20 looked up. */
export function listedServers(engine: NoteEngine, query: string, deferredTool: (name: string) => Tool | undefined): string[] {
  const { parsed } = parseQueryWords(query);
  const named = parsed.kind === "select" ? [] : [...new Set(parsed.servers.map((name) => name.toLowerCase()))].slice(0, 20);
  if (named.length < 2) return [];
  return named.flatMap((name) => {
    const listed = engine.query(`mcp__${name}`, { maxResults: 1, filter: (each) => deferredTool(each) !== undefined });
    return listed.listed === true && (listed.listedTotal ?? 0) > 0 && listed.server !== undefined ? [listed.server] : [];
  });
}

/** Listing pages one group's note reads for its members. */
const MAX_REST_PAGES = 20;

/** Tools the group notes of one answer name past full selections: three more selections' worth. */
export const MAX_REST_NAMED = 300;

/**
 * A group's tools a full selection left out, in pool order, at most `max`: the server's
 * listing pages read for its members. The listing does not say which tools are in which group, so
 * "select the rest by name" alone left a model no way to find them.
 */
export function groupRest(engine: NoteEngine, deferredTool: (name: string) => Tool | undefined, selection: GroupSelection, chosen: ReadonlySet<string>, max = MAX_REST_NAMED): string[] {
  const rest: string[] = [];
  const group = selection.group.toLowerCase();
  // Each page is a walk of the server's tools: at most MAX_REST_PAGES of them (a group of every 97th
  // of 10,000 tools took 316 ms of the thread over 100 pages); members past them are counted, not named.
  for (let page = 1; rest.length < max && page <= MAX_REST_PAGES; page++) {
    const listed = engine.query(`mcp__${selection.server} page:${page}`, { maxResults: LISTING_PAGE_SIZE, filter: (name) => deferredTool(name) !== undefined });
    if (listed.listed !== true || listed.matches.length === 0) break;
    for (const match of listed.matches) {
      if (chosen.has(match.name) || rest.length >= max) continue;
      if (deferredTool(match.name)?.mcpInfo?.groups?.some((name) => name.toLowerCase() === group) === true) rest.push(match.name);
    }
    if (page * LISTING_PAGE_SIZE >= (listed.listedTotal ?? 0)) break;
  }
  return rest;
}

/** Loaded tools a note names at most. */
const MAX_LOADED_NAMED = 20;

/**
 * A server's tools the session has in full already (core: not deferred), pool order, the first
 * MAX_LOADED_NAMED, and how many there are: a listing or a selection of the server names them, where
 * "no deferred tools" and "its 0 tool(s)" once stood for a server whose every tool was loaded.
 */
export function loadedMembers(engine: NoteEngine, loadedTool: (name: string) => boolean, server: string): { names: string[]; total: number } {
  const listed = engine.query(`mcp__${server}`, { maxResults: MAX_LOADED_NAMED, filter: loadedTool });
  return listed.listed === true ? { names: listed.matches.map((match) => match.name), total: listed.listedTotal ?? 0 } : { names: [], total: 0 };
}
