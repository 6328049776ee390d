/**
 * Runs synthetic queries (search/warm-up-queries.ts) through the served index once it is current
 * and its impacts are swept, off the query path: a daemon's first real queries otherwise pay for
 * the compiler and for per-word tables met for the first time (several times the peer's p99 on
 * never-seen requests). In slices of at most `sliceMs`, the thread given back before each (as the
 * impact sweep, impact-sweep.ts), so a search that comes meanwhile waits at most one slice.
 *
 * Once per process for a pool of at least `minTools` tools, and again once the pool has grown
 * `growth` times since the last warm-up that finished (a bigger pool reaches code and sizes the
 * first did not). The queries go through ToolSearchIndex.warmUp: no query cache entry, no usage
 * history, no answer changed. Given up at the first slice `wanted()` says no to (the index changed
 * or is about to; the next sweep's end tries again) and for good once disposed.
 *
 * After the queries, in the same slices, the words of the pool's descriptions and parameter
 * descriptions (of at most 8,192 tools, search/learned-tools.ts) have their parse facts worked out (ToolSearchIndex.learnWords, a bounded share of
 * the query word table): a never-seen query's words then are mostly known to the parse, as every
 * indexed word's stem is to the BM25F peer from its build. A word's facts are a function of its
 * characters, so none goes stale when the pool changes; a change only stops the step.
 */
import type { ToolSearchIndex } from "../search/tool-search-index.ts";
import { toolsToLearn } from "../search/learned-tools.ts";
import { DEFAULT_WARM_UP_QUERIES, warmUpQueries, type WarmUpSource } from "../search/warm-up-queries.ts";
import type { Tool } from "../tool/tool.ts";
import { searchDocument } from "./search-document.ts";

function sourceOf(tool: Tool): WarmUpSource {
  return { name: tool.name, description: tool.description, ...(tool.mcpInfo !== undefined && { server: tool.mcpInfo.server }) };
}

/** Below this many indexed tools no warm-up runs (a daemon of built-ins may never search). */
export const WARM_UP_MIN_TOOLS = 200;
/** The pool grows this many times over before another warm-up runs. */
export const WARM_UP_GROWTH = 4;

export interface QueryWarmUpOptions {
  minTools: number;
  growth: number;
  queries: number;
}

/** How a warm-up ended: every query run, given up for a change or a dispose, or failed. */
export interface QueryWarmUpEvent {
  phase: "warm-up";
  ms: number;
  slices: number;
  queries: number;
  /** Tools whose words were learned (ToolSearchIndex.learnWords; toolsToLearn), up to the table's share. */
  wordTools: number;
  outcome: "done" | "abandoned" | "failed";
  error?: string;
}

export interface QueryWarmUpRun {
  index: ToolSearchIndex;
  /** The pool's tools (asked once, when the warm-up starts: the queries' tools, then every tool's words). */
  tools: () => readonly Tool[];
  sliceMs: number;
  yieldThread: () => Promise<void>;
  now: () => number;
  /** Asked before each slice: false gives the warm-up up. */
  wanted: () => boolean;
}

export class QueryWarmUp {
  readonly #options: QueryWarmUpOptions;
  /** Indexed tools when the last warm-up finished (0: none has). */
  #warmedAt = 0;
  #running = false;
  #disposed = false;
  /** Warm-ups started, and queries run in all (tests and the debug log read them). */
  started = 0;
  ran = 0;

  constructor(options: Partial<QueryWarmUpOptions> = {}) {
    this.#options = { minTools: WARM_UP_MIN_TOOLS, growth: WARM_UP_GROWTH, queries: DEFAULT_WARM_UP_QUERIES, ...options };
  }

  /** Whether an index of `size` tools would be warmed up now. */
  due(size: number): boolean {
    if (this.#disposed || this.#running || size < this.#options.minTools || size === 0) return false;
    return this.#warmedAt === 0 || size >= this.#warmedAt * this.#options.growth;
  }

  /** Runs the warm-up when due (else resolves undefined at once); never rejects. */
  async maybeRun(run: QueryWarmUpRun): Promise<QueryWarmUpEvent | undefined> {
    const size = run.index.size;
    if (!this.due(size)) return undefined;
    this.#running = true;
    this.started++;
    try {
      const event = await this.#run(run);
      if (event.outcome === "done") this.#warmedAt = size;
      return event;
    } finally {
      this.#running = false;
    }
  }

  /** No warm-up runs from here on; one under way stops at its next slice. */
  dispose(): void {
    this.#disposed = true;
  }

  async #run(run: QueryWarmUpRun): Promise<QueryWarmUpEvent> {
    const started = run.now();
    let slices = 0;
    let next = 0;
    let queries: string[] = [];
    let tools: readonly Tool[] = [];
    let nextTool = 0;
    /** The query word table holds its share of the pool's words: no more are learned. */
    let wordsFull = false;
    const end = (outcome: QueryWarmUpEvent["outcome"], error?: unknown): QueryWarmUpEvent => ({
      phase: "warm-up",
      ms: Math.round(run.now() - started),
      slices,
      queries: next,
      wordTools: nextTool,
      outcome,
      ...(error !== undefined && { error: error instanceof Error ? error.message : String(error) }),
    });
    try {
      for (;;) {
        await run.yieldThread();
        if (this.#disposed || !run.wanted()) return end("abandoned");
        const deadline = run.now() + run.sliceMs;
        if (slices === 0) {
          const all = run.tools();
          queries = warmUpQueries(all, sourceOf, this.#options.queries);
          tools = toolsToLearn(all);
        }
        while (next < queries.length) {
          run.index.warmUp(queries[next++]!);
          this.ran++;
          if (run.now() >= deadline) break;
        }
        while (next >= queries.length && !wordsFull && nextTool < tools.length) {
          // False: the table holds its share of the pool's words; the rest are left to the queries.
          wordsFull = !run.index.learnWords(searchDocument(tools[nextTool++]!));
          if (run.now() >= deadline) break;
        }
        slices++;
        if (next >= queries.length && (wordsFull || nextTool >= tools.length)) return end("done");
      }
    } catch (error) {
      return end("failed", error);
    }
  }
}
