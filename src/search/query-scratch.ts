import type { AnswerAsked } from "./answer-types.ts";
import type { QueryTerm, StandIn } from "./bm25f-scorer.ts";
import { IdMap } from "./id-map.ts";

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

/** A query term as prepareQuery hands it out: with its position among the kept terms. */
export interface PoolTerm extends QueryTerm {
  /** Its position in the prepared query's `terms`; -1 when the cap dropped it (or for `none`). */
  at: number;
}

/** Terms sorted by insertion, with their keys in typed arrays, up to this many (query-terms.ts sortByIdf). */
export const INSERTION_SORT_MAX = 32;

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
  readonly none: PoolTerm = newTerm(-1, 0, false);
  /** Term objects handed out in order (terms[i] is pool[i] until the cap reorders them). */
  readonly pool: PoolTerm[] = [];
  readonly sequence: PoolTerm[] = [];
  /** The query's terms that say an action (opposite-actions.ts), and each one's side code. */
  readonly actionTerms: PoolTerm[] = [];
  readonly actionCodes: number[] = [];
  /** For a query with no given words, no value words: never written. */
  readonly noIds: readonly number[] = [];
  /** The arrays `query` is handed each time (`terms` may be replaced by a capped copy). */
  readonly terms: PoolTerm[] = [];
  readonly contradicted: number[] = [];
  readonly givenIds: number[] = [];
  readonly valueIds: number[] = [];
  /** Stand-in objects handed out in order, reused from query to query. */
  readonly standInPool: StandIn[] = [];
  /** sortByIdf's keys (IDF, id), where each sorted term came from, and the terms as they were. */
  readonly sortIdf = new Float64Array(INSERTION_SORT_MAX);
  readonly sortId = new Int32Array(INSERTION_SORT_MAX);
  readonly sortFrom = new Int32Array(INSERTION_SORT_MAX);
  readonly sortHeld: PoolTerm[] = [];
  readonly query: PreparedQuery = {
    terms: this.terms,
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
}

export function newTerm(id: number, idf: number, cjk: boolean): PoolTerm {
  return { id, idf, weight: 0, weightedIdf: 0, requiredBit: 0, cjk, at: -1 };
}

export function newStandIn(): StandIn {
  return { id: 0, source: 0, sourceAt: 0, credit: 0 };
}

