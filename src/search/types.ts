/** What the search index knows about one tool. Everything here is indexed; nothing is shown. */
export interface SearchDocument {
  /** The pool name, e.g. "Read" or "mcp__github__create_issue". Unique in an index. */
  name: string;
  aliases?: readonly string[];
  /** 3–10 words of capability not already in the name; indexed, never shown. */
  searchHint?: string;
  description: string;
  parameters?: readonly SearchParameter[];
  /** MCP server name (raw), absent for built-ins. */
  server?: string;
  /** The MCP server's own tool name, absent for built-ins. */
  rawToolName?: string;
  /** The server's self-description (MCP `instructions` or catalog text); low-weight evidence. */
  serverDescription?: string;
  /** The server's groups this tool is in (MCP grouping extension); for `select:` of a group, not ranked. */
  groups?: readonly string[];
}

export interface SearchParameter {
  name: string;
  description?: string;
  /** Allowed values (a JSON Schema `enum` of strings), indexed with the description. */
  values?: readonly string[];
  required?: boolean;
}

export type QueryKind = "select" | "discover" | "keyword";

export interface QueryOptions {
  /** How many matches to return; default 5, clamped to 1..100. */
  maxResults?: number;
  /** Restricts which documents keyword and discover searches may return (e.g. only deferred tools). */
  filter?: (name: string) => boolean;
  /**
   * The tools that exist for the asker at all (a session's profile and project), wider than
   * `filter` (which may also drop loaded tools). A server or group with no tool in scope is
   * unknown to a `select:`: it is neither named nor counted, nor makes a group name ambiguous.
   */
  scope?: (name: string) => boolean;
  /** MCP servers still connecting; echoed back when the result is empty. */
  pendingServers?: readonly string[];
  /**
   * For an answer that shows a listing: its page of `pageSize` (whatever `maxResults` says) and the
   * listed server's tools `loaded` accepts of those `filter` drops (the first `maxLoaded`), read in
   * the same walk as the listing (QueryResult.listedPage, listedLoaded).
   */
  listing?: { pageSize: number; loaded?: (name: string) => boolean; maxLoaded?: number };
}

export interface SearchMatch {
  name: string;
  score: number;
}

export interface QueryResult {
  kind: QueryKind;
  /** Ranked matches, best first. For `select:` the resolved tools in request order (score 1). */
  matches: SearchMatch[];
  /** For `select:`: pool names found (de-duplicated) and requested names that resolved to nothing. */
  found?: string[];
  missing?: string[];
  /** Set when the whole query was a tool name, alias or raw MCP name (even one the filter excludes). */
  exactName?: string;
  /** Set when the query narrowed the search to one MCP server. */
  server?: string;
  /** The matches are that server's tools in pool order (the query named only the server, or nothing else matched). */
  listed?: boolean;
  /** With `listed`: how many of the server's tools pass the filter in all, and which page (of `maxResults` each) this is. */
  listedTotal?: number;
  page?: number;
  /** With `listed`, of a query naming several servers: those with a tool that passes the filter, in the query's order. */
  listedServers?: string[];
  /** With `listed` and QueryOptions.listing: the names on page `page` of `listing.pageSize`. */
  listedPage?: string[];
  /** With `listed` and `listing.loaded`: the listed (first) server's tools it accepts, the first `maxLoaded`, and how many. */
  listedLoaded?: { names: string[]; total: number };
  /** Pool names close to a name-like query (or to a missing `select:` name) that matched nothing exactly. */
  didYouMean?: string[];
  /** For `select:`: servers selected as units (`select:mcp__gitlab`), with how many of their tools were selected. */
  servers?: ServerSelection[];
  /** For `select:`: server groups selected as units (`select:mcp__github/issues`). */
  groups?: GroupSelection[];
  /** With `listed`: the listed server's groups (name and size), when it has any. */
  serverGroups?: { name: string; size: number }[];
  /** Echo of `QueryOptions.pendingServers` when nothing matched and some servers are still connecting. */
  pendingServers?: string[];
}

/** A server selected as a unit: `total` tools, the first `selected` of them (a selection holds at most 100). */
export interface ServerSelection {
  server: string;
  total: number;
  selected: number;
}

/** A server's group selected as a unit: `total` tools, the first `selected` of them. */
export interface GroupSelection {
  server: string;
  group: string;
  total: number;
  selected: number;
  /** The members the selection left out, pool order, at most MAX_GROUP_REST (unit-selection.ts): for the answer's note. */
  rest?: string[];
}
