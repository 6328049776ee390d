/** The stats answer when there is no history to read (the database could not be opened). */
import type { StatsResult } from "../protocol/stats-result.ts";
import type { StatsQuery } from "./stats-query.ts";

export function emptyStats(query: StatsQuery): StatsResult {
  return {
    since: query.since,
    until: query.until,
    searches: {
      total: 0,
      keyword: 0,
      select: 0,
      discover: 0,
      zeroResults: 0,
      zeroResultQueries: [],
      conversion: { keyword: 0, converted: 0, rate: null, window: query.conversionWindow },
      selectMisses: 0,
      didYouMeanOffers: 0,
    },
    prefetch: { suggestions: 0, laterCalled: 0, rate: null },
    calls: { total: 0, errors: 0, tools: [], servers: [] },
    servers: [],
    tokens: { counter: query.counter.label, estimate: query.counter.estimate, styles: [] },
  };
}
