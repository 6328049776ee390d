/** Nearest-rank percentile of unsorted samples (p in 0..100). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return 0;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function mean(samples: readonly number[]): number {
  return samples.length === 0 ? 0 : samples.reduce((sum, value) => sum + value, 0) / samples.length;
}

/** Rounds for JSON output: enough digits to compare runs, no float noise. */
export function round(value: number, digits = 4): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** Resident set size in MiB, after a collection so garbage does not count. */
export function rssMiB(): number {
  Bun.gc(true);
  return round(process.memoryUsage().rss / 2 ** 20, 1);
}

export function heapUsedMiB(): number {
  Bun.gc(true);
  return round(process.memoryUsage().heapUsed / 2 ** 20, 1);
}
