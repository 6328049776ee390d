/**
 * ToolSearch: the meta-tool in front of every deferred tool. Built per session by
 * `createToolSearchTool(deps)`, because what it answers depends on the session's delivery:
 *
 * - native: the tools found come back as `tool_reference` blocks (plus a short text); the API expands
 *   them, and the next request carries them with `defer_loading` (the transcript scan sees them).
 * - proxy: the tools found come back as text — name, description and input schema — ending with the
 *   discovered line, after which ExecuteExtraTool may run them.
 *
 * `select:` resolves names, aliases and raw MCP tool names; a core tool is reported as already
 * loaded (a designed no-op, not an error: models do this after compaction). `discover:` shows
 * schemas without loading anything. Read-only and safe to run concurrently.
 */
import { z } from "zod";
import { isDeferredTool } from "../deferral/is-deferred.ts";
import { EXECUTE_EXTRA_TOOL_NAME, isMetaToolName, TOOL_SEARCH_TOOL_NAME } from "../deferral/meta-tools.ts";
import { formatDiscoveredLine } from "../assembly/discovered-line.ts";
import { toolAsText } from "../assembly/tool-text.ts";
import { MAX_QUERY_CHARS } from "../search/query-parser.ts";
import { DEFAULT_MAX_RESULTS, MAX_RESULTS_LIMIT } from "../search/result-limits.ts";
import type { QueryOptions, QueryResult } from "../search/types.ts";
import { buildTool, NO_PATHS, DEFAULT_MAX_RESULT_SIZE_CHARS } from "../tool/build-tool.ts";
import { errorResult, type ContentBlock, type ToolResult } from "../tool/result.ts";
import type { GroupText, Tool } from "../tool/tool.ts";
import { clearlyFirst, compactAnswer } from "./tool-search-compact.ts";
import { pageWordProblem } from "./tool-search-page.ts";
import { MAX_GROUP_REST } from "../search/unit-selection.ts";
import { midConversationResult, withinRoom, type ArrayRoom } from "./tool-search-mid.ts";
import { groupRest, groupSpelling, LISTING_PAGE_SIZE, loadedMembers, MAX_LOADED_NAMED } from "./tool-search-units.ts";
import { groupSelectionNote, groupsLine, loginNote, oversizedSection, pendingNote, selectQueries, serverListing, serverSelectionNote, type ListedGroup } from "./tool-search-notes.ts";
import descriptionText from "./tool-search.txt" with { type: "text" };
import type { AnnouncementStyle } from "../assembly/announcements.ts";

/** mid-conversation answers like native in words, but loads through the daemon's tool_addition messages. */
export type ToolSearchDelivery = "native" | "proxy" | "mid-conversation";

/** What ToolSearch needs of a search engine; `ToolSearchIndex` (src/search) satisfies it. */
export interface ToolSearchEngine {
  query(text: string, options?: QueryOptions): QueryResult;
  /**
   * Settles once `query` can answer without catching up on the thread (core/search-sync.ts), when
   * the engine catches up in the background. Awaited inside the call, right before the query: a
   * wait before the pipeline leaves the call order's wait (another call of the session) between.
   */
  ready?(): Promise<void>;
  /**
   * A query an answer makes for its own notes (a listing's page, a group's other members, which
   * servers a listing spans): filtered like `query`, but not the model's search — not counted, and
   * nothing it returns is found. Absent, `query` serves.
   */
  peek?(text: string, options?: QueryOptions): QueryResult;
}

export interface ToolSearchDeps {
  engine: ToolSearchEngine;
  /** The pool's lookup, by name or alias. */
  lookup: (name: string) => Tool | undefined;
  delivery: ToolSearchDelivery;
  /** Default `isDeferredTool`. */
  isDeferred?: (tool: Tool) => boolean;
  /** MCP servers still connecting, read at call time. */
  pendingServers?: () => readonly string[];
  /** Of those, the ones whose tools are in the pool from a catalog cache (searchable, maybe stale). */
  cachedServers?: () => readonly string[];
  /** A server's groups' titles and descriptions (the grouping extension), read when a listing names its groups. */
  groupInfo?: (server: string) => ReadonlyMap<string, GroupText>;
  /** MCP servers waiting for an OAuth login, read at call time: their matches are marked. */
  loginServers?: () => readonly string[];
  /** `max_results` when the model gives none (a runtime flag); default 5. */
  defaultMaxResults?: number;
  /** The session's announcement style; `servers` changes how the description says tools are announced. */
  announcements?: AnnouncementStyle;
  /** Compact answers (the `search_compact_answers` flag): keyword matches as one-line signatures (tool-search-compact.ts). */
  compact?: boolean;
  /**
   * Told which tools an answer delivered in full (schemas shown or references sent), after every
   * select: and keyword answer — not the tools named only on a compact line, nor a listing's.
   */
  onDelivered?: (names: readonly string[], query: string) => void;
  /**
   * native and mid-conversation: which of an answer's tools the request's tools array can still take
   * (core/array-room.ts: the provider's tool-count limit less what it holds; mid-conversation's
   * pinned array). The others are named as such: not loaded, not found. Absent, all can.
   */
  addable?: (names: readonly string[]) => ArrayRoom;
}

export function createToolSearchTool(deps: ToolSearchDeps): Tool {
  const defaultMax = deps.defaultMaxResults ?? DEFAULT_MAX_RESULTS;
  const inputSchema = z.strictObject({
    query: z.string().min(1).describe('A "select:Name1,Name2" selection, keywords, or "discover:keywords".'),
    max_results: z
      .number()
      .int()
      .min(1)
      .max(MAX_RESULTS_LIMIT)
      .optional()
      .describe(`How many tools a keyword search returns at most (default ${defaultMax}).`),
  });
  return buildTool({
    name: TOOL_SEARCH_TOOL_NAME,
    description: descriptionFor(deps.delivery, descriptionText, deps.announcements, deps.compact === true),
    searchHint: "find load deferred tools by name or keywords",
    inputSchema,
    access: () => NO_PATHS,
    isConcurrencySafe: () => true,
    isReadOnly: true,
    openWorld: false,
    async call({ query, max_results }) {
      await deps.engine.ready?.();
      return runToolSearch(deps, query, max_results ?? defaultMax);
    },
  });
}

/**
 * The description for a delivery and announcement style: shared lines, plus the lines marked
 * `native|` or `proxy|`, and `names|` (list, delta) or `servers|`, and `compact|` with compact answers.
 */
export function descriptionFor(delivery: ToolSearchDelivery, text: string = descriptionText, announcements: AnnouncementStyle = "list", compact = false): string {
  const style = announcements === "servers" ? "servers" : "names";
  return text
    .trim()
    .split("\n")
    .flatMap((line) => {
      const marked = /^(native|proxy|midconv|names|servers|compact)\| (.*)$/.exec(line);
      if (!marked) return [line];
      const mark = delivery === "mid-conversation" ? "midconv" : delivery;
      // mid-conversation never answers compactly (runToolSearch): its description must not say it does.
      const compactLine = compact && delivery !== "mid-conversation" && marked[1] === "compact";
      return marked[1] === mark || marked[1] === style || compactLine ? [marked[2]!] : [];
    })
    .join("\n");
}

/** Servers of one select: whose groups are named when the selection could not hold them whole. */
const MAX_GROUP_NOTES = 3;

/** The index's groups of a server with the server's own words for each (a title, a description). */
function described(deps: ToolSearchDeps, server: string, groups: readonly { name: string; size: number }[] | undefined): ListedGroup[] {
  if (groups === undefined || groups.length === 0) return [];
  const info = deps.groupInfo?.(server);
  return groups.map((group) => ({ ...group, ...info?.get(group.name) }));
}

interface Outcome {
  loaded: Tool[];
  alreadyLoaded: string[];
  missing: string[];
}

export function runToolSearch(deps: ToolSearchDeps, rawQuery: string, maxResults: number): ToolResult {
  const trimmed = rawQuery.trim();
  // The engine reads MAX_QUERY_CHARS; the answer echoes no more (a 1.2 MB query was echoed whole, twice).
  const query = trimmed.length > MAX_QUERY_CHARS ? trimmed.slice(0, MAX_QUERY_CHARS) : trimmed;
  const pageProblem = pageWordProblem(query);
  if (pageProblem !== undefined) return errorResult(pageProblem);
  const isDeferred = deps.isDeferred ?? isDeferredTool;
  const deferredTool = (name: string): Tool | undefined => {
    const tool = deps.lookup(name);
    return tool !== undefined && tool.isEnabled() && !isMetaToolName(tool.name) && isDeferred(tool) ? tool : undefined;
  };
  const loadedTool = (name: string): boolean => {
    const tool = deps.lookup(name);
    return tool !== undefined && tool.isEnabled() && !isMetaToolName(tool.name) && !isDeferred(tool);
  };
  const pending = deps.pendingServers?.() ?? [];
  // A listing is a page of LISTING_PAGE_SIZE whatever max_results says, read with the server's
  // loaded tools in the same walk of its tools as the model's query (QueryOptions.listing).
  const result = deps.engine.query(query, {
    maxResults,
    filter: (name) => deferredTool(name) !== undefined,
    pendingServers: pending,
    listing: { pageSize: LISTING_PAGE_SIZE, loaded: loadedTool, maxLoaded: MAX_LOADED_NAMED },
  });
  const cached = new Set(deps.cachedServers?.() ?? []);
  const lookups: ToolSearchEngine = { query: (text, options) => (deps.engine.peek ? deps.engine.peek(text, options) : deps.engine.query(text, options)) };
  if (result.listed === true && result.server !== undefined) {
    // An engine that does not read `listing` is asked for the page and the loaded tools apart.
    const page = result.listedPage !== undefined ? result : lookups.query(query, { maxResults: LISTING_PAGE_SIZE, filter: (name) => deferredTool(name) !== undefined });
    const names = page.listedPage ?? page.matches.map((match) => match.name);
    const tools = names.map((name) => deferredTool(name)).filter((tool) => tool !== undefined);
    const servers = page.listedServers ?? [];
    const loaded = servers.length > 1 ? undefined : (result.listedLoaded ?? loadedMembers(lookups, loadedTool, result.server));
    const where = { total: page.listedTotal ?? tools.length, page: page.page ?? 1, pageSize: LISTING_PAGE_SIZE, ...(servers.length > 1 && { servers }), ...(loaded && loaded.total > 0 && { loaded }) };
    return serverListing(result.server, tools, where, pending, cached, servers.length > 1 ? [] : described(deps, result.server, result.serverGroups));
  }
  const outcome = classify(result, deps.lookup, deferredTool);
  // A server selected whole: its tools already in full are named as loaded, like a core tool selected by name.
  for (const selection of result.servers ?? []) {
    for (const name of loadedMembers(lookups, loadedTool, selection.server).names) if (!outcome.alreadyLoaded.includes(name)) outcome.alreadyLoaded.push(name);
  }
  const structured: Record<string, unknown> = {
    query,
    kind: result.kind,
    matches: outcome.loaded.map((tool) => tool.name),
  };
  if (outcome.alreadyLoaded.length > 0) structured.already_loaded = outcome.alreadyLoaded;
  if (outcome.missing.length > 0) structured.missing = outcome.missing;
  if (result.didYouMean && result.didYouMean.length > 0) structured.did_you_mean = result.didYouMean;
  // Every result says which servers are still connecting, found something or not: a match from
  // the servers that are up is no proof that a connecting one has no better tool.
  const absent = pending.filter((server) => !cached.has(server));
  const stale = pending.filter((server) => cached.has(server));
  if (absent.length > 0) structured.pending_mcp_servers = absent;
  if (stale.length > 0) {
    structured.stale_mcp_servers = stale;
    const staleMatches = outcome.loaded.filter((tool) => tool.mcpInfo !== undefined && cached.has(tool.mcpInfo.server)).map((tool) => tool.name);
    if (staleMatches.length > 0) structured.stale_matches = staleMatches;
  }

  const login = new Set(deps.loginServers?.() ?? []);
  const loginMatches = outcome.loaded.filter((tool) => tool.mcpInfo !== undefined && login.has(tool.mcpInfo.server));
  const loginFound = [...new Set(loginMatches.map((tool) => tool.mcpInfo!.server))].sort();
  if (loginFound.length > 0) {
    structured.needs_login_mcp_servers = loginFound;
    structured.needs_login_matches = loginMatches.map((tool) => tool.name);
  }

  const notes = noteLines(query, outcome, result.didYouMean?.length ? result.didYouMean : groupSpelling(lookups, query, result, (name) => deferredTool(name) !== undefined), pending, cached);
  if (query.length < trimmed.length) notes.push(`The query was ${trimmed.length} characters long; only its first ${MAX_QUERY_CHARS} were searched.`);
  if (result.servers !== undefined && result.servers.length > 0) {
    structured.selected_servers = result.servers;
    notes.push(...result.servers.map(serverSelectionNote));
    // A server too large for one selection: its groups are the other way to load the rest as units.
    for (const selection of result.servers.filter((each) => each.selected < each.total).slice(0, MAX_GROUP_NOTES)) {
      const listed = lookups.query(`mcp__${selection.server}`, { maxResults: 1, filter: (name) => deferredTool(name) !== undefined });
      const groups = described(deps, selection.server, listed.serverGroups);
      if (groups.length > 0) notes.push(groupsLine(selection.server, groups));
    }
  }
  if (result.groups !== undefined && result.groups.length > 0) {
    structured.selected_groups = result.groups.map(({ rest: _rest, ...selection }) => selection);
    const chosen = new Set(result.found ?? []);
    // The rest is named for the first few groups cut short, within one budget of names (a select:
    // of 100 large groups would otherwise write 30,000 names past the answer's cap).
    const named = { budget: MAX_GROUP_REST, groups: 0 };
    notes.push(
      ...result.groups.map((selection) => {
        if (selection.selected === selection.total) return groupSelectionNote(selection);
        if (named.budget <= 0 || named.groups >= MAX_GROUP_NOTES) return groupSelectionNote(selection, [], true);
        named.groups++;
        const rest = groupRest(deferredTool, selection, chosen, named.budget);
        named.budget -= rest.length;
        return groupSelectionNote(selection, rest);
      }),
    );
  }
  if (loginFound.length > 0) notes.push(loginNote(loginFound));
  if (result.kind === "discover") return render(outcome.loaded, notes, structured, { schema: true, discovered: false });
  // Compact answers are for native and proxy; mid-conversation names what it loads in one line anyway.
  if (deps.compact === true && deps.delivery !== "mid-conversation" && result.kind === "keyword" && outcome.loaded.length > 0) {
    const first = clearlyFirst(result, { query, ownName: (name) => deps.lookup(name)?.mcpInfo?.tool ?? name });
    const shown = outcome.loaded[0]?.name === first && (deps.delivery !== "proxy" || fitsAnAnswer(toolAsText(outcome.loaded[0]!, { schema: true }))) ? outcome.loaded[0] : undefined;
    // Native loads the one in full (a tool_reference): only when the tools array has room for it.
    const room = deps.delivery === "native" && shown !== undefined ? withinRoom([shown], structured, deps.addable, false) : { loaded: shown === undefined ? [] : [shown], notes: [] };
    const full = room.loaded[0];
    deps.onDelivered?.(full === undefined ? [] : [full.name], query);
    return compactAnswer({ found: outcome.loaded, full, notes: [...room.notes, ...notes], structured, delivery: deps.delivery });
  }
  if (deps.delivery === "mid-conversation") {
    const answer = midConversationResult(outcome.loaded, notes, structured, deps.addable);
    deps.onDelivered?.(answer.delivered, query);
    return answer.result;
  }
  if (deps.delivery === "native") {
    const room = withinRoom(outcome.loaded, structured, deps.addable);
    deps.onDelivered?.(room.loaded.map((tool) => tool.name), query);
    return nativeResult(room.loaded, [...room.notes, ...notes], structured);
  }
  const answer = render(outcome.loaded, notes, structured, { schema: true, discovered: true });
  deps.onDelivered?.(structured.matches as string[], query);
  return answer;
}

function classify(result: QueryResult, lookup: ToolSearchDeps["lookup"], deferredTool: (name: string) => Tool | undefined): Outcome {
  const outcome: Outcome = { loaded: [], alreadyLoaded: [], missing: [...(result.missing ?? [])] };
  const names = result.kind === "select" ? (result.found ?? result.matches.map((match) => match.name)) : result.matches.map((match) => match.name);
  for (const name of names) {
    const deferred = deferredTool(name);
    if (deferred) {
      if (!outcome.loaded.includes(deferred)) outcome.loaded.push(deferred);
      continue;
    }
    const core = lookup(name);
    if (core && core.isEnabled() && result.kind === "select") outcome.alreadyLoaded.push(core.name);
    else if (result.kind === "select") outcome.missing.push(name);
  }
  // A keyword query that was exactly a core tool's name: say it is loaded rather than "no match".
  if (result.kind !== "select" && outcome.loaded.length === 0 && result.exactName !== undefined) {
    const core = lookup(result.exactName);
    if (core && core.isEnabled() && deferredTool(core.name) === undefined) outcome.alreadyLoaded.push(core.name);
  }
  return outcome;
}

function noteLines(
  query: string,
  outcome: Outcome,
  didYouMean: readonly string[],
  pending: readonly string[],
  cached: ReadonlySet<string>,
): string[] {
  const notes: string[] = [];
  if (outcome.alreadyLoaded.length > 0) {
    notes.push(
      `Already loaded as core tool(s): ${outcome.alreadyLoaded.join(", ")}. Call them directly with your normal tool interface — not through ${EXECUTE_EXTRA_TOOL_NAME}.`,
    );
  }
  if (outcome.missing.length > 0) notes.push(`Not found: ${outcome.missing.map(shownName).join(", ")}.`);
  if (didYouMean.length > 0) notes.push(`Did you mean: ${didYouMean.join(", ")}?`);
  if (outcome.loaded.length === 0 && outcome.alreadyLoaded.length === 0 && outcome.missing.length === 0) {
    notes.push(`No deferred tools matched ${JSON.stringify(query.length > SHOWN_QUERY_CHARS ? `${query.slice(0, SHOWN_QUERY_CHARS)}…` : query)}.`);
  }
  if (pending.length > 0) notes.push(pendingNote(pending, cached));
  return notes;
}


/**
 * A requested name as an answer shows it: as written when it could name a tool, a server or a
 * group, else quoted and cut short — a name holding a line break once wrote a discovered line of
 * its own into the answer, and control characters went through as they were.
 */
function shownName(name: string): string {
  if (/^[\p{L}\p{N}_.:\/-]{1,128}$/u.test(name)) return name;
  return JSON.stringify(name.length > SHOWN_NAME_CHARS ? `${name.slice(0, SHOWN_NAME_CHARS)}…` : name);
}

const SHOWN_NAME_CHARS = 80;
/** A query that matched nothing is echoed this far: enough to recognise, not 4,096 characters again. */
const SHOWN_QUERY_CHARS = 200;

function nativeResult(loaded: readonly Tool[], notes: readonly string[], structured: Record<string, unknown>): ToolResult {
  const lines = loaded.length > 0 ? [`Loaded ${loaded.length} tool(s): ${loaded.map((tool) => tool.name).join(", ")}. Call them directly.`] : [];
  const content: ContentBlock[] = [{ type: "text", text: [...lines, ...notes].join("\n") }];
  for (const tool of loaded) content.push({ type: "tool_reference", tool_name: tool.name });
  return { content, isError: false, structuredContent: structured };
}

/** Room left for notes and the discovered line when a long result is cut short. */
const RESULT_MARGIN_CHARS = 4_000;

/** Whether a tool's section, alone with the margin for notes, fits an answer. */
function fitsAnAnswer(section: string): boolean {
  return section.length <= DEFAULT_MAX_RESULT_SIZE_CHARS - RESULT_MARGIN_CHARS;
}

function render(
  found: readonly Tool[],
  notes: readonly string[],
  structured: Record<string, unknown>,
  options: { schema: boolean; discovered: boolean },
): ToolResult {
  const sections: string[] = [];
  const shown: string[] = [];
  let size = 0;
  // Room for the notes and, should the answer be cut, for the names of what it left out (at most 100
  // names, each ≤ 64 characters) besides the discovered line: a cut answer names what it did not show.
  const budget = DEFAULT_MAX_RESULT_SIZE_CHARS - RESULT_MARGIN_CHARS - notes.reduce((sum, note) => sum + note.length + 1, 0) - found.reduce((sum, tool) => sum + tool.name.length + 1, 0);
  const tooLarge: string[] = [];
  let next = 0;
  for (; next < found.length; next++) {
    const tool = found[next]!;
    let section = toolAsText(tool, { schema: options.schema });
    // A definition no answer holds is shown as its signature (tool-search-notes.ts).
    if (!fitsAnAnswer(section)) {
      section = oversizedSection(tool, section.length);
      tooLarge.push(tool.name);
    }
    // Cut whole tools rather than let the pipeline truncate: a cut-off discovered line would lie.
    if (shown.length > 0 && size + section.length > budget) break;
    sections.push(section);
    shown.push(tool.name);
    size += section.length + 2;
  }
  const head: string[] = [];
  if (shown.length > 0) {
    head.push(
      options.discovered
        ? `Found ${shown.length} tool(s). Run one with ${EXECUTE_EXTRA_TOOL_NAME} {"tool_name": "<name>", "params": {...}}; params must follow its input schema.`
        : `Found ${shown.length} tool(s), not loaded. To use one, call ${TOOL_SEARCH_TOOL_NAME} with "select:<name>" first.`,
    );
  }
  if (tooLarge.length > 0) {
    head.push(`Shown as signatures, each definition longer than an answer holds (${DEFAULT_MAX_RESULT_SIZE_CHARS.toLocaleString("en-US")} characters): ${tooLarge.join(", ")}.`);
    structured.too_large = tooLarge;
  }
  if (next < found.length) {
    // A selection cut here is not "narrow the query": the tools it left out are named, one select: away.
    const rest = found.slice(next).map((tool) => tool.name);
    head.push(`${rest.length} more match(es) not shown, to keep the answer under ${DEFAULT_MAX_RESULT_SIZE_CHARS.toLocaleString("en-US")} characters: ${selectQueries(rest)} shows them.`);
    structured.not_shown = rest;
  }
  const parts = [[...head, ...notes].join("\n"), ...sections];
  if (options.discovered && shown.length > 0) parts.push(formatDiscoveredLine(shown));
  structured.matches = shown;
  return { content: [{ type: "text", text: parts.join("\n\n") }], isError: false, structuredContent: structured };
}
