/** How many matches a search answers when not told, and the most it answers. */
export const DEFAULT_MAX_RESULTS = 5;
export const MAX_RESULTS_LIMIT = 100;

/** Adds members to `found` (pool order, no repeats) until a selection is full; how many of them it holds. */
export function addUpTo(found: string[], members: Iterable<string>): number {
  let selected = 0;
  for (const member of members) {
    if (found.length >= MAX_RESULTS_LIMIT && !found.includes(member)) break;
    if (!found.includes(member)) found.push(member);
    selected++;
  }
  return selected;
}

/** A caller's `maxResults` as a whole number in 1..MAX_RESULTS_LIMIT (DEFAULT_MAX_RESULTS when absent). */
export function clampMaxResults(value: number | undefined): number {
  if (value === undefined || !Number.isFinite(value)) return DEFAULT_MAX_RESULTS;
  return Math.min(MAX_RESULTS_LIMIT, Math.max(1, Math.floor(value)));
}
