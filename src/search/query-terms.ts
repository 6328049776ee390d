import type { QueryTerm, StandIn } from "./bm25f-scorer.ts";
import { IdMap } from "./id-map.ts";
import type { InvertedIndex } from "./inverted-index.ts";
import type { RankingOptions } from "./ranking-options.ts";
import { isCjkTerm } from "./tokenizer.ts";
import { REVERSE_TERM } from "./fields.ts";
import { ACTION_CODE, actionCode, contradictedBy } from "./opposite-actions.ts";
import type { AnswerAsked } from "./answer-types.ts";
import type { QueryExpansion } from "./query-expansion.ts";

/**
 * Stemmed words of a relative date or time ("tomorrow", "on Friday", "this morning"): like a
 * number, a value the request passes (a date argument), rarely the capability it asks for.
 */
const RELATIVE_TIMES: ReadonlySet<string> = new Set([
  "todai", "tomorrow", "yesterdai", "tonight", "now", "morn", "afternoon",
  "mondai", "tuesdai", "wednesdai", "thursdai", "fridai", "saturdai", "sundai",
]);

/** Required words beyond this many are treated as optional (one bit each in a Uint32). */
const MAX_REQUIRED_TERMS = 31;
/** A CJK-only match needs this many matching bigrams (seed 000), or all of a shorter query's. */
const CJK_MIN_BIGRAM_MATCHES = 2;
/** Most synonyms of query terms one query credits (a pasted page has many terms). */
const MAX_STAND_INS = 8;
/** Query terms sorted by insertion up to this many (sortByIdf). */
const INSERTION_SORT_MAX = 32;

/** Tokens of a keyword query, before they meet an index. Cached per query string. */
export interface QueryTokens {
  /** Free-text terms in query order (stop words gone), for phrase features. */
  text: readonly string[];
  /** Their ids in the index's dictionary when it held `idsAt` terms (-1: not there); absent when unknown. */
  textIds?: readonly number[];
  idsAt?: number;
  /** Their termFlags, when known (query-words.ts keeps them per word): the terms' strings are then not read. */
  textFlags?: readonly number[];
  /** Terms of each `+required` word. */
  required: readonly (readonly string[])[];
  /** Terms of the words the request marks as given ("of this address"): see given-words.ts. */
  given: readonly string[];
  /** Parameter-name terms of the kinds of value the request carries (a URL, a path…): value-kinds.ts. */
  valueParameters: readonly string[];
  /** The question it asks ("who…", "how many…": answer-types.ts), when it asks one of a listed kind. */
  answer?: AnswerAsked;
}

/** A keyword query resolved against the current index. */
export interface PreparedQuery {
  terms: QueryTerm[];
  /**
   * Adjacent pairs of free-text terms, distinct, in the order the request says them first: each
   * keyed by the two terms' positions in `terms`, `first * terms.length + second` (a small
   * integer), and weighed by their mean IDF (`pairWeights`, index for index).
   */
  pairKeys: number[];
  pairWeights: number[];
  /**
   * Sum of `terms`' IDF times query weight, the denominator of the coverage share: a term the first
   * stage weighs less (a number) is that much less of the query a tool has to cover.
   */
  totalIdf: number;
  /** Mask a tool's required bits must equal. */
  requiredAll: number;
  /** A required word matches no indexed term, so nothing can match. */
  impossible: boolean;
  /** Minimum matching CJK terms for a tool that matches no other term; 0 when the query has no CJK. */
  cjkMinimum: number;
  /** The query says "reverse" (or "reversed", …): a tool named for the reverse direction is wanted. */
  asksReverse: boolean;
  /**
   * Action side codes (opposite-actions.ts) the request contradicts: a side whose opposite one of
   * `terms` says while none says the side itself. Empty for most requests.
   */
  contradicted: readonly number[];
  /** Term id of the query's first free-text word (an imperative's verb), or -1. */
  leadingTerm: number;
  /** Indexed term ids of the given words (what the user has, so what a fitting tool takes). */
  givenTerms: readonly number[];
  /** Indexed term ids of parameter names that take the values the request carries. */
  valueParameterTerms: readonly number[];
  /**
   * Synonyms of the query's terms (synonyms.ts), each with the term it stands in for, in runs by
   * source. They do not score in the first stage; a candidate that lacks the source term but has
   * a stand-in outside enum values is credited `credit` of coverage, once per source.
   */
  standIns: StandIn[];
}

/** Term id → ids of the terms that stand in for it (SynonymTable.standInsOf bound to an index). */
export type StandInSource = (id: number) => readonly number[] | undefined;


/**
 * Reusable per-ranker scratch for prepareQuery: term id → index + 1 of its entry in this query,
 * zero elsewhere (a small id map, id-map.ts, emptied after each use), the like for pairs, and the
 * answer's objects and arrays, reused from query to query so that a new query writes memory the
 * last one left in cache rather than fresh memory: an answer is valid until the next
 * prepareQuery with the same scratch.
 */
export class QueryScratch {
  readonly entryOf = new IdMap();
  /** Pair key → 1 once the pair is noted. */
  readonly pairOf = new IdMap();
  /**
   * A word the index does not have, in prepareQuery's sequence of the query's words: an object of
   * the same shape as a term, never changed, rather than undefined, which the optimised code of a
   * warm process may never have met (a query with an unknown word then left it, mid-query).
   */
  readonly none: QueryTerm = newTerm(-1, 0, false);
  /** Term objects handed out in order (terms[i] is pool[i] until the cap reorders them). */
  readonly pool: QueryTerm[] = [];
  readonly sequence: QueryTerm[] = [];
  /** The query's terms that say an action (opposite-actions.ts), and each one's side code. */
  readonly actionTerms: QueryTerm[] = [];
  readonly actionCodes: number[] = [];
  /** For a query with no given words, no value words: never written. */
  readonly noIds: readonly number[] = [];
  readonly query: PreparedQuery = {
    terms: [],
    pairKeys: [],
    pairWeights: [],
    totalIdf: 0,
    requiredAll: 0,
    impossible: false,
    cjkMinimum: 0,
    asksReverse: false,
    contradicted: [],
    leadingTerm: -1,
    givenTerms: this.noIds,
    valueParameterTerms: this.noIds,
    standIns: [],
  };
  /** The arrays `query` is handed each time (`terms` may be replaced by a capped copy). */
  readonly terms: QueryTerm[] = this.query.terms;
  readonly contradicted: number[] = [];
}

function newTerm(id: number, idf: number, cjk: boolean): QueryTerm {
  return { id, idf, weight: 0, weightedIdf: 0, requiredBit: 0, cjk };
}

/**
 * What prepareQuery asks of a term's string: a CJK term, a value (all digits, or a relative date
 * or time: RELATIVE_TIMES), the word "reverse", and above those bits the action side it says
 * (opposite-actions.ts' actionCode, 0 for none). A constant of the term alone, so a word's parse
 * may keep it (query-words.ts).
 */
export const TERM_CJK = 1;
export const TERM_VALUE = 2;
export const TERM_REVERSE = 4;
export const TERM_ACTION_SHIFT = 3;

/** The flags a term's string has by being a listed word (a relative time, an action's side): one lookup for both tables. */
const WORD_FLAGS: ReadonlyMap<string, number> = new Map([
  ...[...RELATIVE_TIMES].map((word): [string, number] => [word, TERM_VALUE]),
  ...[...ACTION_CODE].map(([word, code]): [string, number] => [word, (RELATIVE_TIMES.has(word) ? TERM_VALUE : 0) | (code << TERM_ACTION_SHIFT)]),
]);

export function termFlags(term: string): number {
  return (isCjkTerm(term) ? TERM_CJK : 0) | (allDigits(term) ? TERM_VALUE : 0) | (term === REVERSE_TERM ? TERM_REVERSE : 0) | (WORD_FLAGS.get(term) ?? 0);
}

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

    const terms = capTerms(entries, options.maxQueryTerms);
    // entryOf now says where each kept term stands in `terms` (0: dropped by the cap).
    if (terms.length < entries.length) for (const entry of entries) entryOf.set(entry.id, 0);
    for (let t = 0; t < terms.length; t++) entryOf.set(terms[t]!.id, t + 1);
    const positions = terms.length;
    const { pairKeys, pairWeights } = query;
    pairKeys.length = 0;
    pairWeights.length = 0;
    for (let i = 0; i + 1 < sequence.length; i++) {
      const first = sequence[i]!;
      const second = sequence[i + 1]!;
      if (first === none || second === none || first === second) continue;
      const a = entryOf.get(first.id) - 1;
      const b = entryOf.get(second.id) - 1;
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
    for (let i = 0; i < actionTerms.length; i++) if (entryOf.get(actionTerms[i]!.id) > 0) actionCodes[said++] = actionCodes[i]!;
    const leading = sequence.length > 0 ? sequence[0]! : none;
    query.standIns.length = 0;
    if (synonyms !== undefined && options.synonymCoverage > 0) standInsOf(terms, synonyms, index, entryOf, options, query.standIns);
    query.terms = terms;
    query.totalIdf = totalIdf;
    query.requiredAll = requiredAll;
    query.impossible = impossible;
    query.cjkMinimum = Math.min(CJK_MIN_BIGRAM_MATCHES, cjkTerms?.size ?? 0);
    query.leadingTerm = leading !== none && entryOf.get(leading.id) > 0 ? leading.id : -1;
    query.asksReverse = asksReverse;
    query.contradicted = contradictedBy(actionCodes, said, scratch.contradicted);
    query.valueParameterTerms = tokens.valueParameters.length === 0 ? scratch.noIds : knownIds(index, tokens.valueParameters, undefined);
    query.givenTerms = tokens.given.length === 0 ? scratch.noIds : knownIds(index, tokens.given, entryOf);
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
function termFor(index: InvertedIndex, scratch: QueryScratch, total: number, term: string, cjk: boolean, known: number): QueryTerm {
  const id = known === -2 ? (index.termId(term) ?? -1) : known;
  if (id < 0) return scratch.none;
  const entries = scratch.terms;
  const at = scratch.entryOf.get(id);
  if (at > 0) return entries[at - 1]!;
  const frequency = index.documentFrequency[id]!;
  if (frequency <= 0) return scratch.none;
  const idf = Math.log(1 + (total - frequency + 0.5) / (frequency + 0.5));
  const n = entries.length;
  let entry: QueryTerm;
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

/** Distinct ids of the indexed terms among `terms`, in order; only kept query terms when `kept` is given. */
function knownIds(index: InvertedIndex, terms: readonly string[], kept: IdMap | undefined): number[] {
  const ids: number[] = [];
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
function standInsOf(terms: readonly QueryTerm[], synonyms: StandInSource, index: InvertedIndex, entryOf: IdMap, options: RankingOptions, standIns: StandIn[]): StandIn[] {
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
      standIns.push({ id, source: term.id, sourceAt: t, credit: coverage * term.idf * term.weight });
      if (standIns.length === MAX_STAND_INS) return standIns;
    }
  }
  return standIns;
}

function allDigits(term: string): boolean {
  if (term.length === 0) return false;
  for (let i = 0; i < term.length; i++) {
    const code = term.charCodeAt(i);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}

/** At most `limit` terms, the highest IDF first; required terms are always kept. */
function capTerms(terms: QueryTerm[], limit: number): QueryTerm[] {
  sortByIdf(terms);
  if (terms.length <= limit) return terms;
  const required = terms.filter((term) => term.requiredBit !== 0);
  const optional = terms.filter((term) => term.requiredBit === 0);
  return [...required, ...optional.slice(0, Math.max(0, limit - required.length))];
}

/**
 * byIdf order. A typical query has a dozen terms: an insertion sort of those costs less than a
 * call into the native sort with a comparator; a pasted page's many terms go to the native sort.
 * byIdf is a total order (term ids differ), so both give the same order.
 */
function sortByIdf(terms: QueryTerm[]): void {
  if (terms.length > INSERTION_SORT_MAX) {
    terms.sort(byIdf);
    return;
  }
  for (let i = 1; i < terms.length; i++) {
    const term = terms[i]!;
    let at = i;
    while (at > 0 && byIdf(terms[at - 1]!, term) > 0) {
      terms[at] = terms[at - 1]!;
      at--;
    }
    terms[at] = term;
  }
}

function byIdf(a: QueryTerm, b: QueryTerm): number {
  return b.idf - a.idf || a.id - b.id;
}
