/**
 * A full garbage collection after every `every` tools indexed. Indexing leaves garbage behind
 * (outgrown posting arrays, the documents the caller made and dropped, the tokenizer's strings),
 * and the collector, left alone, runs later than the next allocations: at 100k tools a bulk
 * build peaked ~80 MiB above what the index holds. One collection per 10k tools cost ~40 ms each
 * at 100k (~0.4 s over a ~2–3 s build) and brought the peak down to near what is kept. Pools
 * under `every` tools never pay for it.
 */
export const COLLECT_EVERY_ADDS = 10_000;

export type Collect = () => void;

/** Bun's synchronous full collection; nothing where there is no Bun (the index stays usable). */
export const fullCollection: Collect = () => {
  if (typeof Bun !== "undefined") Bun.gc(true);
};

export class BuildCollector {
  private adds = 0;

  constructor(
    private readonly collect: Collect = fullCollection,
    private readonly every: number = COLLECT_EVERY_ADDS,
  ) {
    if (!(every >= 1)) throw new Error(`BuildCollector: every must be at least 1, got ${every}`);
  }

  /** Counts one indexed tool; collects when `every` have been indexed since the last collection. */
  added(): void {
    if (++this.adds < this.every) return;
    this.adds = 0;
    this.collect();
  }
}
