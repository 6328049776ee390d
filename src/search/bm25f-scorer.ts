import { FIELD_BITS, FIELD_COUNT, FIELDS } from "./fields.ts";
import type { InvertedIndex } from "./inverted-index.ts";
import type { RankingOptions } from "./ranking-options.ts";

// Postings pack `slot << FIELD_BITS | field`, which doubles as the index into `norms`.
if (FIELD_COUNT !== 1 << FIELD_BITS) throw new Error("FIELD_COUNT must equal 1 << FIELD_BITS");

export interface QueryTerm {
  id: number;
  idf: number;
  /** Query-side weight of the term (repeats, or down-weighting). */
  weight: number;
  /** One bit per required word this term belongs to; 0 when optional. */
  requiredBit: number;
  cjk: boolean;
}

/**
 * First-stage BM25F, term at a time: per-field frequencies are length-normalised and weighted into
 * one pseudo-frequency per (term, tool), saturated once with k1. Scores and match facts accumulate
 * into reusable typed arrays; `touched` lists the slots that scored, so a reset costs only those.
 */
export class Bm25fScorer {
  scores = new Float32Array(0);
  /** Sum of IDF of the distinct query terms each slot matched. */
  matchedIdf = new Float32Array(0);
  requiredMask = new Uint32Array(0);
  cjkMatches = new Uint8Array(0);
  otherMatches = new Uint8Array(0);
  touched = new Int32Array(0);
  touchedCount = 0;
  private norms = new Float32Array(0);
  private normVersion = -1;

  constructor(private readonly options: RankingOptions) {}

  run(index: InvertedIndex, terms: readonly QueryTerm[]): void {
    this.reset();
    this.ensureCapacity(index.slotCount);
    if (this.normVersion !== index.version) this.refreshNorms(index);
    const { scores, matchedIdf, requiredMask, cjkMatches, otherMatches, touched, norms } = this;
    const k1 = this.options.k1;
    let touchedCount = 0;
    for (const term of terms) {
      const postings = index.postings[term.id]!;
      const frequencies = index.frequencies[term.id]!;
      const length = index.postingLengths[term.id]!;
      const scale = term.weight * term.idf * (k1 + 1);
      let current = -1;
      let pseudo = 0;
      for (let i = 0; i <= length; i++) {
        const packed = i < length ? postings[i]! : -1;
        const slot = packed >>> FIELD_BITS;
        if (slot === current) {
          pseudo += norms[packed]! * frequencies[i]!;
          continue;
        }
        if (current >= 0 && pseudo > 0) {
          const before = scores[current]!;
          if (before === 0) touched[touchedCount++] = current;
          scores[current] = before + (scale * pseudo) / (k1 + pseudo);
          matchedIdf[current] = matchedIdf[current]! + term.idf;
          requiredMask[current] = requiredMask[current]! | term.requiredBit;
          if (term.cjk) cjkMatches[current] = cjkMatches[current]! + 1;
          else otherMatches[current] = 1;
        }
        if (packed < 0) break;
        current = slot;
        pseudo = norms[packed]! * frequencies[i]!;
      }
    }
    this.touchedCount = touchedCount;
  }

  private reset(): void {
    for (let i = 0; i < this.touchedCount; i++) {
      const slot = this.touched[i]!;
      this.scores[slot] = 0;
      this.matchedIdf[slot] = 0;
      this.requiredMask[slot] = 0;
      this.cjkMatches[slot] = 0;
      this.otherMatches[slot] = 0;
    }
    this.touchedCount = 0;
  }

  private ensureCapacity(slots: number): void {
    if (this.scores.length >= slots) return;
    const size = Math.max(slots, this.scores.length * 2, 64);
    this.scores = new Float32Array(size);
    this.matchedIdf = new Float32Array(size);
    this.requiredMask = new Uint32Array(size);
    this.cjkMatches = new Uint8Array(size);
    this.otherMatches = new Uint8Array(size);
    this.touched = new Int32Array(size);
    this.norms = new Float32Array(size * FIELD_COUNT);
    this.normVersion = -1;
  }

  /** Per slot and field: weight / (1 − b + b · length / average length); zero for dead slots. */
  private refreshNorms(index: InvertedIndex): void {
    const weights = FIELDS.map((field) => this.options.weights[field]);
    const bs = FIELDS.map((field) => this.options.lengthNormalization[field]);
    const averages = FIELDS.map((_, field) =>
      index.liveCount > 0 ? index.fieldLengthSums[field]! / index.liveCount : 0,
    );
    const { norms } = this;
    const lengths = index.fieldLengths;
    for (let slot = 0; slot < index.slotCount; slot++) {
      const alive = index.alive[slot] === 1;
      for (let field = 0; field < FIELD_COUNT; field++) {
        const at = slot * FIELD_COUNT + field;
        const average = averages[field]!;
        const b = bs[field]!;
        norms[at] = !alive
          ? 0
          : average > 0
            ? weights[field]! / (1 - b + (b * lengths[at]!) / average)
            : weights[field]!;
      }
    }
    this.normVersion = index.version;
  }
}
