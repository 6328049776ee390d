/**
 * A term's impacts: its saturated BM25F weight per slot that has it, and in which kinds of field
 * (IMPACT_* bits). Made by the scorer (bm25f-scorer.ts), kept by its cache (impact-cache.ts), read
 * by the re-rank's facts (candidate-facts.ts).
 */
export const IMPACT_OUTSIDE_VALUE = 1;
export const IMPACT_DESCRIPTION = 2;
export const IMPACT_PARAMETER_NAME = 4;
/** In the tool's name and not in its server's name (`slack_get_users`: get and users, not slack). */
export const IMPACT_OWN_NAME = 8;
/** An entry is `slot << IMPACT_FLAG_BITS | IMPACT_* bits` (postings, `slot << FIELD_BITS | field`, already keep slots below 2^27). */
export const IMPACT_FLAG_BITS = 4;
export const IMPACT_FLAG_MASK = (1 << IMPACT_FLAG_BITS) - 1;

/**
 * A term's saturated weight per slot that has it, and in which kinds of field: `entries[i]` packs
 * the slot and its IMPACT_* bits, `values[i]` is the weight. The slot and its bits in one array:
 * the re-rank's gather reads only `entries`, one stream per term instead of two.
 */
export interface Impacts {
  entries: Int32Array;
  values: Float32Array;
  /** The entries' count, which is also both arrays' length (ImpactMaker makes them exactly that long). */
  length: number;
  version: number;
  /**
   * Entries in ascending slot order, so ascending as numbers (the re-rank's gather may search
   * them). True for an index built once; a tool that took a reused slot is appended to its
   * terms' postings after higher slots.
   */
  sorted: boolean;
  /**
   * The impact cache's mark (impact-cache.ts): 1 when used since its clock hand last passed the
   * term. Kept here, on the object a query reads anyway, rather than in a table by term id (a
   * cache line more per query term).
   */
  used: number;
}
