/**
 * The usage prior applied to a search: a keyword (or discover) query asks the engine for a few more
 * matches than it will show, lifts those this workspace has used, and keeps the best. Only tools
 * that already matched the query move: nothing the query did not find is brought in, so a workspace
 * that always calls one tool does not see it answer every question. `select:` is left alone.
 */
import type { ToolSearchEngine } from "../builtin/tool-search.ts";
import type { QueryOptions, QueryResult } from "../search/types.ts";
import { usageTerms } from "./usage-terms.ts";
import type { WorkspacePrior } from "./workspace-prior.ts";

export interface PriorWeights {
  /** A used tool's score is multiplied by up to 1 + boost (how often it was called here). */
  boost: number;
  /** …and by 1 + affinity × a², a being its affinity to the query's words (past searches that led to it). */
  affinity: number;
  /** Calls at which a tool gets the whole boost (fewer get a log-scaled part). */
  saturation: number;
  /** How many more candidates than shown are looked at (×). */
  widen: number;
  /**
   * Calls a tool needs here before the prior moves it: one call is an anecdote. Measured on both
   * dev halves, lifting tools called once put a near-duplicate above the right tool for 2 of ~340
   * queries the history did not know (−0.6 points of hit@1); from two calls on, none or one.
   */
  minCalls: number;
}

export const DEFAULT_PRIOR_WEIGHTS: PriorWeights = { boost: 0, affinity: 3, saturation: 8, widen: 4, minCalls: 2 };
const DEFAULT_SHOWN = 5;
const MAX_CANDIDATES = 100;

export function withUsagePrior(engine: ToolSearchEngine, prior: () => WorkspacePrior | undefined, weights: PriorWeights = DEFAULT_PRIOR_WEIGHTS): ToolSearchEngine {
  return {
    query(text: string, options?: QueryOptions): QueryResult {
      const learned = prior();
      if (!learned || learned.size === 0) return engine.query(text, options);
      const shown = options?.maxResults ?? DEFAULT_SHOWN;
      const result = engine.query(text, { ...options, maxResults: Math.min(MAX_CANDIDATES, Math.max(shown, shown * weights.widen)) });
      if (result.kind === "select") return { ...result, matches: result.matches.slice(0, shown) };
      const terms = usageTerms(text);
      const lift = (name: string) => {
        const calls = learned.calls(name);
        if (calls === 0 || calls < weights.minCalls) return 1;
        const use = weights.boost * Math.min(1, Math.log1p(calls) / Math.log1p(weights.saturation));
        // Squared: a weak association (common words shared with past searches) barely moves a tool;
        // measured on both dev halves, a linear lift cost 1–3 points on queries the history does not know.
        return 1 + use + weights.affinity * learned.affinity(name, terms) ** 2;
      };
      const matches = result.matches
        .map((match, rank) => ({ match: { name: match.name, score: match.score * lift(match.name) }, rank }))
        // Equal scores keep the engine's order.
        .sort((a, b) => b.match.score - a.match.score || a.rank - b.rank)
        .slice(0, shown)
        .map((entry) => entry.match);
      return { ...result, matches };
    },
  };
}
