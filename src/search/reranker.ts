import { FIELD_BITS, FIELD_ID } from "./fields.ts";
import type { InvertedIndex } from "./inverted-index.ts";
import { PAIR_BASE, type PreparedQuery } from "./query-terms.ts";
import type { RankingOptions } from "./ranking-options.ts";
import type { ServerMention } from "./server-mention.ts";

const PARAMETER_NAME = FIELD_ID.parameterName;

export interface Candidate {
  slot: number;
  score: number;
}

/**
 * Second stage over the first-stage top candidates (re-scored in place, then sorted), with evidence a bag of words cannot see:
 * query word pairs that occur adjacent, in order, in the description (a phrase is rarer, and
 * more telling, than its words), and how much of the query the tool covers.
 */
export function rerank(
  candidates: Candidate[],
  query: PreparedQuery,
  index: InvertedIndex,
  options: RankingOptions,
  idfByTerm: Float64Array,
  bits: Uint32Array,
  mention?: ServerMention,
): Candidate[] {
  if (candidates.length === 0) return candidates;
  const coverageWeight =
    query.totalIdf > 0 ? options.coverage * Math.min(1, options.coverageFadeTerms / Math.max(1, query.idfById.size)) : 0;
  const k1 = options.k1;
  const takesGiven = options.givenParameter > 0 && query.givenTerms.length > 0 ? parameterSlots(index, query.givenTerms) : undefined;
  const takesValue = options.valueParameter > 0 && query.valueParameterTerms.length > 0 ? parameterSlots(index, query.valueParameterTerms) : undefined;
  const valueWeight = options.weights.parameterValue;
  for (const candidate of candidates) {
    const slot = candidate.slot;
    let total = candidate.score;
    // The slot's terms are a range of the index's arena: distinct terms [base, distinct), then the description's.
    const terms = index.slotTermArena;
    const base = index.slotTermStart[slot]!;
    const end = base + index.slotTermCount[slot]!;
    const distinct = base + index.distinctCounts[slot]!;
    if (options.descriptionPhrase > 0 && query.pairs.size > 0) {
      total += options.descriptionPhrase * pairWeight(terms, distinct, end, query.pairs, idfByTerm, bits);
    }
    const outside = base + index.outsideValueCounts[slot]!;
    const filter = index.readerNamed[slot] === 1;
    const valueOnly = outside < distinct ? matchedIdf(terms, outside, distinct, idfByTerm, bits) : 0;
    // The query's verb (its first word) met as a reading tool's enum value is a filter, not what
    // the tool does: take back most of what it added in the first stage and in coverage.
    const verbIdf = filter && valueOnly > 0 && query.leadingTerm >= 0 && contains(terms, outside, distinct, query.leadingTerm) ? idfByTerm[query.leadingTerm]! : 0;
    if (verbIdf > 0) total -= (1 - options.filterValue) * verbIdf * (k1 + 1) * (valueWeight / (k1 + valueWeight));
    if (coverageWeight > 0) {
      let matched = matchedIdf(terms, base, outside, idfByTerm, bits);
      matched += (valueOnly - verbIdf) * options.valueCoverage + verbIdf * options.filterValue;
      // A member has the mention by membership: its own use of the words does not count again.
      if (mention !== undefined && mention.isMember(slot)) matched += mention.idf - mentionIdfIn(terms, base, distinct, mention, idfByTerm);
      const share = Math.min(1, matched / query.totalIdf);
      total *= 1 + coverageWeight * share ** options.coverageExponent;
    }
    if (mention !== undefined && options.serverBoost > 0 && mention.isMember(slot)) total *= 1 + options.serverBoost;
    if (options.unaskedReverse < 1 && !query.asksReverse && index.reverseNamed[slot] === 1) total *= options.unaskedReverse;
    if (takesGiven?.has(slot)) total *= 1 + options.givenParameter;
    if (takesValue?.has(slot)) total *= 1 + options.valueParameter;
    candidate.score = total;
  }
  candidates.sort(byScore);
  return candidates;
}

function byScore(a: Candidate, b: Candidate): number {
  return b.score - a.score || a.slot - b.slot;
}

/** Slots that have one of `termIds` in a parameter name. */
function parameterSlots(index: InvertedIndex, termIds: readonly number[]): Set<number> {
  const slots = new Set<number>();
  const mask = (1 << FIELD_BITS) - 1;
  for (const id of termIds) {
    const postings = index.postings[id]!;
    const length = index.postingLengths[id]!;
    for (let i = 0; i < length; i++) {
      const entry = postings[i]!;
      if ((entry & mask) === PARAMETER_NAME) slots.add(entry >>> FIELD_BITS);
    }
  }
  return slots;
}

/**
 * A 2,048-bit filter of the query's term ids (bit `id & 2047`), set beside `idfByTerm`. The
 * re-rank reads every term of up to `candidates` tools; the filter (256 bytes, always in cache)
 * answers "not a query term" for almost all of them without a load from the vocabulary-sized
 * IDF array, which at 40k terms misses the cache on nearly every read.
 */
export const QUERY_BITS_WORDS = 64;

export function markQueryTerm(bits: Uint32Array, id: number): void {
  bits[(id >>> 5) & (QUERY_BITS_WORDS - 1)]! |= 1 << (id & 31);
}

function mayBeQueryTerm(bits: Uint32Array, id: number): boolean {
  return (bits[(id >>> 5) & (QUERY_BITS_WORDS - 1)]! & (1 << (id & 31))) !== 0;
}

/** IDF sum of the query terms among a tool's distinct terms `terms[start, end)`; `idfByTerm` is zero for other terms. */
function matchedIdf(terms: Int32Array, start: number, end: number, idfByTerm: Float64Array, bits: Uint32Array): number {
  let total = 0;
  for (let i = start; i < end; i++) {
    const id = terms[i]!;
    if (mayBeQueryTerm(bits, id)) total += idfByTerm[id]!;
  }
  return total;
}

/** IDF mass of the distinct query pairs that occur adjacent, in order, in `terms[start, end)`. */
function pairWeight(
  terms: Int32Array,
  start: number,
  end: number,
  pairs: ReadonlyMap<number, number>,
  idfByTerm: Float64Array,
  bits: Uint32Array,
): number {
  let total = 0;
  let seen: number[] | undefined;
  for (let i = start; i + 1 < end; i++) {
    // Both words must be query words before the pair is worth a map lookup.
    if (!mayBeQueryTerm(bits, terms[i + 1]!) || !mayBeQueryTerm(bits, terms[i]!)) continue;
    if (idfByTerm[terms[i]!] === 0 || idfByTerm[terms[i + 1]!] === 0) continue;
    const key = terms[i]! * PAIR_BASE + terms[i + 1]!;
    const weight = pairs.get(key);
    if (weight === undefined || seen?.includes(key)) continue;
    (seen ??= []).push(key);
    total += weight;
  }
  return total;
}

/** IDF of the mention's terms that a tool's distinct terms `terms[start, end)` contain. */
function mentionIdfIn(terms: Int32Array, start: number, end: number, mention: ServerMention, idfByTerm: Float64Array): number {
  let total = 0;
  for (const id of mention.termIds) {
    for (let i = start; i < end; i++) {
      if (terms[i] !== id) continue;
      total += idfByTerm[id]!;
      break;
    }
  }
  return total;
}


function contains(terms: Int32Array, start: number, end: number, id: number): boolean {
  for (let i = start; i < end; i++) if (terms[i] === id) return true;
  return false;
}
