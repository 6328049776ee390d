import type { FieldName } from "./fields.ts";

/** Every knob of the ranking. The defaults are the ones the dev split of ../shared/eval supports. */
export interface RankingOptions {
  /** BM25 term-frequency saturation. */
  k1: number;
  /** BM25F weight of each field. */
  weights: Readonly<Record<FieldName, number>>;
  /** BM25F length normalisation of each field (0 = none, 1 = full). */
  lengthNormalization: Readonly<Record<FieldName, number>>;
  /** How many first-stage results are re-ranked with the name, phrase and coverage features. */
  candidates: number;
  /** Multiplier on the share (IDF-weighted) of distinct query terms a tool matches. */
  coverage: number;
  /** Exponent on that share: higher punishes partial matches harder. */
  coverageExponent: number;
  /** Multiplier on the share of a tool's name words that the query contains. */
  nameCoverage: number;
  /** Multiplier on the share of adjacent query word pairs found adjacent in the tool name. */
  namePhrase: number;
  /** Weight of server-level evidence: how strongly the server's other tools match. */
  serverEvidence: number;
  /** Queries with more distinct terms than this drop their lowest-IDF terms … */
  longQueryTerms: number;
  /** … keeping those whose IDF is at least this share of the query's highest IDF. */
  longQueryIdfShare: number;
  /** Hard cap on distinct query terms (highest IDF kept), so a 10,000-character query stays fast. */
  maxQueryTerms: number;
}

export const DEFAULT_RANKING: RankingOptions = {
  k1: 1.2,
  weights: {
    name: 3,
    alias: 3,
    hint: 2.5,
    description: 1,
    parameterName: 0.5,
    parameterDescription: 0.3,
    server: 1.5,
    serverDescription: 0.3,
  },
  lengthNormalization: {
    name: 0.5,
    alias: 0.5,
    hint: 0.5,
    description: 0.75,
    parameterName: 0.75,
    parameterDescription: 0.75,
    server: 0.5,
    serverDescription: 0.75,
  },
  candidates: 50,
  coverage: 0,
  coverageExponent: 1,
  nameCoverage: 0,
  namePhrase: 0,
  serverEvidence: 0,
  longQueryTerms: 1000,
  longQueryIdfShare: 0,
  maxQueryTerms: 64,
};

/** Defaults overlaid with a partial set of knobs (field maps merge key by key). */
export function rankingOptions(overrides: Partial<RankingOptions> = {}): RankingOptions {
  return {
    ...DEFAULT_RANKING,
    ...overrides,
    weights: { ...DEFAULT_RANKING.weights, ...overrides.weights },
    lengthNormalization: { ...DEFAULT_RANKING.lengthNormalization, ...overrides.lengthNormalization },
  };
}
