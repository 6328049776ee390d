import type { FieldName } from "./fields.ts";

/**
 * Every knob of the ranking. The defaults are what the dev split of ../shared/eval supports, each
 * kept only when both halves of that split agreed (docs/search.md lists the measurements).
 */
export interface RankingOptions {
  /** BM25 term-frequency saturation. */
  k1: number;
  /** BM25F weight of each field. */
  weights: Readonly<Record<FieldName, number>>;
  /** BM25F length normalisation of each field (0 = none, 1 = full). */
  lengthNormalization: Readonly<Record<FieldName, number>>;
  /** How many first-stage results are re-ranked with the phrase and coverage features. */
  candidates: number;
  /** Multiplier on the share (IDF-weighted) of distinct query terms a tool matches. */
  coverage: number;
  /** Exponent on that share: higher punishes partial matches harder. */
  coverageExponent: number;
  /**
   * Queries with more distinct terms than this get proportionally less coverage weight: a long
   * request usually lists several needs, each met by a different tool.
   */
  coverageFadeTerms: number;
  /** Score added per IDF of each query word pair found adjacent, in order, in the description. */
  descriptionPhrase: number;
  /**
   * Query weight of a term that is all digits or a relative date or time word ("tomorrow",
   * "Friday": query-terms.ts): dates, amounts and ids rarely name a capability.
   */
  numberWeight: number;
  /**
   * A term found in more than this share of tools only adds to tools that rarer query terms
   * found, once those are at least `candidates` (it cannot bring in new ones); 1 turns this off.
   */
  frequentTermShare: number;
  /**
   * A server named inside a query credits every tool of that server as if the name occurred once
   * in a field of this weight, instead of by how often its texts repeat the name; 0 turns it off.
   */
  serverMembership: number;
  /** Tools of a server the query names are multiplied by 1 + this after the re-rank. */
  serverBoost: number;
  /** A server word counts as naming the server when at least this share of the tools using its rarest term are the server's. */
  mentionShare: number;
  /** Share of a query term's IDF a tool gets in the coverage factor when it matches only as an enum value. */
  valueCoverage: number;
  /**
   * What a query term matched only as an enum value of a reading tool (list_…, get_…, search_…)
   * keeps of its first-stage score and of its coverage share: there the value is a filter
   * ("state: open"), and a verb of the query ("open a pull request") is not answered by it.
   */
  filterValue: number;
  /**
   * Score factor of a tool whose name says one side of a pair of opposite actions (create / delete,
   * mute / unmute: opposite-actions.ts) when the request says only the other side. 1 turns it off.
   */
  oppositeAction: number;
  /** Score factor of a tool whose name says "reverse" when the query does not (direction matters). */
  unaskedReverse: number;
  /**
   * Tools that take a word the request marks as given ("of this address") as a parameter name
   * are multiplied by 1 + this after the re-rank: they work from it rather than produce it.
   */
  givenParameter: number;
  /**
   * Tools with a parameter for a kind of value the request carries (a URL, a path, an e-mail,
   * coordinates, SQL: value-kinds.ts) are multiplied by 1 + this after the re-rank.
   */
  valueParameter: number;
  /**
   * Share of a query term's coverage credited to a tool that lacks the term but has a synonym of
   * it (synonyms.ts: "folder" / "directory"); synonyms add nothing in the first stage, and one in
   * more than `frequentTermShare` of the tools (and `candidates`) covers nothing. 0 turns it off.
   */
  synonymCoverage: number;
  /**
   * When a request names a server, its tools share the credit for the name alike; each member is
   * then multiplied by 1 + this × the share of its own name's terms (not the server's words) that
   * the request says at full weight (not as a number or a date), itself or by a synonym: "scrape
   * this page with Firecrawl" → firecrawl_scrape before firecrawl_interact_stop, whose text says
   * "scraped". 0 turns it off.
   */
  memberName: number;
  /**
   * The results asked for, up to the first NAME_TIE_WINDOW (5), are each multiplied by 1 + this ×
   * the share of their own name's terms the request says at full weight (as for memberName), and
   * ordered again among themselves: the name breaks near-ties of what is shown first, and never
   * brings a tool into the answer nor takes one out (more name evidence than that costs toolbench
   * and bfcl). 0 turns it off.
   */
  nameTieBreak: number;
  /**
   * When the request's own words find fewer tools than `candidates` (a short request on a small
   * pool), tools that have none of what was found but a synonym of a request word (a stand-in, as
   * for synonymCoverage) are brought in, scored as that word at this share of its weight: "what's
   * in this folder" finds list_directory. Tools the words found are not touched. Not when the
   * request names a server ("github issue" is about github's tools, not a Jira ticket), nor when it
   * has `+required` words or CJK text (keyword-ranker.ts). 0 turns it off.
   */
  synonymFill: number;
  /**
   * Share of a query term's coverage credited to a tool that has the term only in its description
   * after the first sentence (in no other field): the first sentence says what a tool does, the rest
   * holds usage notes, examples and pointers to other tools (description-tail.ts). 1 turns it off.
   */
  descriptionTail: number;
  /**
   * Query weight of the class word of a member word the request says ("Friday" → date, "km" →
   * distance, "out.txt" → file: member-synonyms.ts), added beside it. 0 turns it off.
   */
  memberSynonyms: number;
  /**
   * Query weight of the answer words of a question the request asks ("who" → user, person…; "how
   * many" → count, number…: answer-types.ts); the word after "how" then weighs nothing. 0 turns it off.
   */
  answerType: number;
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
    parameterName: 1,
    parameterDescription: 0.6,
    server: 1.5,
    serverDescription: 0.3,
    // Below the description: a value says what a tool accepts, the description what it does.
    parameterValue: 0.75,
  },
  lengthNormalization: {
    name: 0.5,
    alias: 0.5,
    hint: 0.5,
    description: 0.75,
    parameterName: 0.75,
    parameterDescription: 0.5,
    server: 0.5,
    serverDescription: 0.75,
    // Enum values are single words: a long enum is hardly less about each of its values. Most
    // tools have none, so the average is tiny and any larger b punishes a long enum hard.
    parameterValue: 0.03,
  },
  candidates: 30,
  coverage: 2,
  coverageExponent: 1,
  coverageFadeTerms: 6,
  descriptionPhrase: 0.6,
  numberWeight: 0.3,
  frequentTermShare: 0.1,
  maxQueryTerms: 64,
  serverMembership: 1.5,
  mentionShare: 0.5,
  serverBoost: 0.5,
  valueCoverage: 1,
  filterValue: 0,
  unaskedReverse: 0.7,
  oppositeAction: 0.5,
  givenParameter: 0.2,
  valueParameter: 0.2,
  synonymCoverage: 1,
  memberName: 1,
  nameTieBreak: 0.1,
  synonymFill: 0.5,
  descriptionTail: 0.7,
  memberSynonyms: 0.5,
  answerType: 0.5,
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
