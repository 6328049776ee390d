/**
 * Coordinate ascent over every numeric RankingOptions knob at once, on one half of the dev split,
 * reporting the other half after each round: the check that a tuned setting generalises.
 *
 *   bun bench/lib/tune-ranking.ts [--half a|b] [--start '{"k1":1.5}'] [--rounds 3] [--tools F] [--queries F]
 *
 * Objective: MRR@10 + 0.5 · hit@5 on the tuning half. Each knob tries ×0.5, ×0.75, ×1.33, ×2 (length
 * normalisation: ±0.1, ±0.2 within [0, 1]); a step is kept when the objective rises by > 0.0005.
 * The index is built once per setting through the public constructor (about 0.3–0.5 s each).
 */
import { join } from "node:path";
import { DEFAULT_RANKING, type RankingOptions } from "../../src/search/ranking-options.ts";
import { searchDocumentFromTool } from "../../src/search/tool-document.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import { parseArgs } from "./args.ts";
import { defaultEvalDir, readJsonl, type EvalQuery, type EvalTool } from "./eval-data.ts";
import { judge, score } from "./retrieval-metrics.ts";

type Overrides = Partial<RankingOptions> & Record<string, unknown>;

const KNOBS = [
  "k1",
  "weights.name",
  "weights.hint",
  "weights.description",
  "weights.parameterName",
  "weights.parameterDescription",
  "weights.server",
  "weights.serverDescription",
  "lengthNormalization.name",
  "lengthNormalization.description",
  "lengthNormalization.parameterName",
  "lengthNormalization.parameterDescription",
  "lengthNormalization.server",
  "lengthNormalization.serverDescription",
  "coverage",
  "coverageExponent",
  "coverageFadeTerms",
  "descriptionPhrase",
  "numberWeight",
];

const args = parseArgs(Bun.argv.slice(2), { half: "value", start: "value", rounds: "value", tools: "value", queries: "value" });
const evalDir = defaultEvalDir();
const tools = readJsonl<EvalTool>(args.get("tools") ?? join(evalDir, "tools.jsonl"));
const queries = readJsonl<EvalQuery>(args.get("queries") ?? join(evalDir, "queries.dev.jsonl"));
const half = args.get("half") ?? "a";
const inHalf = (query: EvalQuery, name: string) => (Number(Bun.hash(query.id) % 2n) === 0 ? "a" : "b") === name;
const tuning = queries.filter((query) => inHalf(query, half));
const held = queries.filter((query) => !inHalf(query, half));
const docs = tools.map((tool) => searchDocumentFromTool(tool));

function measure(overrides: Overrides, set: readonly EvalQuery[]) {
  const index = new ToolSearchIndex({ ranking: overrides });
  for (const doc of docs) index.add(doc);
  const scores = score(set.map((query) => judge(query, index.query(query.query, { maxResults: 10 }).matches.map((m) => m.name))));
  return { h1: scores["hit@1"], h5: scores["hit@5"], mrr: scores["mrr@10"] };
}

const objective = (s: { h5: number; mrr: number }) => s.mrr + 0.5 * s.h5;
const valueAt = (overrides: Overrides, path: string): number => {
  const [group, key] = path.split(".") as [string, string | undefined];
  const fromOverrides = key === undefined ? overrides[group] : (overrides[group] as Record<string, number> | undefined)?.[key];
  if (typeof fromOverrides === "number") return fromOverrides;
  const defaults = DEFAULT_RANKING as unknown as Record<string, unknown>;
  return (key === undefined ? defaults[group] : (defaults[group] as Record<string, number>)[key]) as number;
};
const withValue = (overrides: Overrides, path: string, value: number): Overrides => {
  const [group, key] = path.split(".") as [string, string | undefined];
  if (key === undefined) return { ...overrides, [group]: value };
  return { ...overrides, [group]: { ...(overrides[group] as object | undefined), [key]: value } };
};

let current = JSON.parse(args.get("start") ?? "{}") as Overrides;
let best = measure(current, tuning);
console.log(`half ${half} start ${JSON.stringify(best)}; other half ${JSON.stringify(measure(current, held))}`);
for (let round = 0; round < Number(args.get("rounds") ?? 3); round++) {
  let improved = false;
  for (const knob of KNOBS) {
    const base = valueAt(current, knob);
    const candidates = knob.startsWith("lengthNormalization.")
      ? [-0.2, -0.1, 0.1, 0.2].map((step) => Math.round((base + step) * 100) / 100).filter((v) => v >= 0 && v <= 1)
      : [0.5, 0.75, 1.33, 2].map((factor) => Math.round(base * factor * 1000) / 1000);
    for (const value of candidates) {
      const trial = withValue(current, knob, value);
      const scores = measure(trial, tuning);
      if (objective(scores) <= objective(best) + 0.0005) continue;
      best = scores;
      current = trial;
      improved = true;
      console.log(`  ${knob} = ${value}: ${JSON.stringify(scores)}`);
    }
  }
  console.log(`round ${round}: ${JSON.stringify(current)}; other half ${JSON.stringify(measure(current, held))}`);
  if (!improved) break;
}
