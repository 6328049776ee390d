/** How many matches a search answers when not told, and the most it answers. */
export const DEFAULT_MAX_RESULTS = 5;
export const MAX_RESULTS_LIMIT = 100;

/** A caller's `maxResults` as a whole number in 1..MAX_RESULTS_LIMIT (DEFAULT_MAX_RESULTS when absent). */
export function clampMaxResults(value: number | undefined): number {
  if (value === undefined || !Number.isFinite(value)) return DEFAULT_MAX_RESULTS;
  return Math.min(MAX_RESULTS_LIMIT, Math.max(1, Math.floor(value)));
}
