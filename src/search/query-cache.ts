import { givenWords } from "./given-words.ts";
import { PARAMETER_WORDS, valueKinds } from "./value-kinds.ts";
import { MAX_QUERY_CHARS, parseQueryWords, type ParsedQuery } from "./query-parser.ts";
import type { QueryTokens } from "./query-terms.ts";
import { mentionWordsOf, type MentionWords } from "./server-mention.ts";
import type { Tokenizer } from "./tokenizer.ts";

/** Parsed and tokenized queries kept for reuse: prefetch re-asks, and models retry and refine. */
const QUERY_CACHE_SIZE = 2048;
/** Identifier-like words looked up per query; a pasted log cannot turn into thousands of lookups. */
const MAX_IDENTIFIERS = 32;
export const NAME_PUNCTUATION = /[_.\-]|\p{Ll}\p{Lu}/u;
const IDENTIFIER_EDGES = /^[^\p{L}\p{N}_]+|[^\p{L}\p{N}_]+$/gu;

/** A query as parsed and tokenized; it depends on the text alone, never on the index contents. */
export interface CachedQuery {
  parsed: ParsedQuery;
  tokens: QueryTokens;
  /** Identifier-like words of the free text (tool names typed into the query). */
  identifiers: string[];
  /** Words that could name a server ("GitLab", "Google Calendar"), windows of them found per index. */
  mentions: MentionWords;
  /** The servers those windows named, for the server registry's `liveVersion` it was found at. */
  found?: { version: number; servers: number[]; terms: string[] };
}

/** Least-recently-used cache of parsed queries, keyed by the (length-capped) query text. */
export class QueryCache {
  private readonly entries = new Map<string, CachedQuery>();

  constructor(private readonly tokenizer: Tokenizer) {}

  get(query: string): CachedQuery {
    const text = query.slice(0, MAX_QUERY_CHARS);
    const cached = this.entries.get(text);
    if (cached !== undefined) {
      this.entries.delete(text);
      this.entries.set(text, cached);
      return cached;
    }
    const entry = this.parse(text);
    if (this.entries.size >= QUERY_CACHE_SIZE) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(text, entry);
    return entry;
  }

  /** Forgets every entry (benchmarks measure never-seen queries with it). */
  clear(): void {
    this.entries.clear();
  }

  private parse(text: string): CachedQuery {
    const { parsed, words } = parseQueryWords(text);
    if (parsed.kind === "select") return { parsed, tokens: { text: [], required: [], given: [], valueParameters: [] }, identifiers: [], mentions: { words: [], keys: [] } };
    const mentions = mentionWordsOf(words);
    const textIds: number[] = [];
    return {
      parsed,
      tokens: {
        text: this.tokenizer.tokenize(parsed.text, [], textIds),
        textIds,
        idsAt: this.tokenizer.dictionarySize(),
        required: parsed.required.map((word) => this.tokenizer.tokenize(word)),
        given: givenWords(parsed.text).flatMap((word) => this.tokenizer.tokenize(word)),
        valueParameters: valueKinds(parsed.text).flatMap((kind) => PARAMETER_WORDS[kind].flatMap((word) => this.tokenizer.tokenize(word))),
      },
      identifiers: identifierWords(words),
      mentions,
    };
  }
}

/** Words of a query (split on white space) that look like tool identifiers, stripped of surrounding quotes and punctuation. */
function identifierWords(split: readonly string[]): string[] {
  const words: string[] = [];
  for (const raw of split) {
    if (raw.length < 3 || !mayBeIdentifier(raw)) continue;
    const word = identifierOf(raw);
    if (word !== undefined && words.length < MAX_IDENTIFIERS) words.push(word);
  }
  return words;
}

/**
 * The word stripped of IDENTIFIER_EDGES when it then has NAME_PUNCTUATION and at least three
 * characters. An ASCII word (most of them: a sentence's last word, "real-time", "COVID-19") is
 * read by character codes; the regular expressions cost more than the rest of the word's parse.
 */
export function identifierOf(raw: string): string | undefined {
  let from = 0;
  let to = raw.length;
  for (let i = 0; i < raw.length; i++) {
    if (raw.charCodeAt(i) >= 0x80) {
      const word = raw.replace(IDENTIFIER_EDGES, "");
      return word.length >= 3 && NAME_PUNCTUATION.test(word) ? word : undefined;
    }
  }
  while (from < to && !isIdentifierCode(raw.charCodeAt(from))) from++;
  while (to > from && !isIdentifierCode(raw.charCodeAt(to - 1))) to--;
  if (to - from < 3) return undefined;
  for (let i = from; i < to; i++) {
    const code = raw.charCodeAt(i);
    if (code === 0x5f || code === 0x2e || code === 0x2d) return raw.slice(from, to);
    if (i > from && code >= 0x41 && code <= 0x5a) {
      const previous = raw.charCodeAt(i - 1);
      if (previous >= 0x61 && previous <= 0x7a) return raw.slice(from, to);
    }
  }
  return undefined;
}

/** ASCII letters, digits and `_`: what IDENTIFIER_EDGES does not strip. */
function isIdentifierCode(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f;
}

/**
 * A cheap pre-check of NAME_PUNCTUATION for the common all-ASCII word: it needs `_`, `.`, `-` or
 * an uppercase letter after the first character. Anything else goes to the regular expression.
 */
function mayBeIdentifier(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    if (code >= 0x80 || code === 0x5f || code === 0x2e || code === 0x2d || (i > 0 && code >= 0x41 && code <= 0x5a)) return true;
  }
  return false;
}
