import type { QueryTerm } from "./bm25f-scorer.ts";
import type { InvertedIndex } from "./inverted-index.ts";
import type { RankingOptions } from "./ranking-options.ts";
import { isCjkTerm } from "./tokenizer.ts";
import { REVERSE_TERM } from "./fields.ts";

/** Required words beyond this many are treated as optional (one bit each in a Uint32). */
const MAX_REQUIRED_TERMS = 31;
/** A CJK-only match needs this many matching bigrams (seed 000), or all of a shorter query's. */
const CJK_MIN_BIGRAM_MATCHES = 2;

/** Tokens of a keyword query, before they meet an index. Cached per query string. */
export interface QueryTokens {
  /** Free-text terms in query order (stop words gone), for phrase features. */
  text: readonly string[];
  /** Terms of each `+required` word. */
  required: readonly (readonly string[])[];
  /** Terms of the words the request marks as given ("of this address"): see given-words.ts. */
  given: readonly string[];
  /** Parameter-name terms of the kinds of value the request carries (a URL, a path…): value-kinds.ts. */
  valueParameters: readonly string[];
}

/** A keyword query resolved against the current index. */
export interface PreparedQuery {
  terms: QueryTerm[];
  /** IDF of each distinct query term, by term id. */
  idfById: Map<number, number>;
  /** Adjacent pairs of free-text term ids, keyed `first * PAIR_BASE + second`, valued by mean IDF. */
  pairs: Map<number, number>;
  /** IDF sum of `terms`: the denominator of the coverage share. */
  totalIdf: number;
  /** Mask a tool's required bits must equal. */
  requiredAll: number;
  /** A required word matches no indexed term, so nothing can match. */
  impossible: boolean;
  /** Minimum matching CJK terms for a tool that matches no other term; 0 when the query has no CJK. */
  cjkMinimum: number;
  /** The query says "reverse" (or "reversed", …): a tool named for the reverse direction is wanted. */
  asksReverse: boolean;
  /** Term id of the query's first free-text word (an imperative's verb), or -1. */
  leadingTerm: number;
  /** Indexed term ids of the given words (what the user has, so what a fitting tool takes). */
  givenTerms: number[];
  /** Indexed term ids of parameter names that take the values the request carries. */
  valueParameterTerms: number[];
}


export const PAIR_BASE = 2 ** 22;
const DIGITS = /^\d+$/;

export function prepareQuery(index: InvertedIndex, tokens: QueryTokens, options: RankingOptions): PreparedQuery {
  const byId = new Map<number, QueryTerm>();
  const cjkTerms = new Set<string>();
  const total = Math.max(index.liveCount, 1);
  const termFor = (term: string): QueryTerm | undefined => {
    if (isCjkTerm(term)) cjkTerms.add(term);
    const id = index.termId(term);
    if (id === undefined) return undefined;
    const frequency = index.documentFrequency[id]!;
    if (frequency <= 0) return undefined;
    let entry = byId.get(id);
    if (entry === undefined) {
      const idf = Math.log(1 + (total - frequency + 0.5) / (frequency + 0.5));
      entry = { id, idf, weight: 0, requiredBit: 0, cjk: isCjkTerm(term) };
      byId.set(id, entry);
    }
    return entry;
  };

  const sequence: number[] = [];
  for (const term of tokens.text) {
    const entry = termFor(term);
    sequence.push(entry?.id ?? -1);
    if (entry !== undefined) entry.weight = DIGITS.test(term) ? options.numberWeight : 1;
  }

  let requiredAll = 0;
  let impossible = false;
  let bit = 0;
  for (const word of tokens.required) {
    for (const term of word) {
      if (bit >= MAX_REQUIRED_TERMS) break;
      const entry = termFor(term);
      if (entry === undefined) {
        impossible = true;
        continue;
      }
      entry.weight = 1;
      entry.requiredBit |= 1 << bit;
      requiredAll |= 1 << bit;
      bit++;
    }
  }

  const terms = capTerms([...byId.values()], options.maxQueryTerms);
  const kept = new Map(terms.map((term) => [term.id, term.idf]));
  const pairs = new Map<number, number>();
  for (let i = 0; i + 1 < sequence.length; i++) {
    const first = byId.get(sequence[i]!);
    const second = byId.get(sequence[i + 1]!);
    if (first === undefined || second === undefined || first === second) continue;
    if (!kept.has(first.id) || !kept.has(second.id)) continue;
    pairs.set(first.id * PAIR_BASE + second.id, (first.idf + second.idf) / 2);
  }
  return {
    terms,
    idfById: kept,
    pairs,
    totalIdf: terms.reduce((sum, term) => sum + term.idf, 0),
    requiredAll,
    impossible,
    cjkMinimum: Math.min(CJK_MIN_BIGRAM_MATCHES, cjkTerms.size),
    leadingTerm: sequence.length > 0 && kept.has(sequence[0]!) ? sequence[0]! : -1,
    asksReverse: tokens.text.includes(REVERSE_TERM) || tokens.required.some((word) => word.includes(REVERSE_TERM)),
    valueParameterTerms: [...new Set(tokens.valueParameters.map((term) => index.termId(term)).filter((id): id is number => id !== undefined))],
    givenTerms: [...new Set(tokens.given.map((term) => index.termId(term)).filter((id): id is number => id !== undefined && kept.has(id)))],
  };
}

/** At most `limit` terms, the highest IDF first; required terms are always kept. */
function capTerms(terms: QueryTerm[], limit: number): QueryTerm[] {
  terms.sort((a, b) => b.idf - a.idf || a.id - b.id);
  if (terms.length <= limit) return terms;
  const required = terms.filter((term) => term.requiredBit !== 0);
  const optional = terms.filter((term) => term.requiredBit === 0);
  return [...required, ...optional.slice(0, Math.max(0, limit - required.length))];
}
