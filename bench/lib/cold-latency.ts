import { toolsToLearn } from "../../src/search/learned-tools.ts";
import { searchDocumentFromTool, type CatalogTool } from "../../src/search/tool-document.ts";
import type { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import { DEFAULT_WARM_UP_QUERIES, warmUpQueries as poolWarmUpQueries } from "../../src/search/warm-up-queries.ts";
import type { EvalTool } from "./eval-data.ts";

/** One engine under measurement: answers a query, and forgets any per-query cache on request. */
export interface TimedEngine {
  name: string;
  query(text: string): string[];
  clearCache?(): void;
  /**
   * Work the engine does ahead of its queries once built (toolpool: every term's impacts, as the
   * daemon does after a catch-up and the peer does at build); run and timed right after the build.
   */
  precompute?(): void;
  /**
   * The engine's own warm-up before its first query (toolpool: the daemon's query warm-up after
   * the impact sweep, core/query-warm-up.ts); run after `precompute`, timed apart (`warmUpMs`).
   */
  warmUp?(): void;
  /**
   * The rest of the daemon's warm-up (toolpool: the pool's words' parse facts, ToolSearchIndex.learnWords);
   * run after `warmUp`, timed apart (`learnWordsMs`).
   */
  learnWords?(): void;
}

/** toolpool's warm-up as the daemon runs it: the pool's synthetic queries through ToolSearchIndex.warmUp (in one go here, not in slices). */
export function daemonWarmUp(index: ToolSearchIndex, tools: readonly { name: string; description?: string; server?: string }[], count = DEFAULT_WARM_UP_QUERIES): () => void {
  return () => {
    const queries = poolWarmUpQueries(tools, (tool) => ({ name: tool.name, description: tool.description ?? "", ...(tool.server !== undefined && { server: tool.server }) }), count);
    for (const text of queries) index.warmUp(text);
  };
}

/**
 * The second step of the daemon's warm-up (core/query-warm-up.ts), after its queries: the
 * description and parameter descriptions of each tool it reads (toolsToLearn) through ToolSearchIndex.learnWords, until it says the
 * word table holds its share (in one go here, not in slices).
 */
export function daemonLearnWords(index: ToolSearchIndex, tools: readonly CatalogTool[]): () => void {
  return () => {
    for (const tool of toolsToLearn(tools)) if (!index.learnWords(searchDocumentFromTool(tool))) return;
  };
}

/** Builds one engine afresh over the same tools each time it is called (the build is timed). */
export type EngineBuilder = () => TimedEngine;

/**
 * Queries no eval set contains, to warm each engine's JIT before the cold pass: the first words
 * of descriptions spread across the pool. Without them the first measured queries would time
 * the compiler, not the engine.
 */
export function warmUpQueries(tools: readonly EvalTool[], count = 600): string[] {
  const step = Math.max(1, Math.floor(tools.length / count));
  const out: string[] = [];
  for (let i = 0; i < tools.length && out.length < count; i += step) {
    const words = (tools[i]!.description ?? "").split(/\s+/).filter(Boolean);
    if (words.length >= 3) out.push(words.slice(0, 3 + (i % 9)).join(" "));
  }
  return out;
}

/** Per engine name, per distinct query, one latency in ms. */
export type Samples = Map<string, number[]>;

export interface LatencyResult {
  /** First pass: each query asked once of engines that never saw it (nor any word cache of it). Median over rounds. */
  cold: Samples;
  /** `cold` in the main thread's CPU time (median over rounds), when measureLatency was given a clock for it; else empty. */
  coldCpu: Samples;
  /** Round one of `cold` alone. */
  firstRound: Samples;
  /** Second pass with the query cache emptied: the per-word caches (parse tables, stems, impacts) warm from the first. */
  warmWords: Samples;
  /** Third pass, query cache kept: cache hits. */
  repeat: Samples;
  /** Each engine's answers in the first round's first pass, per distinct query. */
  rankings: Map<string, string[][]>;
  /** Build time of each engine in round one (ms). */
  buildMs: Map<string, number>;
  /** Time of each engine's `precompute` in round one (ms), for engines that have one. */
  precomputeMs: Map<string, number>;
  /** Time of each engine's own `warmUp` in round one (ms), for engines that have one. */
  warmUpMs: Map<string, number>;
  /** Time of each engine's `learnWords` in round one (ms), for engines that have one. */
  learnWordsMs: Map<string, number>;
}

/**
 * Cold latency, honestly first-pass: each of `rounds` rounds builds every engine afresh from its
 * builder (so no word, stem or impact cache remembers an earlier round), runs its `precompute`
 * and its own `warmUp` (each timed apart: no query, counted or not, pays for them), warms its JIT
 * on the same unrelated queries (`warmUp`; none for a daemon-like first pass), then asks each distinct query once of each engine, the order of engines
 * alternating per query so neither always runs right after a collection the other caused. Then,
 * on the same instances, the query caches are emptied and the queries asked again (`warmWords`:
 * what a new text costs once its words were met before), and once more (`repeat`: cache hits).
 * Per query the median over rounds is kept: on a shared machine one round's p99 is mostly the
 * scheduler. `firstRound` keeps round one alone.
 */
export function measureLatency(
  builders: readonly EngineBuilder[],
  warmUp: readonly string[],
  queries: readonly string[],
  rounds = 5,
  /** The main thread's CPU time in ms (lib/thread-clock.ts): cold queries are timed by it as well (`coldCpu`). */
  cpuNow?: () => number,
): LatencyResult {
  const distinct = [...new Set(queries)];
  const cold = new Map<string, number[][]>();
  const coldCpu = new Map<string, number[][]>();
  const warmWords = new Map<string, number[][]>();
  const repeat = new Map<string, number[][]>();
  const rankings = new Map<string, string[][]>();
  const buildMs = new Map<string, number>();
  const precomputeMs = new Map<string, number>();
  const warmUpMs = new Map<string, number>();
  const learnWordsMs = new Map<string, number>();
  const rowsOf = (samples: Map<string, number[][]>, name: string) => {
    if (!samples.has(name)) samples.set(name, distinct.map(() => []));
    return samples.get(name)!;
  };
  const pass = (engines: readonly TimedEngine[], into: Map<string, number[][]>, keep: boolean, cpuInto?: Map<string, number[][]>) => {
    const rows = engines.map((engine) => rowsOf(into, engine.name));
    const cpuRows = cpuInto === undefined || cpuNow === undefined ? undefined : engines.map((engine) => rowsOf(cpuInto, engine.name));
    distinct.forEach((text, i) => {
      for (let j = 0; j < engines.length; j++) {
        const at = (i + j) % engines.length;
        const engine = engines[at]!;
        const cpuStart = cpuRows === undefined ? 0 : cpuNow!();
        const start = Bun.nanoseconds();
        const ranked = engine.query(text);
        const end = Bun.nanoseconds();
        if (cpuRows !== undefined) cpuRows[at]![i]!.push(cpuNow!() - cpuStart);
        rows[at]![i]!.push((end - start) / 1e6);
        if (keep) rankings.get(engine.name)!.push(ranked);
      }
    });
  };
  for (let round = 0; round < rounds; round++) {
    // The previous round's engines are unreachable here: collected before the new ones are built.
    Bun.gc(true);
    const engines = builders.map((build) => {
      const start = Bun.nanoseconds();
      const engine = build();
      if (round === 0) buildMs.set(engine.name, (Bun.nanoseconds() - start) / 1e6);
      if (engine.precompute !== undefined) {
        const before = Bun.nanoseconds();
        engine.precompute();
        if (round === 0) precomputeMs.set(engine.name, (Bun.nanoseconds() - before) / 1e6);
      }
      if (engine.warmUp !== undefined) {
        const before = Bun.nanoseconds();
        engine.warmUp();
        if (round === 0) warmUpMs.set(engine.name, (Bun.nanoseconds() - before) / 1e6);
      }
      if (engine.learnWords !== undefined) {
        const before = Bun.nanoseconds();
        engine.learnWords();
        if (round === 0) learnWordsMs.set(engine.name, (Bun.nanoseconds() - before) / 1e6);
      }
      return engine;
    });
    if (round === 0) for (const engine of engines) rankings.set(engine.name, []);
    for (const engine of engines) for (const text of warmUp) engine.query(text);
    for (const engine of engines) engine.clearCache?.();
    Bun.gc(true);
    pass(engines, cold, round === 0, coldCpu);
    for (const engine of engines) engine.clearCache?.();
    pass(engines, warmWords, false);
    pass(engines, repeat, false);
  }
  const medians = (samples: Map<string, number[][]>) =>
    new Map([...samples].map(([name, rows]) => [name, rows.map((row) => [...row].sort((a, b) => a - b)[row.length >> 1]!)]));
  const firstRound = new Map([...cold].map(([name, rows]) => [name, rows.map((row) => row[0]!)]));
  return { cold: medians(cold), coldCpu: medians(coldCpu), firstRound, warmWords: medians(warmWords), repeat: medians(repeat), rankings, buildMs, precomputeMs, warmUpMs, learnWordsMs };
}
