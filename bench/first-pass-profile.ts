/**
 * Where the slowest first-pass (never-seen) queries' time goes, beside the BM25F peer:
 *
 * 1. `first`: a fresh index (every term's impacts worked out right after the build, as the daemon
 *    does after a catch-up and the peer at build: `impactSweepMs`, thread CPU, beside `buildMs`)
 *    and peer, both warmed on the bench's 600 unrelated queries
 *    (cold-latency.ts), then each distinct dev query asked once of each, engines alternating,
 *    as search-quality's first round does. Per query: wall time and, on Linux, the main thread's
 *    CPU time (CLOCK_THREAD_CPUTIME_ID), which a busy machine's scheduler does not inflate.
 * 2. `jitWarm`: the same again on a second fresh index and peer in the same process. Nothing the
 *    index caches survives (impacts, parsed words, queries), only the process: its optimised code.
 *    first − jitWarm per query is what the first pass paid for code still being compiled.
 * 3. `phases`: a fresh index, its query path's methods wrapped with timers (wall time), asked each
 *    query once; `--phase-passes` (3) such passes, per query and phase the median. For the 2 %
 *    slowest queries of `first` (by CPU), their self time per phase in this JIT-warm first pass;
 *    and the mean self time per phase over all queries, and over those of ≤ 8 and > 8 words
 *    (`allPhasesMs`: what a phase costs the median query, not only the slowest).
 *
 * After the sweep the index runs the daemon's query warm-up (core/query-warm-up.ts: the pool's own
 * synthetic queries; `warmUpMs`, thread CPU, in `builds`) unless `--no-query-warm-up`.
 * `--daemon-like` drops the bench's own warm-up (both engines): `first` is then a fresh process's
 * first queries, as a daemon meets them, and shows what the query warm-up buys.
 *
 * `--long-warm-up N` adds N whole tool descriptions (sentences from the pool, not the eval set)
 * to the warm-up of both engines: natural requests are long and take paths (numbers, unknown
 * words, server names, pruning of frequent terms) the 600 short description prefixes seldom do.
 *
 * `--ranking '{"candidates":10}'` overlays knobs of src/search/ranking-options.ts on every fresh
 * index, as search-quality's --ranking does: where a configuration's time goes, phase by phase.
 *
 *   bun bench/first-pass-profile.ts [--no-query-warm-up] [--no-learn-words] [--daemon-like] [--size N] [--warm-up-queries N] [--top 12] [--long-warm-up 0] [--phase-passes 3] [--queries FILE] [--tools FILE] [--ranking JSON]
 */
import { join } from "node:path";
import { Bm25fScorer } from "../src/search/bm25f-scorer.ts";
import { CandidateFacts } from "../src/search/candidate-facts.ts";
import { ImpactMaker } from "../src/search/impact-maker.ts";
import { KeywordRanker } from "../src/search/keyword-ranker.ts";
import { NameLookup } from "../src/search/name-lookup.ts";
import { QueryCache } from "../src/search/query-cache.ts";
import type { RankingOptions } from "../src/search/ranking-options.ts";
import { searchDocumentFromTool } from "../src/search/tool-document.ts";
import { ToolSearchIndex } from "../src/search/tool-search-index.ts";
import { parseArgs } from "./lib/args.ts";
import { Bm25fPeer } from "./lib/bm25f-peer.ts";
import { daemonLearnWords, daemonWarmUp, warmUpQueries } from "./lib/cold-latency.ts";
import { defaultEvalDir, readJsonl, type EvalQuery, type EvalTool } from "./lib/eval-data.ts";
import { replicatePool } from "./lib/pool-replication.ts";
import { percentile, round } from "./lib/stats.ts";
import { threadCpuClock } from "./lib/thread-clock.ts";

const args = parseArgs(Bun.argv.slice(2), { "no-query-warm-up": "flag", "no-learn-words": "flag", "daemon-like": "flag", size: "value", "warm-up-queries": "value", top: "value", "long-warm-up": "value", queries: "value", tools: "value", "phase-passes": "value", ranking: "value" });
const ranking = args.has("ranking") ? (JSON.parse(args.get("ranking")!) as Partial<RankingOptions>) : undefined;
const evalDir = defaultEvalDir();
const catalog = readJsonl<EvalTool>(args.get("tools") ?? join(evalDir, "tools.jsonl"));
// --size N: the pool copied up to N tools, as search-scale does.
const tools = args.has("size") ? replicatePool(catalog, Number(args.get("size"))) : catalog;
const engineWarmUpQueries = args.has("warm-up-queries") ? Number(args.get("warm-up-queries")) : undefined;
const texts = [...new Set(readJsonl<EvalQuery>(args.get("queries") ?? join(evalDir, "queries.dev.jsonl")).map((query) => query.query))];
const longWarmUp = Number(args.get("long-warm-up") ?? 0);
const descriptions = tools.map((tool) => tool.description).filter((text) => text.split(" ").length > 12);
const warmUp = args.has("daemon-like") ? [] : [
  ...warmUpQueries(tools),
  ...Array.from({ length: Math.min(longWarmUp, descriptions.length) }, (_, i) => descriptions[Math.floor((i * descriptions.length) / longWarmUp)]!.slice(0, 400)),
];
const RANKED = 10;

/** The main thread's CPU time in ms (lib/thread-clock.ts). */
const cpuClock = threadCpuClock;

interface Sample {
  wall: number;
  cpu: number;
}

/** Per fresh index: its build, its impact sweep and its query warm-up, in thread CPU ms. */
const builds: { buildMs: number; impactSweepMs: number; warmUpMs?: number; learnWordsMs?: number }[] = [];

function freshEngines(): { index: ToolSearchIndex; peer: Bm25fPeer } {
  const started = cpuClock.now();
  const index = new ToolSearchIndex(ranking === undefined ? {} : { ranking });
  for (const tool of tools) index.add(searchDocumentFromTool(tool));
  const built = cpuClock.now();
  index.precomputeImpacts(Number.MAX_SAFE_INTEGER);
  const swept = cpuClock.now();
  if (!args.has("no-query-warm-up")) daemonWarmUp(index, tools, engineWarmUpQueries)();
  const warmed = cpuClock.now();
  // The warm-up's second step, the pool's words (ToolSearchIndex.learnWords), timed apart.
  if (!args.has("no-query-warm-up") && !args.has("no-learn-words")) daemonLearnWords(index, tools)();
  const learned = cpuClock.now();
  builds.push({
    buildMs: round(built - started, 1),
    impactSweepMs: round(swept - built, 2),
    ...(!args.has("no-query-warm-up") && { warmUpMs: round(warmed - swept, 1) }),
    ...(!args.has("no-query-warm-up") && !args.has("no-learn-words") && { learnWordsMs: round(learned - warmed, 1) }),
  });
  const peer = new Bm25fPeer(tools);
  for (const text of warmUp) index.query(text, { maxResults: RANKED });
  for (const text of warmUp) peer.query(text, RANKED);
  index.clearQueryCache();
  Bun.gc(true);
  return { index, peer };
}

/** One first pass, engines alternating per query as in bench/lib/cold-latency.ts. */
function firstPass(): { toolpool: Sample[]; bm25f: Sample[] } {
  const { index, peer } = freshEngines();
  const toolpool: Sample[] = [];
  const bm25f: Sample[] = [];
  texts.forEach((text, i) => {
    for (let j = 0; j < 2; j++) {
      const ours = (i + j) % 2 === 0;
      const cpu = cpuClock.now();
      const wall = Bun.nanoseconds();
      if (ours) index.query(text, { maxResults: RANKED });
      else peer.query(text, RANKED);
      const sample = { wall: (Bun.nanoseconds() - wall) / 1e6, cpu: cpuClock.now() - cpu };
      (ours ? toolpool : bm25f).push(sample);
    }
  });
  return { toolpool, bm25f };
}

function summary(samples: readonly Sample[]) {
  const wall = samples.map((sample) => sample.wall);
  const cpu = samples.map((sample) => sample.cpu);
  return {
    wallP50: round(percentile(wall, 50)),
    wallP99: round(percentile(wall, 99)),
    cpuP50: round(percentile(cpu, 50)),
    cpuP95: round(percentile(cpu, 95)),
    cpuP99: round(percentile(cpu, 99)),
  };
}

/** Self time per phase of each query, from timers wrapped around the query path's methods. */
function phasePass(): Record<string, number>[] {
  const wrapped: [object, string, string][] = [
    [QueryCache.prototype, "get", "parse"],
    [NameLookup.prototype, "resolve", "exactName"],
    [NameLookup.prototype, "suggest", "didYouMean"],
    [ToolSearchIndex.prototype, "narrowing", "narrowing"],
    [ToolSearchIndex.prototype, "mentionIn", "mentions"],
    [ToolSearchIndex.prototype, "mentionedFirst", "identifiers"],
    [KeywordRanker.prototype, "rank", "prepareQuery"],
    [KeywordRanker.prototype, "collect", "select"],
    [KeywordRanker.prototype, "rerank", "rerank"],
    [CandidateFacts.prototype, "gather", "gather"],
    [Bm25fScorer.prototype, "run", "firstStage"],
    // Only the work on a term whose impacts are stale: a cached term's look-up is a few ns, and a timer
    // around every look-up (~14 a query, two clock reads each) made most of what this phase showed.
    [ImpactMaker.prototype, "workOut", "newImpacts"],
    [ToolSearchIndex.prototype, "query", "other"],
  ];
  const stack: { start: number; child: number }[] = [];
  let current: Record<string, number> = {};
  const originals = wrapped.map(([target, method, label]) => {
    const record = target as Record<string, (...params: unknown[]) => unknown>;
    const original = record[method]!;
    record[method] = function (this: unknown, ...params: unknown[]) {
      const frame = { start: Bun.nanoseconds(), child: 0 };
      stack.push(frame);
      try {
        return original.apply(this, params);
      } finally {
        const elapsed = Bun.nanoseconds() - frame.start;
        stack.pop();
        current[label] = (current[label] ?? 0) + (elapsed - frame.child) / 1e6;
        if (stack.length > 0) stack[stack.length - 1]!.child += elapsed;
      }
    };
    return () => (record[method] = original);
  });
  try {
    const { index } = freshEngines();
    return texts.map((text) => {
      current = {};
      index.query(text, { maxResults: RANKED });
      return Object.fromEntries(Object.entries(current).map(([label, ms]) => [label, round(ms)]));
    });
  } finally {
    for (const restore of originals) restore();
  }
}

const first = firstPass();
const jitWarm = firstPass();
// Phase timers read wall time (a CPU-time call per phase would cost more than some phases): per
// query and phase, the median of several passes, so a pass preempted on a busy machine drops out.
const phasePasses = Array.from({ length: Math.max(1, Number(args.get("phase-passes") ?? 3)) }, () => phasePass());
const phases = texts.map((_, i) => {
  const labels = new Set(phasePasses.flatMap((pass) => Object.keys(pass[i]!)));
  return Object.fromEntries([...labels].map((label) => [label, percentile(phasePasses.map((pass) => pass[i]![label] ?? 0), 50)]));
});
const excess = first.toolpool.map((sample, i) => sample.cpu - jitWarm.toolpool[i]!.cpu);
const byCpu = [...texts.keys()].sort((a, b) => first.toolpool[b]!.cpu - first.toolpool[a]!.cpu);
const slowest = byCpu.slice(0, Math.ceil(texts.length * 0.02));
/** Mean self time per phase over the queries `at` (a phase a query did not reach counts 0), and their mean CPU time in `first`. */
function meanPhases(at: readonly number[]): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const i of at) for (const [label, ms] of Object.entries(phases[i]!)) sums[label] = (sums[label] ?? 0) + ms / at.length;
  const firstCpu = at.reduce((sum, i) => sum + first.toolpool[i]!.cpu, 0) / Math.max(at.length, 1);
  return { queries: at.length, firstCpu: round(firstCpu), ...Object.fromEntries(Object.entries(sums).map(([label, ms]) => [label, round(ms)])) };
}
const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;
const all = [...texts.keys()];

console.log(
  JSON.stringify(
    {
      benchmark: "first-pass-profile",
      pool: tools.length,
      queries: texts.length,
      ...(ranking !== undefined && { ranking }),
      warmUpQueries: warmUp.length,
      daemonLike: args.has("daemon-like"),
      queryWarmUp: !args.has("no-query-warm-up"),
      clock: cpuClock.kind,
      // first, jitWarm, then each phase pass.
      builds,
      first: { toolpool: summary(first.toolpool), bm25f: summary(first.bm25f) },
      jitWarm: { toolpool: summary(jitWarm.toolpool), bm25f: summary(jitWarm.bm25f) },
      // What the first pass paid over the same queries on a fresh index once the process's code was optimised.
      jitExcessCpuMs: {
        total: round(excess.reduce((sum, value) => sum + value, 0), 1),
        firstQuarter: round(excess.slice(0, texts.length >> 2).reduce((sum, value) => sum + value, 0), 1),
        p90: round(percentile(excess, 90)),
        p99: round(percentile(excess, 99)),
      },
      slowest2PercentPhasesMs: meanPhases(slowest),
      allPhasesMs: {
        all: meanPhases(all),
        upTo8Words: meanPhases(all.filter((i) => wordCount(texts[i]!) <= 8)),
        over8Words: meanPhases(all.filter((i) => wordCount(texts[i]!) > 8)),
      },
      slowest: byCpu.slice(0, Number(args.get("top") ?? 12)).map((i) => ({
        at: i,
        query: texts[i]!.slice(0, 60),
        firstCpu: round(first.toolpool[i]!.cpu),
        jitWarmCpu: round(jitWarm.toolpool[i]!.cpu),
        phases: phases[i],
      })),
    },
    null,
    2,
  ),
);
