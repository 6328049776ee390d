/**
 * A listing of servers' tools (`mcp__<server>`, `mcp__<server> page:N`) as the index reads it: one
 * walk of their tools in pool order gives the page, how many pass in all, which servers have any,
 * and — for an answer that shows a page of its own size and the server's loaded tools
 * (QueryOptions.listing) — those too. An answer once walked a 5,000-tool server six times for them.
 */
import type { QueryOptions, SearchMatch } from "./types.ts";

export interface ServerListing {
  /** Page `page` of `maxResults`. */
  matches: SearchMatch[];
  /** How many of the servers' tools pass the filter. */
  total: number;
  /** Of several servers, those with a tool that passes (the answer names them as its listing's query). */
  servers: number[];
  /** With QueryOptions.listing: page `page` of `listing.pageSize`. */
  page?: string[];
  /** With `listing.loaded`: the first server's tools it accepts of those the filter drops, the first `maxLoaded`, and how many. */
  loaded?: { names: string[]; total: number };
  /** The first server's tools that pass, when one server is listed: its groups' sizes count them without asking the filter again. */
  passed?: ReadonlySet<string>;
}

export function listServers(
  serverIds: readonly number[],
  membersOf: (id: number) => readonly string[],
  maxResults: number,
  passes: (name: string) => boolean,
  page: number,
  listing: QueryOptions["listing"],
): ServerListing {
  const matches: SearchMatch[] = [];
  const servers: number[] = [];
  const skip = (page - 1) * maxResults;
  const pageSize = listing?.pageSize ?? maxResults;
  const shown: string[] = [];
  const loaded = listing?.loaded === undefined ? undefined : { names: [] as string[], total: 0 };
  const passed = serverIds.length === 1 ? new Set<string>() : undefined;
  let total = 0;
  for (const id of serverIds) {
    const before = total;
    const first = id === serverIds[0];
    for (const name of membersOf(id)) {
      if (!passes(name)) {
        if (first && loaded !== undefined && listing!.loaded!(name)) {
          if (loaded.names.length < (listing!.maxLoaded ?? Infinity)) loaded.names.push(name);
          loaded.total++;
        }
        continue;
      }
      passed?.add(name);
      if (total >= skip && matches.length < maxResults) matches.push({ name, score: 0 });
      if (total >= (page - 1) * pageSize && shown.length < pageSize) shown.push(name);
      total++;
    }
    if (serverIds.length > 1 && total > before) servers.push(id);
  }
  return { matches, total, servers, ...(listing && { page: shown }), ...(loaded && { loaded }), ...(passed && { passed }) };
}
