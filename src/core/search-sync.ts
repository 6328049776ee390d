/**
 * Keeps the search index in step with the pool, incrementally, without holding the thread that
 * serves every client: only tools that arrived, left or now read differently touch the index, and
 * that work runs in slices of at most `sliceMs` with the event loop served between them.
 *
 * The index catches up when it is first wanted, not when the pool changes: `sync` records the
 * changes, and `ready()` (which ToolSearch, `toolpool/search` and prefetch await) applies them in
 * slices. A search that arrives while the index catches up waits for the pool as it was when the
 * search came: never answered from an index that lacks tools just added (the session's own filter
 * keeps out what it may not see either way), and never kept waiting by changes that came after it.
 * `index` and `query` are the synchronous way in: they finish any catch-up at once (correct, but
 * it holds the thread; callers on a request path await `ready()` first). While a sliced catch-up
 * runs they read the index as served, which holds what every resolved `ready()` waited for.
 *
 * Changes coalesce: one pending entry per tool name (its latest state, in the order of its first
 * change since the index last held it), one catch-up at a time. A pool that changes faster than the index can follow never piles
 * up work: past about two pools' worth of pending changes they are dropped for one build afresh
 * from the pool, and a fresh build overtaken that way is abandoned (at most MAX_ABANDONED_IN_A_ROW
 * times running, so a build always finishes eventually) and started again from the newest pool.
 *
 * The index never forgets a word it once learned (its term table only grows), so a pool whose tools
 * keep changing their words would grow it without bound. Once more tools have been indexed since the
 * last build than REBUILD_FACTOR times the pool (plus REBUILD_SLACK), the index is built afresh.
 *
 * Once a catch-up leaves the index current, the ranking's per-term impacts are worked out ahead of
 * use in slices of the same `sliceMs` (impact-sweep.ts), off the queries. Any change to the pool
 * (or a newer catch-up) gives the sweep up; the end of the next catch-up starts it again. A sweep
 * that finishes may start the query warm-up (query-warm-up.ts: once, and again at 4× growth).
 */
import type { QueryOptions, QueryResult } from "../search/types.ts";
import { ToolSearchIndex } from "../search/tool-search-index.ts";
import type { Tool } from "../tool/tool.ts";
import { IMPACT_SWEEP_STEP, sweepImpacts, type ImpactSweepEvent, type ImpactSweepStats } from "./impact-sweep.ts";
import { QueryWarmUp, type QueryWarmUpEvent, type QueryWarmUpOptions } from "./query-warm-up.ts";
import { sameSearchInputs, searchDocument } from "./search-document.ts";

const REBUILD_FACTOR = 4;
const REBUILD_SLACK = 10_000;
/** Fresh builds abandoned one after another before the next is let finish whatever happens. */
export const MAX_ABANDONED_IN_A_ROW = 2;
/** Indexing between two turns of the event loop (a 100k pool is ~1.6 s of it). */
export const DEFAULT_SLICE_MS = 5;

/**
 * The sliced build's collection every 10k tools (build-collector.ts): asynchronous. A synchronous
 * full collection is one pause of ~40 ms at 100k tools, longer than a slice; this one runs beside
 * the slices, for a higher peak while building (measured in docs/search.md).
 */
const collectBesideSlices = (): void => {
  if (typeof Bun !== "undefined") Bun.gc(false);
};

export interface SearchSyncOptions {
  /** Longest stretch of indexing before the event loop gets the thread back. */
  sliceMs?: number;
  /** Gives the thread to the event loop until the next slice; default a macrotask (I/O runs first). */
  yieldThread?: () => Promise<void>;
  now?: () => number;
  makeIndex?: () => ToolSearchIndex;
  /** Impact entries a sweep slice works out between two readings of the clock (IMPACT_SWEEP_STEP). */
  impactStep?: number;
  /** Told when a catch-up begins (what it has to do), when the index is current again, and how the impact sweep and query warm-up after it ended. */
  onCatchUp?: (event: CatchUpEvent) => void;
  /** When the query warm-up runs (query-warm-up.ts); tests change it. */
  warmUp?: Partial<QueryWarmUpOptions>;
}

export type CatchUpEvent =
  | { phase: "begin"; pending: number; fresh: boolean; pool: number }
  | { phase: "end"; ms: number; slices: number; freshBuilds: number; abandoned: number }
  | ImpactSweepEvent
  | QueryWarmUpEvent;

/** A name's latest state not yet in the index: the tool, or null once it left. */
interface Pending {
  tool: Tool | null;
  /** What the index holds (or the running fresh build will hold) under the name, when known. */
  indexed: Tool | undefined;
  generation: number;
}

interface FreshBuild {
  index: ToolSearchIndex;
  tools: Tool[];
  next: number;
  /** The pool version the snapshot `tools` is. */
  generation: number;
}

interface Waiter {
  generation: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface SearchSyncStats extends ImpactSweepStats {
  freshBuilds: number;
  abandoned: number;
  slices: number;
}

export class SearchSync {
  #index: ToolSearchIndex;
  /** Tools indexed since the index was last built from nothing. */
  #addedSinceBuild = 0;
  /** The tools as of the last sync (what the index holds once the changes are applied). */
  readonly #synced = new Map<string, Tool>();
  readonly #pending = new Map<string, Pending>();
  /** Entries of #pending that hold a tool (the rebuild rule counts them). */
  #pendingAdds = 0;
  /** Pool versions that changed something; #applied is the one the served index reflects. */
  #generation = 0;
  #applied = 0;
  /** Pending changes were dropped: the next step builds afresh from the pool. */
  #needsFresh = false;
  #fresh: FreshBuild | undefined;
  #abandonedInRow = 0;
  #running = false;
  readonly #waiters: Waiter[] = [];
  readonly #sliceMs: number;
  readonly #yield: () => Promise<void>;
  readonly #now: () => number;
  readonly #makeIndex: () => ToolSearchIndex;
  readonly #onCatchUp: ((event: CatchUpEvent) => void) | undefined;
  readonly #impactStep: number;
  readonly stats: SearchSyncStats = { freshBuilds: 0, abandoned: 0, slices: 0, impactSlices: 0, impactSweeps: 0, impactAbandoned: 0 };
  /** The sweep allowed to go on (an older one stops at its next slice). */
  #sweep = 0;
  readonly warmUp: QueryWarmUp;

  constructor(options: SearchSyncOptions = {}) {
    const sliceMs = options.sliceMs ?? DEFAULT_SLICE_MS;
    if (!(sliceMs > 0)) throw new Error(`SearchSync: sliceMs must be a positive number of milliseconds, got ${sliceMs}`);
    this.#sliceMs = sliceMs;
    this.#yield = options.yieldThread ?? (() => new Promise<void>((resolve) => setImmediate(resolve)));
    this.#now = options.now ?? (() => performance.now());
    this.#makeIndex = options.makeIndex ?? (() => new ToolSearchIndex({ collectGarbage: collectBesideSlices }));
    this.#onCatchUp = options.onCatchUp;
    this.#impactStep = options.impactStep ?? IMPACT_SWEEP_STEP;
    this.warmUp = new QueryWarmUp(options.warmUp);
    this.#index = this.#makeIndex();
  }

  /**
   * The index, brought up to date first, synchronously (see the file comment) — unless a sliced
   * catch-up is under way: then the index as served. It reflects the pool every resolved `ready()`
   * asked for, and finishing the newer changes here would hold the thread (a reader that awaited
   * `ready()` resumes between two slices, with changes that came after it still pending).
   */
  get index(): ToolSearchIndex {
    if (this.#hasWork() && !this.#running) {
      try {
        this.#step(Infinity);
      } catch (error) {
        this.#fail(error);
        throw error;
      }
      this.#wake();
      this.#sweepImpacts();
    }
    return this.#index;
  }

  /** Whether the index reflects the pool as last synced (nothing to wait for). */
  get current(): boolean {
    return !this.#hasWork();
  }

  /** Searches the up-to-date index (so a holder of this object never holds a stale index). */
  query(text: string, options?: QueryOptions): QueryResult {
    return this.index.query(text, options);
  }

  /**
   * Resolves once the index reflects the pool as of this call (or a newer one), catching up in
   * slices meanwhile; rejects if indexing failed (the next call tries again, from the pool).
   */
  ready(): Promise<void> {
    if (!this.#hasWork()) return Promise.resolve();
    const promise = new Promise<void>((resolve, reject) => this.#waiters.push({ generation: this.#generation, resolve, reject }));
    if (!this.#running) void this.#run();
    return promise;
  }

  /**
   * Records the pool's tools as they are now (the changes since the last sync are applied at the
   * next catch-up). `inPool`, when given, says whether a name is a tool of `tools` (the pool's own
   * lookup, so no set of 100k names is built per change); its names must then be unique, as a
   * pool's are. Without it every previous name is checked against a set of `tools`' names.
   */
  sync(tools: readonly Tool[], inPool?: (name: string) => boolean): { added: number; removed: number; replaced: number } {
    const generation = this.#generation + 1;
    let removed = 0;
    let added = 0;
    let replaced = 0;
    // What each tool replaces, read once; how many of the synced names are still there.
    const previous: (Tool | undefined)[] = new Array(tools.length);
    let survivors = 0;
    for (let i = 0; i < tools.length; i++) {
      const before = this.#synced.get(tools[i]!.name);
      previous[i] = before;
      if (before !== undefined) survivors++;
    }
    // Every synced name is still there (names unique): nothing left, and no walk of the pool to see it.
    if (inPool === undefined || survivors !== this.#synced.size) {
      const present = inPool ?? ((names) => (name: string) => names.has(name))(new Set(tools.map((tool) => tool.name)));
      for (const [name, gone] of this.#synced) {
        if (present(name)) continue;
        this.#record(name, null, gone, generation);
        this.#synced.delete(name);
        removed++;
      }
    }
    for (let i = 0; i < tools.length; i++) {
      const tool = tools[i]!;
      // Unique names: what the first pass read is current. Otherwise a name twice in `tools` finds
      // the first of them here (the second replaces it, as before).
      const before = inPool !== undefined ? previous[i] : this.#synced.get(tool.name);
      if (before === tool) continue;
      this.#record(tool.name, tool, before, generation);
      this.#synced.set(tool.name, tool);
      if (before) replaced++;
      else added++;
    }
    if (added + removed + replaced > 0) this.#generation = generation;
    // Coalesced: a pool that changed more than it holds since the index last caught up is built
    // afresh (a never-searched daemon keeps no more than this waiting either).
    if (this.#pending.size > 2 * this.#synced.size + 64) this.#dropPending();
    return { added, removed, replaced };
  }

  #record(name: string, tool: Tool | null, previous: Tool | undefined, generation: number): void {
    // A fresh build is due: it begins by dropping what is pending, and its snapshot will hold this.
    if (this.#needsFresh) return;
    const before = this.#pending.get(name);
    if (before !== undefined && before.tool !== null) this.#pendingAdds--;
    if (tool !== null) this.#pendingAdds++;
    // A name changed again keeps its place and the generation of its first change: a search that
    // came after that change waits for the name (and gets its newest state); the entries stay in
    // the order of their generations, which the partial progress below relies on.
    this.#pending.set(name, before !== undefined ? { tool, indexed: before.indexed, generation: before.generation } : { tool, indexed: previous, generation });
  }

  #dropPending(): void {
    this.#pending.clear();
    this.#pendingAdds = 0;
    this.#needsFresh = true;
    if (this.#fresh !== undefined && this.#abandonedInRow < MAX_ABANDONED_IN_A_ROW) {
      // Superseded: what it has indexed is of a pool mostly gone. The next step starts from the newest.
      this.#fresh = undefined;
      this.#abandonedInRow++;
      this.stats.abandoned++;
    }
  }

  #hasWork(): boolean {
    return this.#needsFresh || this.#fresh !== undefined || this.#pending.size > 0;
  }

  async #run(): Promise<void> {
    this.#running = true;
    const started = this.#now();
    const before = { ...this.stats };
    this.#onCatchUp?.({ phase: "begin", pending: this.#pending.size, fresh: this.#needsFresh || this.#fresh !== undefined, pool: this.#synced.size });
    try {
      while (this.#hasWork()) {
        this.#step(this.#now() + this.#sliceMs);
        this.stats.slices++;
        this.#wake();
        if (this.#hasWork()) await this.#yield();
      }
      this.#onCatchUp?.({
        phase: "end",
        ms: Math.round(this.#now() - started),
        slices: this.stats.slices - before.slices,
        freshBuilds: this.stats.freshBuilds - before.freshBuilds,
        abandoned: this.stats.abandoned - before.abandoned,
      });
      this.#sweepImpacts();
    } catch (error) {
      this.#fail(error);
    } finally {
      this.#running = false;
      this.#wake();
    }
  }

  /** Starts the impact sweep of the served index (impact-sweep.ts); one started later stops it. */
  #sweepImpacts(): void {
    const sweep = ++this.#sweep;
    const index = this.#index;
    const wanted = () => sweep === this.#sweep && !this.#running && !this.#hasWork() && this.#index === index;
    const run = { index, sliceMs: this.#sliceMs, step: this.#impactStep, yieldThread: this.#yield, now: this.#now, wanted, stats: this.stats };
    void sweepImpacts(run).then(async (event) => {
      this.#onCatchUp?.(event);
      if (event.outcome !== "done") return;
      const warm = await this.warmUp.maybeRun({ ...run, tools: () => [...this.#synced.values()] });
      if (warm !== undefined) this.#onCatchUp?.(warm);
    });
  }

  /** The daemon stops: no sweep or warm-up goes on past its next slice. */
  close(): void {
    this.#sweep++;
    this.warmUp.dispose();
  }

  /**
   * A tool that fails to index must not leave searches waiting, nor the index silently short of
   * the change that failed: the waiting searches fail, and the next catch-up builds afresh.
   */
  #fail(error: unknown): void {
    this.#fresh = undefined;
    this.#dropPending();
    for (const waiter of this.#waiters.splice(0)) waiter.reject(error);
  }

  /** Resolves the waiters whose pool version the served index reflects now. */
  #wake(): void {
    if (this.#waiters.length === 0) return;
    const applied = this.#hasWork() ? this.#applied : Infinity;
    let kept = 0;
    for (const waiter of this.#waiters) {
      if (waiter.generation <= applied) waiter.resolve();
      else this.#waiters[kept++] = waiter;
    }
    this.#waiters.length = kept;
  }

  /** Indexes until `deadline` (at least one tool's worth) or until nothing is left to do. */
  #step(deadline: number): void {
    for (;;) {
      if (this.#needsFresh && this.#fresh === undefined) this.#beginFresh();
      const fresh = this.#fresh;
      if (fresh !== undefined) {
        while (fresh.next < fresh.tools.length) {
          fresh.index.add(searchDocument(fresh.tools[fresh.next++]!));
          if (this.#now() >= deadline && fresh.next < fresh.tools.length) return;
        }
        this.#finishFresh(fresh);
        continue;
      }
      if (this.#pending.size === 0) return;
      if (this.#addedSinceBuild + this.#pendingAdds > REBUILD_FACTOR * this.#synced.size + REBUILD_SLACK) {
        this.#pending.clear();
        this.#pendingAdds = 0;
        this.#needsFresh = true;
        continue;
      }
      for (const [name, change] of this.#pending) {
        this.#pending.delete(name);
        if (change.tool === null) {
          this.#index.remove(name);
        } else {
          this.#pendingAdds--;
          if (change.indexed === undefined || !sameSearchInputs(change.indexed, change.tool)) {
            this.#index.add(searchDocument(change.tool));
            this.#addedSinceBuild++;
          }
        }
        if (this.#now() >= deadline) break;
      }
      const first = this.#pending.values().next();
      this.#applied = first.done === true ? this.#generation : first.value.generation - 1;
      if (this.#now() >= deadline) return;
    }
  }

  #beginFresh(): void {
    this.#needsFresh = false;
    this.#pending.clear();
    this.#pendingAdds = 0;
    this.#fresh = { index: this.#makeIndex(), tools: [...this.#synced.values()], next: 0, generation: this.#generation };
    this.stats.freshBuilds++;
  }

  /** The fresh index is served from now on; changes since its snapshot are pending for it. */
  #finishFresh(fresh: FreshBuild): void {
    this.#index = fresh.index;
    this.#fresh = undefined;
    this.#abandonedInRow = 0;
    this.#addedSinceBuild = fresh.tools.length;
    this.#applied = Math.max(this.#applied, fresh.generation);
    if (this.#needsFresh) return;
    const first = this.#pending.values().next();
    this.#applied = first.done === true ? this.#generation : Math.max(this.#applied, first.value.generation - 1);
  }
}
