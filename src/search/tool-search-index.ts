import { BuildCollector, type Collect } from "./build-collector.ts";
import { documentFields, type FieldShape } from "./document-fields.ts";
import { FIELD_COUNT, type FieldTerms } from "./fields.ts";
import { ensureInt32 } from "./growable.ts";
import { InvertedIndex } from "./inverted-index.ts";
import { KeywordRanker } from "./keyword-ranker.ts";
import { NameLookup, type NamedKeys } from "./name-lookup.ts";
import { MAX_SERVER_NAME_CHARS, NameSelection, scoped } from "./name-selection.ts";
import { QueryCache, type CachedQuery } from "./query-cache.ts";
import { NAME_PUNCTUATION } from "./query-words.ts";
import { isNameLike, type ParsedQuery } from "./query-parser.ts";
import type { QueryTokens } from "./query-terms.ts";
import { rankingOptions, type RankingOptions } from "./ranking-options.ts";
import { clampMaxResults } from "./result-limits.ts";
import { findMentions, mayBeServerKey, mentionInput, MentionTerms, type MentionInput } from "./server-mention.ts";
import { ServerRegistry } from "./server-registry.ts";
import { listServers } from "./server-listing.ts";
import { GroupRegistry } from "./group-registry.ts";
import { Tokenizer } from "./tokenizer.ts";
import type { QueryOptions, QueryResult, SearchDocument, SearchMatch } from "./types.ts";


export interface ToolSearchIndexOptions {
  ranking?: Partial<RankingOptions>;
  /** Run after every 10k tools indexed (build-collector.ts); default a full Bun collection. */
  collectGarbage?: Collect;
  /** Bytes the first stage may keep of per-term impacts (impact-cache.ts); default 16 MiB. */
  impactBudgetBytes?: number;
}

/**
 * The tool search engine: an incrementally updated index of tools and the ToolSearch query
 * language over it. ToolSearch, prefetch and `toolpool search` all call `query`.
 */
export class ToolSearchIndex {
  private readonly index = new InvertedIndex();
  private readonly tokenizer = new Tokenizer(this.index);
  private readonly lookup = new NameLookup({ has: (name) => this.index.slotOf(name) !== undefined, keys: () => this.index.liveNames() });
  private readonly servers = new ServerRegistry();
  private readonly groups = new GroupRegistry();
  /**
   * Per slot, the names a caller may type for the tool besides its pool name (what remove() must
   * take out of the lookup): undefined, the raw MCP name, or the keys themselves when there are
   * aliases. The documents are not kept: the pool holds the tools, and at 100k tools a copy for
   * search was ~40 MiB.
   */
  private readonly otherKeys: (string | NamedKeys | undefined)[] = [];
  private readonly ranker: KeywordRanker;
  private readonly queryCache = new QueryCache(this.tokenizer);
  /** Reused by every add(): the index copies the terms out. */
  private readonly fieldScratch: FieldTerms = Array.from({ length: FIELD_COUNT }, () => []);
  private readonly fieldShape: FieldShape = { descriptionHead: 0 };
  /** Server id per slot; a tool without a server gets its own negative id. */
  private serverOfSlot = new Int32Array(64);
  private readonly collector: BuildCollector;
  /** The tokenizer as findMentions asks it, remembered per text (server-mention.ts). */
  private readonly mentionTerms = new MentionTerms((words) => this.tokenizer.tokenize(words)).of;
  /**
   * True while a query runs. Its filter and scope are called mid-ranking, and the ranker's reusable
   * scratch (candidates, prepared terms, pools) belongs to that query until it returns: a query made
   * from a callback would overwrite it, and an add or remove would change the arrays being walked.
   * Both are refused (reentryError) rather than answering from scratch half one query's, half another's.
   */
  private busy = false;
  private readonly selection = new NameSelection({ lookup: this.lookup, servers: this.servers, groups: this.groups, memberNames: (id) => this.memberNames(id) });

  constructor(options: ToolSearchIndexOptions = {}) {
    this.ranker = new KeywordRanker(this.index, rankingOptions(options.ranking), options.impactBudgetBytes);
    this.collector = new BuildCollector(options.collectGarbage);
  }

  get size(): number {
    return this.index.liveCount;
  }

  has(name: string): boolean {
    return this.index.slotOf(name) !== undefined;
  }

  names(): IterableIterator<string> {
    return this.index.liveNames();
  }

  /**
   * Indexes a tool; a tool already indexed under the same name is replaced. Nothing of `doc` is
   * kept but its name strings: the caller may drop it (build one document per tool, add it, let it go).
   */
  add(doc: SearchDocument): void {
    if (this.busy) throw reentryError("add a tool");
    if (this.has(doc.name)) this.remove(doc.name);
    const fields = documentFields(doc, this.tokenizer, this.fieldScratch, this.fieldShape);
    const slot = this.index.add(doc.name, fields, this.fieldShape.descriptionHead);
    this.serverOfSlot = ensureInt32(this.serverOfSlot, slot + 1);
    this.serverOfSlot[slot] = doc.server === undefined ? -1 - slot : this.servers.addMember(doc.server, slot);
    if (doc.groups !== undefined && doc.groups.length > 0 && doc.server !== undefined) this.groups.add(this.serverOfSlot[slot]!, doc.groups, doc.name);
    this.lookup.add(doc);
    const raw = doc.rawToolName === undefined ? undefined : this.lookup.sharedKey(doc.rawToolName);
    this.otherKeys[slot] =
      doc.aliases !== undefined && doc.aliases.length > 0
        ? { name: doc.name, aliases: doc.aliases, ...(raw !== undefined && { rawToolName: raw }) }
        : raw;
    this.collector.added();
  }

  replace(doc: SearchDocument): void {
    this.add(doc);
  }

  /** Removes a tool; false when no tool has that name. */
  remove(name: string): boolean {
    if (this.busy) throw reentryError("remove a tool");
    const slot = this.index.slotOf(name);
    if (slot === undefined) return false;
    const server = this.serverOfSlot[slot]!;
    if (server >= 0) {
      this.servers.removeMember(server, slot);
      this.groups.remove(server, name);
    }
    const other = this.otherKeys[slot];
    this.lookup.remove(typeof other === "object" ? other : { name, ...(other !== undefined && { rawToolName: other }) });
    this.otherKeys[slot] = undefined;
    this.index.remove(slot);
    return true;
  }

  /** Pool names of a server's tools, in the order they joined. */
  private memberNames(server: number): string[] {
    return this.servers.membersOf(server).map((slot) => this.index.names[slot]!);
  }

  /** Removes every tool of a server; returns how many. */
  removeServer(server: string): number {
    const id = this.servers.idOf(server);
    if (id === undefined) return 0;
    const names = this.memberNames(id);
    for (const name of names) this.remove(name);
    return names.length;
  }

  /** Swaps a server's whole tool list for a new one (a `tools/list_changed`, a reconnect). */
  replaceServer(server: string, docs: readonly SearchDocument[]): void {
    this.removeServer(server);
    for (const doc of docs) this.add(doc);
  }

  /** Works out stale per-term impacts ahead of use, ~`maxEntries` a call (impact-maker.ts); true when done. Rankings unchanged. */
  precomputeImpacts(maxEntries: number): boolean {
    if (this.busy) throw reentryError("work out impacts");
    return this.ranker.precomputeImpacts(maxEntries);
  }

  /** Empties the parsed-query cache, so the next query of any text is answered from scratch. */
  clearQueryCache(): void {
    this.queryCache.clear();
  }

  query(text: string, options: QueryOptions = {}): QueryResult {
    return this.answer(this.queryCache.get(text), options);
  }

  /** Runs a query only to warm the code and per-word tables a first real query would (core/query-warm-up.ts): the
   *  parse is not cached and no answer changes. How many tools it found. */
  warmUp(text: string): number {
    return this.answer(this.queryCache.uncached(text), {}).matches.length;
  }

  /**
   * The parse's facts of the words of a pool tool's description and parameter descriptions worked
   * out ahead of use, as the BM25F peer holds every indexed word's stem from its build
   * (core/query-warm-up.ts); false once the query word table holds its share of such words. No
   * answer changes: a word's facts are a function of its characters.
   */
  learnWords(doc: SearchDocument): boolean {
    if (!this.queryCache.learnWords(doc.description)) return false;
    for (const parameter of doc.parameters ?? []) {
      if (parameter.description !== undefined && !this.queryCache.learnWords(parameter.description)) return false;
    }
    return true;
  }

  private answer(cached: CachedQuery, options: QueryOptions): QueryResult {
    if (this.busy) throw reentryError("query");
    this.busy = true;
    let result: QueryResult;
    try {
      const maxResults = clampMaxResults(options.maxResults);
      result =
        cached.parsed.kind === "select"
          ? this.selection.select(cached.parsed.names, options.filter, options.scope)
          : this.search(cached.parsed, cached, maxResults, options.filter, options.scope, options.listing);
    } finally {
      this.busy = false;
    }
    if (result.matches.length === 0 && options.pendingServers !== undefined && options.pendingServers.length > 0) {
      result.pendingServers = [...options.pendingServers];
    }
    return result;
  }

  private search(
    parsed: Exclude<ParsedQuery, { kind: "select" }>,
    cached: CachedQuery,
    maxResults: number,
    filter: ((name: string) => boolean) | undefined,
    scope?: (name: string) => boolean,
    listingOptions?: QueryOptions["listing"],
  ): QueryResult {
    const { tokens, identifiers } = cached;
    const result: QueryResult = { kind: parsed.kind, matches: [] };
    const passes = (name: string) => filter === undefined || filter(name);
    const exact = scoped(this.lookup.resolve(parsed.whole), scope);
    if (exact.length > 0) {
      result.exactName = exact[0]!;
      result.matches = exact.filter(passes).slice(0, maxResults).map((name) => ({ name, score: 1 }));
      return result;
    }
    // A server with no tool in the asker's scope narrows like one that does not exist: its listing
    // would say it is there ("0 deferred tools") to a session whose profile keeps it out.
    const narrowed = this.narrowing(parsed);
    const visible = scope === undefined || narrowed === undefined ? narrowed : narrowed.filter((id) => this.memberNames(id).some(scope));
    // `mcp__x` words narrow to none (as an unknown server does); a bare query is then just words.
    const serverIds = visible !== undefined && visible.length === 0 && parsed.servers.length === 0 ? undefined : visible;
    if (serverIds !== undefined) {
      result.server = serverIds.length > 0 ? this.servers.nameOf(serverIds[0]!) : parsed.servers[0]!;
      if (serverIds.length === 0) return result;
    }
    const hasTerms = tokens.text.length > 0 || tokens.required.length > 0;
    const mention = serverIds === undefined ? this.mentionIn(cached) : undefined;
    if (hasTerms) result.matches = this.rank(tokens, maxResults, filter, serverIds, mention);
    if (parsed.required.length === 0 && identifiers.length > 0) {
      result.matches = this.mentionedFirst(identifiers, result.matches, maxResults, passes, serverIds);
    }
    if (result.matches.length === 0 && serverIds !== undefined) {
      const page = parsed.page ?? 1;
      const listing = listServers(serverIds, (id) => this.memberNames(id), maxResults, passes, page, listingOptions);
      result.matches = listing.matches;
      result.listed = true;
      result.listedTotal = listing.total;
      result.page = page;
      if (serverIds.length > 1) result.listedServers = listing.servers.map((id) => this.servers.nameOf(id));
      if (listing.page !== undefined) result.listedPage = listing.page;
      if (listing.loaded !== undefined) result.listedLoaded = listing.loaded;
      const passed = listing.passed;
      const serverGroups = passed !== undefined ? this.groups.groupsOf(serverIds[0]!, (name) => passed.has(name)) : [];
      if (serverGroups.length > 0) result.serverGroups = serverGroups;
    }
    if (isNameLike(parsed.whole) && (result.matches.length === 0 || NAME_PUNCTUATION.test(parsed.whole))) {
      const suggestions = this.lookup.suggest(parsed.whole, scope);
      if (suggestions.length > 0) result.didYouMean = suggestions;
    }
    return result;
  }

  /** Server ids the query narrows to: `mcp__server` words, or a query that is just a server name. */
  private narrowing(parsed: Exclude<ParsedQuery, { kind: "select" }>): number[] | undefined {
    if (parsed.servers.length > 0) {
      const ids = parsed.servers.map((server) => this.servers.idOf(server));
      return [...new Set(ids.filter((id): id is number => id !== undefined))];
    }
    if (parsed.required.length > 0 || parsed.whole.length === 0) return undefined;
    if (parsed.whole.length > MAX_SERVER_NAME_CHARS || !mayBeServerKey(parsed.whole, this.servers)) return undefined;
    const id = this.servers.idOf(parsed.whole);
    return id === undefined ? undefined : [id];
  }

  /** The servers a longer query names, as membership evidence for the ranker. */
  private mentionIn(cached: CachedQuery): MentionInput | undefined {
    if (cached.mentions.words.length === 0) return undefined;
    const version = this.servers.liveVersion;
    if (cached.found?.version !== version) {
      // Fields named, not spread: a spread copies through the generic property path on every new query.
      const found = findMentions(cached.mentions, this.servers, this.mentionTerms);
      cached.found = { version, servers: found.servers, terms: found.terms, wholeNameTerms: found.wholeNameTerms };
    }
    if (cached.found.servers.length === 0) return undefined;
    const servers = cached.found.servers;
    // A loop, not flatMap: the built-in is shared by every caller in the process, and one that met
    // other arrays left its optimised code on a query's first mention.
    const memberSlots: number[] = [];
    for (const id of servers) this.servers.appendMembers(id, memberSlots);
    // The ids in a typed array, searched by a loop: `includes` on the mention's arrays, whose
    // shapes vary with how they were built, left optimised code on a query's first mention.
    const ids = new Int32Array(servers);
    const serverOfSlot = this.serverOfSlot;
    return mentionInput(
      cached.found.terms,
      memberSlots,
      this.index.liveCount,
      (slot) => {
        const server = serverOfSlot[slot]!;
        for (let i = 0; i < ids.length; i++) if (ids[i] === server) return true;
        return false;
      },
      cached.found.wholeNameTerms,
    );
  }

  private rank(
    tokens: QueryTokens,
    maxResults: number,
    filter: ((name: string) => boolean) | undefined,
    serverIds: readonly number[] | undefined,
    mention?: MentionInput,
  ): SearchMatch[] {
    // No filter and no narrowing: nothing to ask (asking would read each contender's name).
    const accept =
      serverIds === undefined && filter === undefined
        ? undefined
        : (slot: number) =>
            (serverIds === undefined || serverIds.includes(this.serverOfSlot[slot]!)) && (filter === undefined || filter(this.index.names[slot]!));
    return this.ranker
      .rank(tokens, maxResults, accept, mention)
      .map(({ slot, score }) => ({ name: this.index.names[slot]!, score }));
  }

  /**
   * Tools the query names outright (an identifier-like word such as `calculate_distance` that is
   * a pool name, alias or raw MCP name) rank first: the caller told us which tool it means.
   */
  private mentionedFirst(
    identifiers: readonly string[],
    ranked: SearchMatch[],
    maxResults: number,
    passes: (name: string) => boolean,
    serverIds: readonly number[] | undefined,
  ): SearchMatch[] {
    const mentioned: string[] = [];
    for (const word of identifiers) {
      for (const name of this.lookup.resolve(word)) {
        if (mentioned.includes(name) || !passes(name)) continue;
        const slot = this.index.slotOf(name)!;
        if (serverIds !== undefined && !serverIds.includes(this.serverOfSlot[slot]!)) continue;
        mentioned.push(name);
      }
    }
    if (mentioned.length === 0) return ranked;
    const top = ranked[0]?.score ?? 1;
    const first = mentioned.map((name, i) => ({ name, score: top + mentioned.length - i }));
    const rest = ranked.filter((match) => !mentioned.includes(match.name));
    return [...first, ...rest].slice(0, maxResults);
  }
}

/** A query's callback asked the index for more: a caller's bug, said as such (never a wrong answer). */
function reentryError(what: string): Error {
  return new Error(`ToolSearchIndex: cannot ${what} from inside a query's filter or scope callback (the running query's scratch would be overwritten); do it after the query returns`);
}
