/**
 * The words of a search that the prior remembers against the tool called after it: lower-cased,
 * stop words dropped, English words stemmed (as the search index does), de-duplicated, at most
 * MAX_TERMS of them — a long request teaches no more than its first few content words.
 */
import { porterStem } from "../search/porter-stem.ts";
import { STOP_WORDS } from "../search/stop-words.ts";

export const MAX_TERMS = 16;
const MAX_TERM_CHARS = 40;
const ASCII_WORD = /^[a-z]+$/;

export function usageTerms(text: string): string[] {
  const terms = new Set<string>();
  for (const word of text.toLowerCase().slice(0, 2_000).split(/[^\p{L}\p{N}]+/u)) {
    if (word.length < 2 || word.length > MAX_TERM_CHARS || STOP_WORDS.has(word)) continue;
    terms.add(ASCII_WORD.test(word) ? porterStem(word) : word);
    if (terms.size >= MAX_TERMS) break;
  }
  return [...terms];
}
