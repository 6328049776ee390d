/**
 * The first stage against a plain model of what it computes: impacts worked out posting by
 * posting, and scores accumulated term by term into float32, with the "continue" pruning of
 * frequent terms. The scorer's loops are written for speed (impacts written in place at the
 * document frequency's length, the touched list kept without a branch per entry); these tests
 * hold them to the plain model on an index with removed and reused slots, server words, enum
 * values and a field weighed 0.
 */
import { describe, expect, test } from "bun:test";
import { Bm25fScorer, type QueryTerm } from "../../src/search/bm25f-scorer.ts";
import { FIELD_BITS, FIELD_COUNT, FIELD_ID, FIELDS } from "../../src/search/fields.ts";
import { IMPACT_DESCRIPTION, IMPACT_FLAG_BITS, IMPACT_OUTSIDE_VALUE, IMPACT_OWN_NAME, IMPACT_PARAMETER_NAME } from "../../src/search/impacts.ts";
import { InvertedIndex } from "../../src/search/inverted-index.ts";
import { rankingOptions, type RankingOptions } from "../../src/search/ranking-options.ts";
import { ScoreSelector } from "../../src/search/score-select.ts";
import { TopK } from "../../src/search/top-k.ts";

const WORDS = ["alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa", "lambda"];
/** Words a few slots each have. */
const RARE = Array.from({ length: 40 }, (_, i) => `rare${i}`);

/** A deterministic index: most words shared by many slots, some slots removed and their slots reused. */
function buildIndex(size: number): InvertedIndex {
  const index = new InvertedIndex();
  let seed = 7;
  const next = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
  const words = (count: number) => Array.from({ length: count }, () => index.intern(WORDS[Math.min(next(WORDS.length), next(WORDS.length))]!));
  const add = (name: string) => {
    const fields: number[][] = Array.from({ length: FIELD_COUNT }, () => []);
    fields[FIELD_ID.name] = words(1 + next(3));
    fields[FIELD_ID.description] = words(2 + next(12));
    if (next(3) === 0) fields[FIELD_ID.description]!.push(index.intern(RARE[next(RARE.length)]!));
    fields[FIELD_ID.server] = [index.intern(WORDS[next(3)]!)];
    if (next(4) === 0) fields[FIELD_ID.parameterValue] = words(1 + next(4));
    if (next(3) === 0) fields[FIELD_ID.parameterName] = words(1 + next(2));
    index.add(name, fields);
  };
  for (let i = 0; i < size; i++) add(`tool_${i}`);
  for (let slot = 0; slot < size; slot += 7) index.remove(slot);
  index.compact();
  // Reused slots are appended to their terms' postings after higher slots: lists out of slot order.
  for (let i = 0; i < size / 14; i++) add(`again_${i}`);
  for (let slot = 3; slot < size; slot += 29) index.remove(slot); // dead, not swept
  return index;
}

interface Entry {
  slot: number;
  flags: number;
  value: number;
}

/** A term's impacts as the plain model has them: one entry per live slot, in posting order. */
function modelImpacts(index: InvertedIndex, id: number, options: RankingOptions): Entry[] {
  const averages = FIELDS.map((_, field) => index.fieldLengthSums[field]! / index.liveCount);
  const out: Entry[] = [];
  let last: { slot: number; pseudo: number; flags: number; inServer: boolean } | undefined;
  const flush = () => {
    if (last === undefined || !(last.pseudo > 0)) return;
    const flags = last.inServer ? last.flags & ~IMPACT_OWN_NAME : last.flags;
    out.push({ slot: last.slot, flags, value: Math.fround(last.pseudo / (options.k1 + last.pseudo)) });
  };
  for (let i = 0; i < index.postingLengths[id]!; i++) {
    const packed = index.postings[id]![i]!;
    const slot = packed >>> FIELD_BITS;
    const field = packed & ((1 << FIELD_BITS) - 1);
    const name = FIELDS[field]!;
    const weight = options.weights[name];
    const b = options.lengthNormalization[name];
    const average = averages[field]!;
    const norm = index.alive[slot] !== 1 ? 0 : average > 0 ? Math.fround(weight / (1 - b + (b * index.fieldLengths[slot * FIELD_COUNT + field]!) / average)) : Math.fround(weight);
    const flags =
      (field !== FIELD_ID.parameterValue ? IMPACT_OUTSIDE_VALUE : 0) |
      (field === FIELD_ID.description ? IMPACT_DESCRIPTION : 0) |
      (field === FIELD_ID.parameterName ? IMPACT_PARAMETER_NAME : 0) |
      (field === FIELD_ID.name ? IMPACT_OWN_NAME : 0);
    if (last !== undefined && last.slot === slot) {
      last.pseudo += norm * index.frequencies[id]![i]!;
      last.flags |= flags;
      last.inServer ||= field === FIELD_ID.server;
      continue;
    }
    flush();
    last = { slot, pseudo: norm * index.frequencies[id]![i]!, flags, inServer: field === FIELD_ID.server };
  }
  flush();
  return out;
}

function queryTerms(index: InvertedIndex, words: readonly string[]): QueryTerm[] {
  const terms = words.map((word, i) => {
    const id = index.termId(word)!;
    const frequency = index.documentFrequency[id]!;
    const idf = Math.log(1 + (index.liveCount - frequency + 0.5) / (frequency + 0.5));
    const weight = i === words.length - 1 ? 0.3 : 1; // the last one weighs like a number
    return { id, idf, weight, weightedIdf: idf * weight, requiredBit: 0, cjk: false };
  });
  return terms.sort((a, b) => b.idf - a.idf || a.id - b.id);
}

/** run()'s scores as the plain model has them: term by term, rarest first, frequent terms only adding to slots already scored once enough are. */
function modelScores(index: InvertedIndex, terms: readonly QueryTerm[], options: RankingOptions): { order: number[]; scores: Map<number, number> } {
  const scores = new Map<number, number>();
  const order: number[] = [];
  const frequent = options.frequentTermShare * index.liveCount;
  let prune: boolean | undefined;
  for (const term of terms) {
    const scale = term.weightedIdf * (options.k1 + 1);
    if (scale === 0) continue;
    const entries = modelImpacts(index, term.id, options);
    if (entries.length > frequent && prune === undefined) prune = order.length >= options.candidates;
    for (const { slot, value } of entries) {
      const before = scores.get(slot) ?? 0;
      if (prune === true && entries.length > frequent && before === 0) continue;
      if (before === 0) order.push(slot);
      scores.set(slot, Math.fround(before + scale * value));
    }
  }
  return { order, scores };
}

describe("impacts", () => {
  for (const [label, overrides] of [
    ["default weights", {}],
    ["the description weighed 0 (fewer entries than the document frequency)", { weights: { description: 0 } }],
  ] as const) {
    test(`equal the plain model for every term: ${label}`, () => {
      const index = buildIndex(600);
      const options = rankingOptions(overrides as Partial<RankingOptions>);
      const scorer = new Bm25fScorer(options);
      let unsorted = 0;
      let short = 0;
      for (let id = 0; id < index.terms.length; id++) {
        const impacts = scorer.impacts(index, id);
        const model = modelImpacts(index, id, options);
        const got: Entry[] = [];
        for (let i = 0; i < impacts.length; i++) {
          got.push({ slot: impacts.entries[i]! >>> IMPACT_FLAG_BITS, flags: impacts.entries[i]! & ((1 << IMPACT_FLAG_BITS) - 1), value: impacts.values[i]! });
        }
        expect(got).toEqual(model);
        const ascending = model.every((entry, i) => i === 0 || model[i - 1]!.slot < entry.slot);
        expect(impacts.sorted).toBe(ascending);
        if (!ascending) unsorted++;
        // Both arrays exactly as long as the entries (the first stage's loops run to their length).
        expect(impacts.entries.length).toBe(impacts.length);
        expect(impacts.values.length).toBe(impacts.length);
        if (impacts.length < index.documentFrequency[id]!) short++;
      }
      expect(unsorted).toBeGreaterThan(0); // the reused slots made some lists unordered
      expect(short > 0).toBe(options.weights.description === 0); // a slot with the term only where it weighs 0 has no entry
    });
  }

  test("refreshed in place after the index changes, still equal to the model", () => {
    const index = buildIndex(400);
    const options = rankingOptions();
    const scorer = new Bm25fScorer(options);
    const id = index.termId("alpha")!;
    const first = scorer.impacts(index, id);
    index.remove(index.slotOf("tool_1")!);
    const again = scorer.impacts(index, id);
    expect(again).toBe(first); // room enough: the same arrays, rewritten
    const got = Array.from({ length: again.length }, (_, i) => again.entries[i]! >>> IMPACT_FLAG_BITS);
    expect(got).toEqual(modelImpacts(index, id, options).map((entry) => entry.slot));
  });
});

describe("run", () => {
  const cases: [string, readonly string[], Partial<RankingOptions>][] = [
    ["rare and frequent terms, pruning", ["rare1", "rare2", "rare3", "alpha", "beta", "gamma"], { candidates: 5 }],
    ["every term frequent: scored in full", ["alpha", "beta", "gamma", "delta"], { candidates: 5 }],
    ["too few candidates before the frequent terms: scored in full", ["rare1", "alpha", "beta"], { candidates: 500 }],
  ];
  for (const [label, words, overrides] of cases) {
    test(`scores and the touched list equal the plain model: ${label}`, () => {
      const index = buildIndex(600);
      const options = rankingOptions(overrides);
      const scorer = new Bm25fScorer(options);
      // Twice: the second run starts from the first one's leftovers (reset by the touched list).
      for (let pass = 0; pass < 2; pass++) {
        const terms = queryTerms(index, words);
        scorer.run(index, terms, false);
        const model = modelScores(index, terms, options);
        const touched = [...scorer.touched.subarray(0, scorer.touchedCount)];
        expect(touched).toEqual(model.order);
        for (const slot of touched) expect(scorer.scores[slot]).toBe(model.scores.get(slot)!);
        let nonzero = 0;
        for (let slot = 0; slot < index.slotCount; slot++) if (scorer.scores[slot] !== 0) nonzero++;
        expect(nonzero).toBe(touched.length);
      }
    });
  }
});

describe("run with +required words or CJK text (track)", () => {
  test("each slot's required bits, CJK match count and other-match mark equal the plain model, and are cleared by the next run", () => {
    const index = buildIndex(600);
    const options = rankingOptions({ candidates: 5 });
    const scorer = new Bm25fScorer(options);
    const words = ["rare1", "rare2", "alpha", "beta", "gamma"];
    // Two required words, two terms marked CJK (one of them also required), a plain one.
    const marked = (terms: QueryTerm[]) =>
      terms.map((term) => {
        const word = index.terms[term.id]!;
        return { ...term, requiredBit: word === "rare1" ? 1 : word === "alpha" ? 2 : 0, cjk: word === "beta" || word === "alpha" };
      });
    for (let pass = 0; pass < 2; pass++) {
      const terms = marked(queryTerms(index, words));
      scorer.run(index, terms, true);
      const required = new Map<number, number>();
      const cjk = new Map<number, number>();
      const other = new Set<number>();
      // Tracked, every term is scored in full (no pruning): each of its slots is noted.
      for (const term of terms) {
        for (const { slot } of modelImpacts(index, term.id, options)) {
          required.set(slot, (required.get(slot) ?? 0) | term.requiredBit);
          if (term.cjk) cjk.set(slot, (cjk.get(slot) ?? 0) + 1);
          else other.add(slot);
        }
      }
      expect(required.size).toBeGreaterThan(0);
      for (let slot = 0; slot < index.slotCount; slot++) {
        expect(scorer.requiredMask[slot]).toBe(required.get(slot) ?? 0);
        expect(scorer.cjkMatches[slot]).toBe(cjk.get(slot) ?? 0);
        expect(scorer.otherMatches[slot]).toBe(other.has(slot) ? 1 : 0);
      }
      // An untracked run in between clears what the tracked one noted (reset reads the touched list).
      scorer.run(index, queryTerms(index, ["rare3"]), false);
      scorer.run(index, queryTerms(index, ["rare3"]), false);
      for (let slot = 0; slot < index.slotCount; slot++) expect(scorer.requiredMask[slot]! | scorer.cjkMatches[slot]! | scorer.otherMatches[slot]!).toBe(0);
    }
  });
});

describe("precomputeImpacts: every term's impacts ahead of use, in bounded steps", () => {
  const liveIds = (index: InvertedIndex) => Array.from({ length: index.terms.length }, (_, id) => id).filter((id) => index.documentFrequency[id]! > 0);
  const currentIds = (scorer: Bm25fScorer, index: InvertedIndex) => liveIds(index).filter((id) => scorer.impactCache.peek(id)?.version === index.version);

  test("each call works out about maxEntries entries (one term past it at most) until every live term's are current, and then they are the model's", () => {
    const index = buildIndex(600);
    const scorer = new Bm25fScorer(rankingOptions());
    const maxEntries = 200;
    const largest = Math.max(...liveIds(index).map((id) => index.documentFrequency[id]!));
    let calls = 0;
    let before = 0;
    for (let done = false; !done; calls++) {
      expect(calls).toBeLessThan(1000);
      done = scorer.precomputeImpacts(index, maxEntries);
      const entries = currentIds(scorer, index).reduce((sum, id) => sum + index.documentFrequency[id]!, 0);
      expect(entries - before).toBeLessThan(maxEntries + largest);
      if (!done) expect(entries - before).toBeGreaterThanOrEqual(maxEntries);
      before = entries;
    }
    expect(calls).toBeGreaterThanOrEqual(Math.floor(index.termSlotPairs / (maxEntries + largest)));
    expect(currentIds(scorer, index)).toEqual(liveIds(index));
    const options = rankingOptions();
    for (const id of liveIds(index)) {
      const impacts = scorer.impactCache.peek(id)!;
      const model = modelImpacts(index, id, options);
      expect(impacts.length).toBe(model.length);
      for (let i = 0; i < model.length; i++) expect({ slot: impacts.entries[i]! >>> IMPACT_FLAG_BITS, flags: impacts.entries[i]! & ((1 << IMPACT_FLAG_BITS) - 1), value: impacts.values[i]! }).toEqual(model[i]!);
    }
    // Done: a further call does nothing, and a query afterwards reads the same impacts, working out none.
    const held = liveIds(index).map((id) => scorer.impactCache.peek(id));
    expect(scorer.precomputeImpacts(index, 0)).toBe(true);
    scorer.run(index, queryTerms(index, ["alpha", "rare3", "beta"]), false);
    expect(liveIds(index).map((id) => scorer.impactCache.peek(id))).toEqual(held);
    liveIds(index).forEach((id, i) => expect(scorer.impactCache.peek(id)).toBe(held[i]!));
  });

  test("scores are the same to the bit with impacts worked out ahead or by the query", () => {
    const index = buildIndex(600);
    const ahead = new Bm25fScorer(rankingOptions());
    while (!ahead.precomputeImpacts(index, 500));
    const asked = new Bm25fScorer(rankingOptions());
    for (const words of [["alpha", "beta"], ["rare1", "gamma", "omega"], ["kappa", "lambda", "sigma", "delta"]]) {
      const terms = queryTerms(index, words);
      ahead.run(index, terms, false);
      asked.run(index, terms, false);
      expect([...ahead.touched.subarray(0, ahead.touchedCount)]).toEqual([...asked.touched.subarray(0, asked.touchedCount)]);
      for (let slot = 0; slot < index.slotCount; slot++) expect(ahead.scores[slot]).toBe(asked.scores[slot]!);
    }
  });

  test("a query works out its own terms' impacts only, however many queries come", () => {
    const index = buildIndex(600);
    const scorer = new Bm25fScorer(rankingOptions());
    for (let i = 0; i < 40; i++) scorer.run(index, queryTerms(index, ["rare1", "rare2", "alpha"]), false);
    expect(scorer.impactCache.size).toBe(3);
  });

  test("terms a query worked out are passed over, not counted against the step", () => {
    const index = buildIndex(600);
    const scorer = new Bm25fScorer(rankingOptions());
    const [first, second] = liveIds(index);
    scorer.run(index, queryTerms(index, [index.terms[first!]!]), false);
    const held = scorer.impactCache.peek(first!)!;
    expect(scorer.precomputeImpacts(index, 1)).toBe(false);
    // One term worked out by the step, beside the query's, which was left as it was.
    expect(currentIds(scorer, index)).toEqual([first!, second!]);
    expect(scorer.impactCache.peek(first!)).toBe(held);
  });

  test("an index changed mid-sweep is swept again from the first term", () => {
    const index = buildIndex(600);
    const scorer = new Bm25fScorer(rankingOptions());
    expect(scorer.precomputeImpacts(index, 300)).toBe(false);
    const halfway = currentIds(scorer, index).length;
    expect(halfway).toBeGreaterThan(0);
    index.remove(index.slotOf("tool_1")!);
    expect(currentIds(scorer, index)).toEqual([]);
    expect(scorer.precomputeImpacts(index, 1)).toBe(false);
    expect(currentIds(scorer, index)).toEqual([liveIds(index)[0]!]);
    while (!scorer.precomputeImpacts(index, 300));
    expect(currentIds(scorer, index)).toEqual(liveIds(index));
  });

  test("a pool whose impacts would not all fit in a quarter of the budget has its most frequent terms swept, within that quarter", () => {
    const index = buildIndex(600);
    const budget = index.termSlotPairs * 8 * 2; // all impacts fit in half the budget, not a quarter
    const small = new Bm25fScorer(rankingOptions(), budget);
    while (!small.precomputeImpacts(index, 300));
    const swept = currentIds(small, index);
    const rest = liveIds(index).filter((id) => !swept.includes(id));
    expect(swept.length).toBeGreaterThan(0);
    expect(rest.length).toBeGreaterThan(0);
    const entries = swept.reduce((sum, id) => sum + index.documentFrequency[id]!, 0);
    expect(entries * 8).toBeLessThanOrEqual(budget / 4);
    // Every term left out is no more frequent than the least frequent swept one's power of two.
    const least = Math.min(...swept.map((id) => index.documentFrequency[id]!));
    for (const id of rest) expect(index.documentFrequency[id]!).toBeLessThan(2 ** (32 - Math.clz32(least)));
    expect(Math.max(...swept.map((id) => index.documentFrequency[id]!))).toBe(Math.max(...liveIds(index).map((id) => index.documentFrequency[id]!)));
    // Their values are the model's.
    const options = rankingOptions();
    for (const id of swept) {
      const model = modelImpacts(index, id, options);
      const impacts = small.impactCache.peek(id)!;
      for (let i = 0; i < model.length; i++) expect(impacts.values[i]!).toBe(model[i]!.value);
    }
    const enough = new Bm25fScorer(rankingOptions(), index.termSlotPairs * 8 * 4);
    expect(enough.precomputeImpacts(index, 1_000_000)).toBe(true);
    expect(enough.impactCache.size).toBe(liveIds(index).length);
  });

  test("a removal keeps the pair count equal to the sum of document frequencies", () => {
    const index = buildIndex(300);
    for (let slot = 0; slot < 50; slot += 3) index.remove(slot);
    let total = 0;
    for (let id = 0; id < index.terms.length; id++) total += index.documentFrequency[id]!;
    expect(index.termSlotPairs).toBe(total);
  });
});

describe("ScoreSelector with a guessed cut (many contenders)", () => {
  const best = (touched: Int32Array, scores: Float32Array, k: number) =>
    [...touched]
      .sort((a, b) => scores[b]! - scores[a]! || a - b)
      .slice(0, k)
      .sort((a, b) => a - b);
  const chosen = (selector: ScoreSelector, touched: Int32Array, scores: Float32Array, k: number) =>
    selector.select(touched, touched.length, scores, k, new TopK(), [] as { slot: number; score: number }[])!.map((pair) => pair.slot).sort((a, b) => a - b);

  test("the best k are those of a full sort, with ties at the cut and scores in any order", () => {
    let seed = 11;
    const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const selector = new ScoreSelector();
    for (let round = 0; round < 100; round++) {
      const count = 300 + Math.floor(random() * 4000);
      const scores = new Float32Array(count + 10);
      // Few distinct values in some rounds: many slots tie at the cut.
      const levels = round % 3 === 0 ? 5 : 1000;
      const touched = Int32Array.from({ length: count }, (_, i) => i + 10).sort(() => random() - 0.5);
      for (const slot of touched) scores[slot] = 0.01 + Math.floor(random() * levels) / 7;
      for (const k of [1, 50, 100]) expect(chosen(selector, touched, scores, k)).toEqual(best(touched, scores, k));
    }
  });

  test("a guess too high (the sampled scores are the best ones) falls back to all contenders", () => {
    const count = 1000;
    const scores = new Float32Array(count);
    const touched = Int32Array.from({ length: count }, (_, i) => i);
    for (let i = 0; i < count; i++) scores[i] = 1 + (i % 97) / 100;
    // The slots the guess reads (32 evenly spaced) score highest: the cut keeps only them, fewer than k.
    for (let i = 0; i < 32; i++) scores[Math.floor((i * count) / 32)] = 50;
    expect(chosen(new ScoreSelector(), touched, scores, 50)).toEqual(best(touched, scores, 50));
  });
});
