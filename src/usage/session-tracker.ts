/**
 * Turns what the recorder hears into what the store keeps, using a little memory per session: the
 * keyword searches still waiting to be followed by a call of one of their results (conversion), the
 * tool called last (what follows what), the tools called so far (what is called together), and the
 * prefetch suggestions not called yet. Bounded per session and in the number of sessions.
 */
import type { CallRecord, PrefetchRecord, SearchRecord } from "./usage-recorder.ts";
import { usageTerms } from "./usage-terms.ts";
import { cut, MAX_NAME_CHARS, MAX_QUERY_CHARS, MAX_STORED_RESULTS, MAX_WORKSPACE_CHARS, type StoredEvent } from "./usage-schema.ts";

/** A keyword search converts when one of its results is called within this many later calls. */
export const CONVERSION_WINDOW_CALLS = 3;
/** Sessions tracked at once, least recently active dropped first. */
export const MAX_TRACKED_SESSIONS = 4_096;
const MAX_PENDING_SEARCHES = 16;
const MAX_DISTINCT_TOOLS = 32;
const MAX_OPEN_SUGGESTIONS = 64;

interface PendingSearch {
  key: string;
  results: ReadonlySet<string>;
  terms: readonly string[];
  remaining: number;
}

interface SessionTrack {
  pending: PendingSearch[];
  lastTool: string | null;
  distinct: string[];
  suggested: Map<string, { key: string; terms: readonly string[] }>;
  firstRequest: boolean;
}

export interface TrackerDeps {
  now: () => number;
  /** A unique key for a row updated later (a search's conversion, a suggestion's hit). */
  newKey: () => string;
  /** Tools that are not the user's own calls (ToolSearch): they neither convert nor teach. */
  isMeta: (tool: string) => boolean;
}

export class SessionTracker {
  readonly #sessions = new Map<string, SessionTrack>();

  constructor(private readonly deps: TrackerDeps) {}

  search(record: SearchRecord): StoredEvent[] {
    const key = this.deps.newKey();
    const results = record.results.slice(0, MAX_STORED_RESULTS).map((name) => cut(name, MAX_NAME_CHARS));
    if (record.kind === "keyword") {
      const track = this.#track(record.sessionId);
      track.pending.push({ key, results: new Set(results), terms: usageTerms(record.query), remaining: CONVERSION_WINDOW_CALLS });
      if (track.pending.length > MAX_PENDING_SEARCHES) track.pending.shift();
    }
    return [
      {
        type: "search",
        key,
        at: this.deps.now(),
        workspace: cut(record.workspace, MAX_WORKSPACE_CHARS),
        session: cut(record.sessionId, MAX_NAME_CHARS),
        kind: record.kind,
        query: cut(record.query, MAX_QUERY_CHARS),
        results,
        selectMisses: record.selectMisses,
        didYouMean: record.didYouMean,
      },
    ];
  }

  call(record: CallRecord): StoredEvent[] {
    const at = this.deps.now();
    const tool = cut(record.tool, MAX_NAME_CHARS);
    const workspace = cut(record.workspace, MAX_WORKSPACE_CHARS);
    const events: StoredEvent[] = [
      {
        type: "call",
        at,
        workspace,
        session: cut(record.sessionId, MAX_NAME_CHARS),
        tool,
        server: record.server === undefined ? null : cut(record.server, MAX_NAME_CHARS),
        durationMs: Math.max(0, record.durationMs),
        isError: record.isError,
        timedOut: record.timedOut,
        truncated: record.truncated,
      },
    ];
    if (this.deps.isMeta(tool)) return events;
    const track = this.#track(record.sessionId);
    const learns = record.known && !record.isError;
    for (const search of track.pending) {
      search.remaining--;
      // Which tool a search led to, whether or not the search returned it (the model may have
      // found it another way): what the prior learns the query's words mean here. A search that
      // converted has its answer and teaches nothing more.
      if (learns && search.terms.length > 0) events.push({ type: "searchCall", at, workspace, tool, terms: search.terms });
      if (search.results.has(tool)) {
        events.push({ type: "conversion", key: search.key, tool });
        search.remaining = 0;
      }
    }
    track.pending = track.pending.filter((search) => search.remaining > 0);
    const suggestion = track.suggested.get(tool);
    if (suggestion !== undefined) {
      events.push({ type: "prefetchHit", key: suggestion.key });
      // The user's words led to this tool as surely as a search's did.
      if (learns && suggestion.terms.length > 0) events.push({ type: "searchCall", at, workspace, tool, terms: suggestion.terms });
      track.suggested.delete(tool);
    }
    // Only a call that worked says the tool is useful here.
    if (learns) {
      const isNew = !track.distinct.includes(tool);
      const together = isNew ? [...track.distinct] : [];
      events.push({ type: "use", at, workspace, tool, previous: track.lastTool !== tool ? track.lastTool : null, together });
      if (isNew) {
        track.distinct.push(tool);
        if (track.distinct.length > MAX_DISTINCT_TOOLS) track.distinct.shift();
      }
      track.lastTool = tool;
    }
    return events;
  }

  prefetch(record: PrefetchRecord): StoredEvent[] {
    const track = this.#track(record.sessionId);
    const at = this.deps.now();
    const terms = usageTerms(record.query);
    return record.suggestions.map((name) => {
      const key = this.deps.newKey();
      const tool = cut(name, MAX_NAME_CHARS);
      track.suggested.set(tool, { key, terms });
      if (track.suggested.size > MAX_OPEN_SUGGESTIONS) track.suggested.delete(track.suggested.keys().next().value!);
      return { type: "prefetch", key, at, workspace: cut(record.workspace, MAX_WORKSPACE_CHARS), session: cut(record.sessionId, MAX_NAME_CHARS), tool };
    });
  }

  /** True the first time it is asked for a session (its first request is measured once). */
  firstRequest(sessionId: string): boolean {
    const track = this.#track(sessionId);
    if (track.firstRequest) return false;
    track.firstRequest = true;
    return true;
  }

  /** The tool the session called last (a successful call of a pool tool), if any. */
  lastTool(sessionId: string): string | null {
    return this.#sessions.get(sessionId)?.lastTool ?? null;
  }

  #track(sessionId: string): SessionTrack {
    let track = this.#sessions.get(sessionId);
    // Re-inserted on every use, so the Map's order is least recently active first.
    if (track) this.#sessions.delete(sessionId);
    else track = { pending: [], lastTool: null, distinct: [], suggested: new Map(), firstRequest: false };
    this.#sessions.set(sessionId, track);
    if (this.#sessions.size > MAX_TRACKED_SESSIONS) this.#sessions.delete(this.#sessions.keys().next().value!);
    return track;
  }
}
