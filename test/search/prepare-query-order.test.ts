import { describe, expect, test } from "bun:test";
import type { QueryTerm } from "../../src/search/bm25f-scorer.ts";
import { documentFields } from "../../src/search/document-fields.ts";
import { InvertedIndex } from "../../src/search/inverted-index.ts";
import { QueryScratch } from "../../src/search/query-scratch.ts";
import { prepareQuery } from "../../src/search/query-terms.ts";
import { rankingOptions } from "../../src/search/ranking-options.ts";
import { SynonymTable } from "../../src/search/synonyms.ts";
import { Tokenizer } from "../../src/search/tokenizer.ts";

/**
 * prepareQuery sorts a query's terms by IDF over typed keys (up to 32 terms, the native sort past
 * that), puts each kept term's position on it (`at`) for the pairs, and reuses its stand-in and id
 * arrays from query to query. Checked against the straightforward way: a comparator sort, a map
 * of positions, fresh objects.
 */
// Words of every frequency: word i is in the tools whose number it divides, so some share a document frequency (ties by id).
const WORDS = Array.from({ length: 60 }, (_, i) => `w${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}x`);
const SYNONYMS = ["folder", "directory", "picture", "image", "delete", "remove"];

function buildIndex(): { index: InvertedIndex; tokenizer: Tokenizer } {
  const index = new InvertedIndex();
  const tokenizer = new Tokenizer(index);
  for (let tool = 1; tool <= 240; tool++) {
    const words = WORDS.filter((_, i) => tool % (i + 1) === 0 || (tool * 7 + i) % 53 === 0);
    const extra = SYNONYMS.filter((_, i) => tool % (i + 3) === 0);
    index.add(`tool_${tool}`, documentFields({ name: `tool_${tool}`, description: [...words, ...extra].join(" ") }, tokenizer));
  }
  return { index, tokenizer };
}

function byIdf(a: QueryTerm, b: QueryTerm): number {
  return b.idf - a.idf || a.id - b.id;
}

/** A deterministic generator (no Math.random): a query's words, repeats and unknown words included. */
function queries(count: number): string[][] {
  let seed = 12345;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const vocabulary = [...WORDS, ...SYNONYMS, "unknownword", "zzz"];
  return Array.from({ length: count }, (_, q) => {
    const length = 1 + Math.floor(next() * (q % 3 === 0 ? 70 : 20));
    return Array.from({ length }, () => vocabulary[Math.floor(next() * vocabulary.length)]!);
  });
}

describe("prepareQuery: terms by IDF, positions, reused answers", () => {
  const { index, tokenizer } = buildIndex();
  const synonyms = new SynonymTable();
  const standInsOf = (id: number) => synonyms.standInsOf(index, id);

  for (const maxQueryTerms of [64, 8]) {
    test(`the order, positions and pairs are the straightforward way's (maxQueryTerms ${maxQueryTerms}), one scratch for all queries`, () => {
      const options = rankingOptions({ maxQueryTerms });
      const scratch = new QueryScratch();
      let long = 0;
      for (const words of queries(400)) {
        const text = words.flatMap((word) => tokenizer.tokenize(word));
        const query = prepareQuery(index, { text, required: [], given: text.slice(0, 2), valueParameters: [] }, options, scratch, standInsOf);
        const fresh = prepareQuery(index, { text, required: [], given: text.slice(0, 2), valueParameters: [] }, options, new QueryScratch(), standInsOf);
        const terms = query.terms;
        if (terms.length > 32) long++;
        // Sorted as by the comparator, the highest IDF first, ties by id.
        expect([...terms].sort(byIdf).map((term) => term.id)).toEqual(terms.map((term) => term.id));
        // The straightforward pairs: adjacent known, kept, distinct words, keyed by their positions.
        const position = new Map(terms.map((term, at) => [term.id, at]));
        const keys: number[] = [];
        const weights: number[] = [];
        for (let i = 0; i + 1 < text.length; i++) {
          const a = index.termId(text[i]!);
          const b = index.termId(text[i + 1]!);
          if (a === undefined || b === undefined || a === b || !position.has(a) || !position.has(b)) continue;
          const key = position.get(a)! * terms.length + position.get(b)!;
          if (keys.includes(key)) continue;
          keys.push(key);
          weights.push((terms[position.get(a)!]!.idf + terms[position.get(b)!]!.idf) / 2);
        }
        expect(query.pairKeys).toEqual(keys);
        expect(query.pairWeights).toEqual(weights);
        // A reused scratch answers as a fresh one: stand-ins and given ids included.
        expect(query.standIns.map((s) => ({ ...s }))).toEqual(fresh.standIns.map((s) => ({ ...s })));
        expect([...query.givenTerms]).toEqual([...fresh.givenTerms]);
        expect(terms.map((term) => ({ ...term }))).toEqual(fresh.terms.map((term) => ({ ...term })));
      }
      if (maxQueryTerms === 64) expect(long).toBeGreaterThan(0); // some went to the native sort
    });
  }
});
