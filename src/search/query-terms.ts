import type { QueryTerm, StandIn } from "./bm25f-scorer.ts";
import type { IdMap } from "./id-map.ts";
import type { InvertedIndex } from "./inverted-index.ts";
import type { RankingOptions } from "./ranking-options.ts";
import { isCjkTerm } from "./tokenizer.ts";
import { REVERSE_TERM } from "./fields.ts";
import { actionCode, contradictedBy } from "./opposite-actions.ts";
import type { QueryExpansion } from "./query-expansion.ts";
import { INSERTION_SORT_MAX, newStandIn, newTerm, QueryScratch, type PoolTerm, type PreparedQuery, type QueryTokens, type StandInSource } from "./query-scratch.ts";
import { termFlags, TERM_ACTION_SHIFT, TERM_CJK, TERM_REVERSE, TERM_VALUE } from "./term-flags.ts";

// The query's types and scratch (query-scratch.ts) and the terms' flags (term-flags.ts), from here as before.
export { QueryScratch, type PreparedQuery, type QueryTokens, type StandInSource } from "./query-scratch.ts";
export { termFlags, TERM_ACTION_SHIFT, TERM_CJK, TERM_REVERSE, TERM_VALUE } from "./term-flags.ts";

/** Required words beyond this many are treated as optional (one bit each in a Uint32). */
const MAX_REQUIRED_TERMS = 31;
/** A CJK-only match needs this many matching bigrams (seed 000), or all of a shorter query's. */
const CJK_MIN_BIGRAM_MATCHES = 2;
/** Most synonyms of query terms one query credits (a pasted page has many terms). */
const MAX_STAND_INS = 8;

/** The query's terms as the index has them; the answer is the scratch's, valid until its next use. */
export function prepareQuery(
  index: InvertedIndex,
  tokens: QueryTokens,
  options: RankingOptions,
  scratch = new QueryScratch(),
  synonyms?: StandInSource,
  expansion?: QueryExpansion,
): PreparedQuery {
  const { entryOf, pairOf, none, sequence, actionTerms, actionCodes, query } = scratch;
  const entries = scratch.terms;
  entries.length = 0;
  let cjkTerms: Set<string> | undefined;
  const total = Math.max(index.liveCount, 1);
  try {
    let asksReverse = false;
    // Ids the tokenizer found hold while the dictionary has not grown since (terms are never dropped).
    const ids = tokens.textIds !== undefined && tokens.idsAt === index.terms.length ? tokens.textIds : undefined;
    const flagsOf = tokens.textFlags;
    const skipAt = tokens.answer !== undefined && options.answerType > 0 ? tokens.answer.skipAt : -1;
    for (let i = 0; i < tokens.text.length; i++) {
      const term = tokens.text[i]!;
      if (i === skipAt) {
        sequence.push(none);
        continue;
      }
      const flags = flagsOf !== undefined ? flagsOf[i]! : termFlags(term);
      const cjk = (flags & TERM_CJK) !== 0;
      if (cjk) (cjkTerms ??= new Set()).add(term);
      const entry = termFor(index, scratch, total, term, cjk, ids === undefined ? -2 : (ids[i] ?? -2));
      sequence.push(entry);
      if ((flags & TERM_REVERSE) !== 0) asksReverse = true;
      if (entry === none) continue;
      // A number or a relative date is a value the request passes: weighed numberWeight.
      entry.weight = (flags & TERM_VALUE) !== 0 ? options.numberWeight : 1;
      const code = flags >>> TERM_ACTION_SHIFT;
      if (code !== 0) {
        actionTerms.push(entry);
        actionCodes.push(code);
      }
    }

    const added = expansion === undefined ? 0 : expansion.expand(index, entries, tokens.text, ids, tokens.answer, options);
    for (let k = 0; k < added; k++) {
      const entry = termFor(index, scratch, total, "", false, expansion!.ids[k]!);
      if (entry !== none && entry.weight < expansion!.weights[k]!) entry.weight = expansion!.weights[k]!;
    }
    let requiredAll = 0;
    let impossible = false;
    let bit = 0;
    for (const word of tokens.required) {
      if (word.includes(REVERSE_TERM)) asksReverse = true;
      for (const term of word) {
        if (bit >= MAX_REQUIRED_TERMS) break;
        const cjk = isCjkTerm(term);
        if (cjk) (cjkTerms ??= new Set()).add(term);
        const entry = termFor(index, scratch, total, term, cjk, -2);
        if (entry === none) {
          impossible = true;
          continue;
        }
        entry.weight = 1;
        entry.requiredBit |= 1 << bit;
        requiredAll |= 1 << bit;
        bit++;
        const code = actionCode(term);
        if (code !== 0) {
          actionTerms.push(entry);
          actionCodes.push(code);
        }
      }
    }

    const terms = capTerms(entries, options.maxQueryTerms, scratch);
    // entryOf now says which terms are kept (> 0; 0: dropped by the cap), and each term where it
    // stands in `terms` (`at`, -1: dropped).
    if (terms.length < entries.length) {
      for (const entry of entries) {
        entryOf.set(entry.id, 0);
        entry.at = -1;
      }
      for (let t = 0; t < terms.length; t++) entryOf.set(terms[t]!.id, t + 1);
    }
    for (let t = 0; t < terms.length; t++) terms[t]!.at = t;
    const positions = terms.length;
    const { pairKeys, pairWeights } = query;
    pairKeys.length = 0;
    pairWeights.length = 0;
    for (let i = 0; i + 1 < sequence.length; i++) {
      const first = sequence[i]!;
      const second = sequence[i + 1]!;
      if (first === second) continue;
      // `none` and a term the cap dropped stand nowhere (-1).
      const a = first.at;
      const b = second.at;
      if (a < 0 || b < 0) continue;
      const key = a * positions + b;
      if (pairOf.get(key) !== 0) continue;
      pairOf.set(key, 1);
      pairKeys.push(key);
      pairWeights.push((first.idf + second.idf) / 2);
    }
    let totalIdf = 0;
    for (const term of terms) {
      term.weightedIdf = term.idf * term.weight;
      totalIdf += term.weightedIdf;
    }
    // The actions the kept terms say, and the sides they contradict.
    let said = 0;
    for (let i = 0; i < actionTerms.length; i++) if (actionTerms[i]!.at >= 0) actionCodes[said++] = actionCodes[i]!;
    const leading = sequence.length > 0 ? sequence[0]! : none;
    query.standIns.length = 0;
    if (synonyms !== undefined && options.synonymCoverage > 0) standInsOf(terms, synonyms, index, entryOf, options, query.standIns, scratch.standInPool);
    query.terms = terms;
    query.totalIdf = totalIdf;
    query.requiredAll = requiredAll;
    query.impossible = impossible;
    query.cjkMinimum = Math.min(CJK_MIN_BIGRAM_MATCHES, cjkTerms?.size ?? 0);
    query.leadingTerm = leading.at >= 0 ? leading.id : -1;
    query.asksReverse = asksReverse;
    query.contradicted = contradictedBy(actionCodes, said, scratch.contradicted);
    query.valueParameterTerms = tokens.valueParameters.length === 0 ? scratch.noIds : knownIds(index, tokens.valueParameters, undefined, scratch.valueIds);
    query.givenTerms = tokens.given.length === 0 ? scratch.noIds : knownIds(index, tokens.given, entryOf, scratch.givenIds);
    return query;
  } finally {
    entryOf.clear();
    pairOf.clear();
    sequence.length = 0;
    actionTerms.length = 0;
    actionCodes.length = 0;
  }
}

/**
 * The query's entry for `term` (found among the scratch's terms, or added from its pool), or
 * `scratch.none` when the index has no tool with it. `known` is its id as the parse found it, -1
 * for none, -2 when not known.
 */
function termFor(index: InvertedIndex, scratch: QueryScratch, total: number, term: string, cjk: boolean, known: number): PoolTerm {
  const id = known === -2 ? (index.termId(term) ?? -1) : known;
  if (id < 0) return scratch.none;
  const entries = scratch.terms;
  const at = scratch.entryOf.get(id);
  if (at > 0) return entries[at - 1]!;
  const frequency = index.documentFrequency[id]!;
  if (frequency <= 0) return scratch.none;
  const idf = Math.log(1 + (total - frequency + 0.5) / (frequency + 0.5));
  const n = entries.length;
  let entry: PoolTerm;
  if (n < scratch.pool.length) {
    entry = scratch.pool[n]!;
    entry.id = id;
    entry.idf = idf;
    entry.weight = 0;
    entry.weightedIdf = 0;
    entry.requiredBit = 0;
    entry.cjk = cjk;
  } else {
    entry = newTerm(id, idf, cjk);
    scratch.pool.push(entry);
  }
  entries.push(entry);
  scratch.entryOf.set(id, n + 1);
  return entry;
}

/** Distinct ids of the indexed terms among `terms`, in order, into `ids`; only kept query terms when `kept` is given. */
function knownIds(index: InvertedIndex, terms: readonly string[], kept: IdMap | undefined, ids: number[]): number[] {
  ids.length = 0;
  for (const term of terms) {
    const id = index.termId(term);
    if (id === undefined || (kept !== undefined && kept.get(id) === 0) || ids.includes(id)) continue;
    ids.push(id);
  }
  return ids;
}

/**
 * Stand-ins of the full-weight terms (numbers and dates are values, not words to paraphrase),
 * rarest term first, at most MAX_STAND_INS. Left out: a stand-in that is itself a query term (it
 * has its own share), and one in more than `frequentTermShare` of the tools and more than
 * `candidates` (weak evidence, and the re-rank reads each stand-in's postings). `entryOf` marks the query's terms (position + 1).
 */
function standInsOf(terms: readonly QueryTerm[], synonyms: StandInSource, index: InvertedIndex, entryOf: IdMap, options: RankingOptions, standIns: StandIn[], pool: StandIn[]): StandIn[] {
  const coverage = options.synonymCoverage;
  // As in the first stage, a small pool is read in full: only past `candidates` tools is a term frequent.
  const frequent = Math.max(options.candidates, options.frequentTermShare * index.liveCount);
  for (let t = 0; t < terms.length; t++) {
    const term = terms[t]!;
    if (term.weight < 1) continue;
    const near = synonyms(term.id);
    if (near === undefined) continue;
    for (const id of near) {
      const frequency = index.documentFrequency[id]!;
      if (entryOf.get(id) > 0 || frequency <= 0 || frequency > frequent) continue;
      // Objects reused from query to query (the answer is valid until the next prepareQuery).
      if (standIns.length === pool.length) pool.push(newStandIn());
      const standIn = pool[standIns.length]!;
      standIn.id = id;
      standIn.source = term.id;
      standIn.sourceAt = t;
      standIn.credit = coverage * term.idf * term.weight;
      standIns.push(standIn);
      if (standIns.length === MAX_STAND_INS) return standIns;
    }
  }
  return standIns;
}

/** At most `limit` terms, the highest IDF first; required terms are always kept. */
function capTerms(terms: PoolTerm[], limit: number, scratch: QueryScratch): PoolTerm[] {
  sortByIdf(terms, scratch);
  if (terms.length <= limit) return terms;
  const required = terms.filter((term) => term.requiredBit !== 0);
  const optional = terms.filter((term) => term.requiredBit === 0);
  return [...required, ...optional.slice(0, Math.max(0, limit - required.length))];
}

/**
 * byIdf order. A typical query has a dozen terms: an insertion sort of their keys (IDF, id) in
 * typed arrays, then each term put once where it goes, costs less than a call into the native
 * sort with a comparator, and than moving the terms themselves (a pointer store into an array is
 * a write barrier); a pasted page's many terms go to the native sort. byIdf is a total order
 * (term ids differ), so both give the same order.
 */
function sortByIdf(terms: PoolTerm[], scratch: QueryScratch): void {
  const count = terms.length;
  if (count > INSERTION_SORT_MAX) {
    terms.sort(byIdf);
    return;
  }
  const { sortIdf, sortId, sortFrom, sortHeld } = scratch;
  for (let i = 0; i < count; i++) {
    const term = terms[i]!;
    const idf = term.idf;
    const id = term.id;
    let at = i;
    // While byIdf(the one before, term) > 0: term has the higher IDF, or the same and the lower id.
    for (; at > 0 && (idf > sortIdf[at - 1]! || (idf === sortIdf[at - 1]! && id < sortId[at - 1]!)); at--) {
      sortIdf[at] = sortIdf[at - 1]!;
      sortId[at] = sortId[at - 1]!;
      sortFrom[at] = sortFrom[at - 1]!;
    }
    sortIdf[at] = idf;
    sortId[at] = id;
    sortFrom[at] = i;
    if (i === sortHeld.length) sortHeld.push(term);
    else sortHeld[i] = term;
  }
  for (let i = 0; i < count; i++) if (sortFrom[i] !== i) terms[i] = sortHeld[sortFrom[i]!]!;
}

function byIdf(a: QueryTerm, b: QueryTerm): number {
  return b.idf - a.idf || a.id - b.id;
}
