import { givenWordsOfPointing } from "./given-words.ts";
import { PARAMETER_WORDS, valueKinds } from "./value-kinds.ts";
import { MAX_QUERY_CHARS, parseQueryWords, queryForm, type ParsedQuery } from "./query-parser.ts";
import type { QueryTokens } from "./query-terms.ts";
import { QueryWords, type WordFacts } from "./query-words.ts";
import { isLowerAsciiWord, isWhiteSpace } from "./char-class.ts";
import { MAX_SCANNED_WORDS, type MentionWords } from "./server-mention.ts";
import type { Tokenizer } from "./tokenizer.ts";

/** Parsed and tokenized queries kept for reuse: prefetch re-asks, and models retry and refine. */
const QUERY_CACHE_SIZE = 2048;
/** Identifier-like words looked up per query; a pasted log cannot turn into thousands of lookups. */
const MAX_IDENTIFIERS = 32;

/** A query as parsed and tokenized; it depends on the text alone, never on the index contents. */
export interface CachedQuery {
  parsed: ParsedQuery;
  tokens: QueryTokens;
  /** Identifier-like words of the free text (tool names typed into the query). */
  identifiers: string[];
  /** Words that could name a server ("GitLab", "Google Calendar"), windows of them found per index. */
  mentions: MentionWords;
  /** The servers those windows named, for the server registry's `liveVersion` it was found at. */
  found?: { version: number; servers: number[]; terms: string[]; wholeNameTerms: string[] };
}

/** Least-recently-used cache of parsed queries, keyed by the (length-capped) query text. */
export class QueryCache {
  private readonly entries = new Map<string, CachedQuery>();
  private readonly words: QueryWords;

  constructor(private readonly tokenizer: Tokenizer) {
    this.words = new QueryWords(tokenizer);
  }

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

  /**
   * The query's parse from its words' facts (query-words.ts). The common query (words of free
   * text, one space apart) is read in place; one with syntax or other white space is split by
   * parseQueryWords first. Either way the free-text words' facts are put together the same way.
   */
  private parse(text: string): CachedQuery {
    const form = queryForm(text);
    if (form.kind === "select") return { parsed: form, tokens: { text: [], required: [], given: [], valueParameters: [] }, identifiers: [], mentions: { words: [], keys: [], hashes: [], keyLengths: [] } };
    const plain = this.plainWords(form.whole);
    if (plain !== undefined) return this.assemble({ kind: form.kind, whole: form.whole, text: form.whole, required: [], servers: [] }, plain);
    const { parsed, words } = parseQueryWords(text);
    if (parsed.kind === "select") throw new Error("queryForm and parseQueryWords disagree on a select: query");
    return this.assemble(parsed, words.map((word) => this.words.of(word, 0, word.length)));
  }

  /** The facts of each word of `whole` when every word is free text and every gap one space; else undefined. */
  private plainWords(whole: string): WordFacts[] | undefined {
    const facts: WordFacts[] = [];
    let start = 0;
    for (let i = 0; i <= whole.length; i++) {
      const code = i < whole.length ? whole.charCodeAt(i) : 0x20;
      if (!isWhiteSpace(code)) continue;
      if (code !== 0x20 || i === start) return undefined;
      const word = this.words.of(whole, start, i);
      if (word.syntax !== undefined) return undefined;
      facts.push(word);
      start = i + 1;
    }
    return facts;
  }

  /**
   * Terms of the words a text that may point marks as given (given-words.ts). An ASCII noun is
   * lowercase letters and digits, one word to the tokenizer: its term is looked up, not scanned for.
   */
  private givenTerms(text: string): string[] {
    const terms: string[] = [];
    for (const noun of givenWordsOfPointing(text)) {
      if (!isLowerAsciiWord(noun)) {
        this.tokenizer.tokenize(noun, terms);
        continue;
      }
      const term = this.tokenizer.termOfLowerAscii(noun);
      if (term !== null) terms.push(term);
    }
    return terms;
  }

  private assemble(parsed: Exclude<ParsedQuery, { kind: "select" }>, words: readonly WordFacts[]): CachedQuery {
    const terms: string[] = [];
    const textIds: number[] = [];
    const textFlags: number[] = [];
    const identifiers: string[] = [];
    const mentions: MentionWords = { words: [], keys: [], hashes: [], keyLengths: [] };
    let mayPoint = false;
    let decimal = false;
    for (let i = 0; i < words.length; i++) {
      const word = words[i]!;
      if (word.term !== undefined) {
        terms.push(word.term);
        textIds.push(word.id);
        textFlags.push(word.flags);
      }
      if (word.moreTerms !== undefined) {
        for (let t = 0; t < word.moreTerms.length; t++) {
          terms.push(word.moreTerms[t]!);
          textIds.push(word.moreIds![t]!);
          textFlags.push(word.moreFlags![t]!);
        }
      }
      if (i < MAX_SCANNED_WORDS) {
        mentions.words.push(word.mentionWord);
        mentions.keys.push(word.mentionKey);
        mentions.hashes.push(word.mentionHash);
        mentions.keyLengths.push(word.mentionLength);
      }
      if (word.identifier !== undefined && identifiers.length < MAX_IDENTIFIERS) identifiers.push(word.identifier);
      mayPoint ||= word.mayPoint;
      decimal ||= word.decimal;
    }
    return {
      parsed,
      tokens: {
        text: terms,
        textIds,
        idsAt: this.tokenizer.dictionarySize(),
        textFlags,
        required: parsed.required.map((word) => this.tokenizer.tokenize(word)),
        given: mayPoint ? this.givenTerms(parsed.text) : [],
        valueParameters: decimal ? valueKinds(parsed.text).flatMap((kind) => PARAMETER_WORDS[kind].flatMap((word) => this.tokenizer.tokenize(word))) : [],
      },
      identifiers,
      mentions,
    };
  }
}
