/**
 * The ranking's per-term impacts worked out ahead of use (ToolSearchIndex.precomputeImpacts), off
 * the queries: what a peer engine does at build, here after SearchSync's catch-up, in slices of at
 * most `sliceMs` with the thread given back before each (the first yield comes before any work, so
 * the searches the catch-up just released run first). Given up at the first slice `wanted()` says
 * no to (the index changed or is about to). A pool whose impacts all fit in a quarter of their
 * cache's budget has them all worked out; a larger one its most frequent terms' within that quarter
 * (impact-maker.ts). Terms no change touched since their impacts were worked out are only marked current.
 */
import type { ToolSearchIndex } from "../search/tool-search-index.ts";

/** Impact entries worked out between two readings of the clock in a slice (well under 1 ms at 7.1k tools). */
export const IMPACT_SWEEP_STEP = 1024;

export interface ImpactSweepStats {
  /** Sweep slices run, sweeps finished and sweeps given up. */
  impactSlices: number;
  impactSweeps: number;
  impactAbandoned: number;
}

/** How a sweep ended: every term's impacts worked out, given up for a change, or failed. */
export interface ImpactSweepEvent {
  phase: "impacts";
  ms: number;
  slices: number;
  outcome: "done" | "abandoned" | "failed";
  error?: string;
}

export interface ImpactSweepRun {
  index: ToolSearchIndex;
  sliceMs: number;
  step: number;
  yieldThread: () => Promise<void>;
  now: () => number;
  /** Asked before each slice: false gives the sweep up. */
  wanted: () => boolean;
  stats: ImpactSweepStats;
}

/** Sweeps `run.index`; never rejects (a failure is reported: the index serves as it is, queries work out their own impacts). */
export async function sweepImpacts(run: ImpactSweepRun): Promise<ImpactSweepEvent> {
  const started = run.now();
  let slices = 0;
  const end = (outcome: ImpactSweepEvent["outcome"], error?: unknown): ImpactSweepEvent => ({
    phase: "impacts",
    ms: Math.round(run.now() - started),
    slices,
    outcome,
    ...(error !== undefined && { error: error instanceof Error ? error.message : String(error) }),
  });
  try {
    for (;;) {
      await run.yieldThread();
      if (!run.wanted()) {
        run.stats.impactAbandoned++;
        return end("abandoned");
      }
      const deadline = run.now() + run.sliceMs;
      let done = run.index.precomputeImpacts(run.step);
      while (!done && run.now() < deadline) done = run.index.precomputeImpacts(run.step);
      slices++;
      run.stats.impactSlices++;
      if (done) {
        run.stats.impactSweeps++;
        return end("done");
      }
    }
  } catch (error) {
    return end("failed", error);
  }
}
