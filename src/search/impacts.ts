/**
 * A term's impacts: its saturated BM25F weight per slot that has it, and in which kinds of field
 * (IMPACT_* bits). Made by the scorer (bm25f-scorer.ts), kept by its cache (impact-cache.ts), read
 * by the re-rank's facts (candidate-facts.ts).
 */
export const IMPACT_OUTSIDE_VALUE = 1;
export const IMPACT_DESCRIPTION = 2;
export const IMPACT_PARAMETER_NAME = 4;

/** A term's saturated weight per slot that has it, and in which kinds of field (IMPACT_* bits). */
export interface Impacts {
  slots: Int32Array;
  values: Float32Array;
  flags: Uint8Array;
  length: number;
  version: number;
}
