import type { EvalTool } from "./eval-data.ts";

/** One engine under measurement: answers a query, and forgets any per-query cache on request. */
export interface TimedEngine {
  name: string;
  query(text: string): string[];
  clearCache?(): void;
}

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

/**
 * Cold (first-pass) latency: every engine warmed on the same unrelated queries, caches emptied,
 * then each distinct query is asked once of each engine, the order of engines alternating per
 * query so neither always runs right after a collection the other caused. A second pass over
 * the same queries gives the cache-hit figure.
 */
export function measureLatency(
  engines: readonly TimedEngine[],
  warmUp: readonly string[],
  queries: readonly string[],
): { cold: Map<string, number[]>; repeat: Map<string, number[]>; rankings: Map<string, string[][]> } {
  const distinct = [...new Set(queries)];
  for (const engine of engines) for (const text of warmUp) engine.query(text);
  for (const engine of engines) engine.clearCache?.();
  Bun.gc(true);
  const cold = new Map(engines.map((engine) => [engine.name, [] as number[]]));
  const repeat = new Map(engines.map((engine) => [engine.name, [] as number[]]));
  const rankings = new Map(engines.map((engine) => [engine.name, [] as string[][]]));
  const pass = (into: Map<string, number[]>, keep: boolean) => {
    distinct.forEach((text, i) => {
      for (let j = 0; j < engines.length; j++) {
        const engine = engines[(i + j) % engines.length]!;
        const start = Bun.nanoseconds();
        const ranked = engine.query(text);
        into.get(engine.name)!.push((Bun.nanoseconds() - start) / 1e6);
        if (keep) rankings.get(engine.name)!.push(ranked);
      }
    });
  };
  pass(cold, true);
  pass(repeat, false);
  return { cold, repeat, rankings };
}
