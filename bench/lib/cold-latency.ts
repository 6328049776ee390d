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
 * Cold latency: every engine warmed on the same unrelated queries, then `rounds` times: query
 * caches emptied, each distinct query asked once of each engine (a cache miss), the order of
 * engines alternating per query so neither always runs right after a collection the other
 * caused; then the same queries again (cache hits). Per query the median over rounds is kept:
 * on a shared machine one round's p99 is mostly the scheduler. `firstRound` keeps round one
 * alone. Word→stem caches (both engines have one) stay warm after round one.
 */
export function measureLatency(
  engines: readonly TimedEngine[],
  warmUp: readonly string[],
  queries: readonly string[],
  rounds = 5,
): { cold: Map<string, number[]>; firstRound: Map<string, number[]>; repeat: Map<string, number[]>; rankings: Map<string, string[][]> } {
  const distinct = [...new Set(queries)];
  for (const engine of engines) for (const text of warmUp) engine.query(text);
  const perRound = (): Map<string, number[][]> => new Map(engines.map((engine) => [engine.name, distinct.map(() => [] as number[])]));
  const cold = perRound();
  const repeat = perRound();
  const rankings = new Map(engines.map((engine) => [engine.name, [] as string[][]]));
  const pass = (into: Map<string, number[][]>, keep: boolean) => {
    distinct.forEach((text, i) => {
      for (let j = 0; j < engines.length; j++) {
        const engine = engines[(i + j) % engines.length]!;
        const start = Bun.nanoseconds();
        const ranked = engine.query(text);
        into.get(engine.name)![i]!.push((Bun.nanoseconds() - start) / 1e6);
        if (keep) rankings.get(engine.name)!.push(ranked);
      }
    });
  };
  for (let round = 0; round < rounds; round++) {
    for (const engine of engines) engine.clearCache?.();
    Bun.gc(true);
    pass(cold, round === 0);
    pass(repeat, false);
  }
  const medians = (samples: Map<string, number[][]>) =>
    new Map([...samples].map(([name, rows]) => [name, rows.map((row) => row.sort((a, b) => a - b)[row.length >> 1]!)]));
  const firstRound = new Map([...cold].map(([name, rows]) => [name, rows.map((row) => row[0]!)]));
  return { cold: medians(cold), firstRound, repeat: medians(repeat), rankings };
}
