import {
  GIVEN_NOUN,
  GIVEN_NOUN_SCAN,
  GIVEN_POINTER,
  GIVEN_PREPOSITION,
  GIVEN_SCAN,
  GIVEN_SKIP,
  givenWordsOfPointing,
  MAX_GIVEN,
} from "./given-words.ts";
import { PARAMETER_WORDS, valueKinds } from "./value-kinds.ts";
import { AnswerScan } from "./answer-types.ts";
import { MAX_QUERY_CHARS, parseQueryWords, queryForm, type ParsedQuery } from "./query-parser.ts";
import type { QueryTokens } from "./query-terms.ts";
import { QueryWords, type WordFacts } from "./query-words.ts";
import { isLowerAsciiWord, isWhiteSpace } from "./char-class.ts";
import { MAX_SCANNED_WORDS, type MentionWord, type MentionWords } from "./server-mention.ts";
import type { Tokenizer } from "./tokenizer.ts";
import { WORD_HASH_SEED, wordHashStep } from "./word-table.ts";

/** Parsed and tokenized queries kept for reuse: prefetch re-asks, and models retry and refine. */
const QUERY_CACHE_SIZE = 2048;
/**
 * And at most this many characters of query text in all: a parsed query of new words holds ~13 bytes
 * of heap a character (its terms, words' facts and windows), so 2,048 queries of 4,096 characters —
 * what a hostile caller can send — held 110 MiB of heap (128 now: 17 MiB). Real queries (~100
 * characters) fill the entry count long before this.
 */
const QUERY_CACHE_CHARS = 512 * 1024;
/** Runs of white space (char-class.ts isWhiteSpace). */
const GAPS = /\s+/g;
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
  /** The characters of the entries' texts, held to QUERY_CACHE_CHARS. */
  private cachedChars = 0;
  private readonly words: QueryWords;
  /** A free-text query's words (start and end), their hashes and home entries, for reading ahead (QueryWords.warm). */
  private readonly bounds = new Int32Array(MAX_QUERY_CHARS + 2);
  private readonly hashes = new Int32Array(MAX_QUERY_CHARS / 2 + 1);
  private readonly homes = new Int32Array(MAX_QUERY_CHARS / 2 + 1);
  /** What the reads ahead read: kept so they are not dropped. */
  private read = 0;
  /** The free text of the query plainDraft last read. */
  private freeText = "";
  /** The facts of the words of the query being parsed (their first `count`; the rest are stale). */
  private readonly facts: WordFacts[] = [];

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
    // Oldest first, until both the count and the characters have room.
    while (this.entries.size > 0 && (this.entries.size >= QUERY_CACHE_SIZE || this.cachedChars + text.length > QUERY_CACHE_CHARS)) {
      const oldest = this.entries.keys().next().value!;
      this.entries.delete(oldest);
      this.cachedChars -= oldest.length;
    }
    this.entries.set(text, entry);
    this.cachedChars += text.length;
    return entry;
  }

  /** The query parsed as get() would, neither read from nor kept in the cache (ToolSearchIndex.warmUp). */
  uncached(query: string): CachedQuery {
    return this.parse(query.slice(0, MAX_QUERY_CHARS));
  }

  /**
   * Works out ahead of use the facts of the words of `text` (the pool's own text: a tool's
   * description), split at white space as a query is, its first MAX_QUERY_CHARS characters;
   * false once the word table holds its share of such words (QueryWords.learn). Nothing any
   * parse gives changes: a word's facts are a function of its characters.
   */
  learnWords(text: string): boolean {
    const length = Math.min(text.length, MAX_QUERY_CHARS);
    let i = 0;
    while (i < length) {
      if (isGap(text.charCodeAt(i))) {
        i++;
        continue;
      }
      const start = i;
      while (++i < length && !isGap(text.charCodeAt(i)));
      if (!this.words.learn(text, start, i)) return false;
    }
    return true;
  }

  /** Forgets every entry (benchmarks measure never-seen queries with it). */
  clear(): void {
    this.entries.clear();
    this.cachedChars = 0;
  }

  /**
   * The query's parse from its words' facts (query-words.ts). A query whose words are all free
   * text (most) is read in one scan: each word hashed as its end is looked for, all of them read
   * ahead, then looked up and their facts added to the draft. One with syntax (`+word`, `mcp__x`,
   * `page:N`) is split by parseQueryWords first. Either way the facts are put together the same way.
   */
  private parse(text: string): CachedQuery {
    const form = queryForm(text);
    if (form.kind === "select") return { parsed: form, tokens: { text: [], required: [], given: [], valueParameters: [] }, identifiers: [], mentions: { words: [] } };
    const plain = this.plainDraft(form.whole);
    if (plain !== undefined) return this.finish({ kind: form.kind, whole: form.whole, text: this.freeText, required: [], servers: [] }, plain);
    const { parsed, words } = parseQueryWords(text);
    if (parsed.kind === "select") throw new Error("queryForm and parseQueryWords disagree on a select: query");
    const facts = this.facts;
    for (let i = 0; i < words.length; i++) facts[i] = this.words.of(words[i]!, 0, words[i]!.length);
    return this.finish(parsed, this.draftOf(words.length));
  }

  /**
   * The draft of `whole` (trimmed) when every word is free text, else undefined; its free text in
   * `freeText`: `whole` itself when every gap is one space, else its words joined by single spaces
   * (as parseQueryWords gives it: a pasted list's line breaks and indents). One scan of the
   * characters finds each word's end and hashes it (wordHash) on the way.
   */
  private plainDraft(whole: string): QueryDraft | undefined {
    const length = whole.length;
    let count = 0;
    let single = true;
    const bounds = this.bounds;
    const hashes = this.hashes;
    let i = 0;
    while (i < length) {
      let code = whole.charCodeAt(i);
      if (isGap(code)) {
        // A gap other than one plain space: the free text is the words joined.
        if (code !== 0x20 || i === 0 || i + 1 === length || isGap(whole.charCodeAt(i + 1))) single = false;
        i++;
        continue;
      }
      const start = i;
      let hash = WORD_HASH_SEED;
      do {
        hash = wordHashStep(hash, code);
        if (++i === length) break;
        code = whole.charCodeAt(i);
      } while (!isGap(code));
      bounds[count * 2] = start;
      bounds[count * 2 + 1] = i;
      hashes[count++] = hash;
    }
    if (count === 0) return undefined;
    this.read ^= this.words.warm(hashes, count, this.homes);
    const facts = this.facts;
    for (let w = 0; w < count; w++) {
      const word = this.words.ofHashed(whole, bounds[w * 2]!, bounds[w * 2 + 1]!, hashes[w]!);
      if (word.syntax !== undefined) return undefined;
      facts[w] = word;
    }
    this.freeText = single ? whole : this.joined(whole);
    return this.draftOf(count);
  }

  /** The draft of the first `count` of `facts`, its arrays made at their final size (a new query's words are mostly known: counting is cheap, growing arrays is not). */
  private draftOf(count: number): QueryDraft {
    const facts = this.facts;
    let terms = 0;
    for (let w = 0; w < count; w++) {
      const word = facts[w]!;
      if (word.term !== undefined) terms++;
      if (word.moreTerms !== undefined) terms += word.moreTerms.length;
    }
    const draft = new QueryDraft(terms, Math.min(count, MAX_SCANNED_WORDS));
    for (let w = 0; w < count; w++) draft.add(facts[w]!);
    // The given-word scan, followed only for a query that may point (most do not).
    if (draft.mayPoint) for (let w = 0; w < count && !draft.givenScan; w++) draft.follow(facts[w]!, this.words);
    return draft;
  }

  /**
   * The words of `whole` (trimmed: no white space at either end) joined by single spaces: each run
   * of white space (isWhiteSpace, which is what `\s` matches) made one space, natively.
   */
  private joined(whole: string): string {
    return whole.replace(GAPS, " ");
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

  private finish(parsed: Exclude<ParsedQuery, { kind: "select" }>, draft: QueryDraft): CachedQuery {
    return {
      parsed,
      tokens: {
        text: draft.terms,
        textIds: draft.textIds,
        idsAt: this.tokenizer.dictionarySize(),
        textFlags: draft.textFlags,
        required: parsed.required.map((word) => this.tokenizer.tokenize(word)),
        given: !draft.mayPoint ? [] : draft.givenScan ? this.givenTerms(parsed.text) : (draft.givenTerms ?? []),
        valueParameters: draft.decimal ? valueKinds(parsed.text).flatMap((kind) => PARAMETER_WORDS[kind].flatMap((word) => this.tokenizer.tokenize(word))) : [],
        answer: draft.answers.asked,
      },
      identifiers: draft.identifiers,
      mentions: draft.mentions,
    };
  }
}

/** White space (isWhiteSpace), printable ASCII told first. */
function isGap(code: number): boolean {
  return code === 0x20 || (code < 0x20 ? code >= 0x09 && code <= 0x0d : code >= 0x80 && isWhiteSpace(code));
}

/** A query's parse as its free-text words' facts are added, in order. */
class QueryDraft {
  readonly terms: string[];
  readonly textIds: number[];
  readonly textFlags: number[];
  readonly identifiers: string[] = [];
  readonly mentions: MentionWords;
  /** mentions.words: the first MAX_SCANNED_WORDS words' facts themselves, no copy of their fields. */
  private readonly mentionWords: MentionWord[];
  mayPoint = false;
  decimal = false;
  /**
   * The given-word scan (given-words.ts) followed word by word: the roles of the last two words
   * with a run, the nouns found and their terms. `givenScan`: some word's role cannot be followed,
   * and the text is scanned instead (when the query may point at all).
   */
  givenScan = false;
  givenNouns: string[] | undefined;
  givenTerms: string[] | undefined;
  /** The question asked, followed word by word (answer-types.ts): only "who", "how" and the word after it are looked at. */
  readonly answers = new AnswerScan();
  private twoBack = 0;
  private oneBack = 0;
  /** Words added, and terms. */
  private count = 0;
  private termCount = 0;

  /** For words with `terms` terms in all, the first `mentioned` of them scanned for server names. */
  constructor(terms: number, mentioned: number) {
    this.terms = new Array<string>(terms);
    this.textIds = new Array<number>(terms);
    this.textFlags = new Array<number>(terms);
    this.mentionWords = new Array<MentionWord>(mentioned);
    this.mentions = { words: this.mentionWords };
  }

  add(word: WordFacts): void {
    // note() does nothing for any other word unless a "how" came before it.
    if (word.leadsAnswer || this.answers.afterHow) this.answers.note(word.mentionKey, word.term === undefined ? -1 : this.termCount, this.count === 0);
    if (word.term !== undefined) this.addTerm(word.term, word.id, word.flags);
    if (word.moreTerms !== undefined) {
      for (let t = 0; t < word.moreTerms.length; t++) this.addTerm(word.moreTerms[t]!, word.moreIds![t]!, word.moreFlags![t]!);
    }
    const at = this.count++;
    if (at < MAX_SCANNED_WORDS) this.mentionWords[at] = word;
    if (word.identifier !== undefined && this.identifiers.length < MAX_IDENTIFIERS) this.identifiers.push(word.identifier);
    if (word.mayPoint) this.mayPoint = true;
    if (word.decimal) this.decimal = true;
  }

  /** The given-word scan's steps over one more word (of a query that may point): the word whole, or run by run. */
  follow(word: WordFacts, words: QueryWords): void {
    const role = word.given;
    if ((role & GIVEN_SKIP) !== 0) return;
    if ((role & GIVEN_SCAN) === 0) {
      this.step(role, word.mentionKey, word.term);
      return;
    }
    const runs = words.givenRunsOf(word);
    if (runs === null) {
      this.givenScan = true;
      return;
    }
    for (let r = 0; r < runs.roles.length; r++) this.step(runs.roles[r]!, runs.nouns[r] ?? "", runs.terms[r]);
  }

  /**
   * One step of the given-word scan: a word (or a run of one) of GIVEN_* `role`; for a noun, `key`
   * is the noun (lowercase) and `term` its term.
   */
  private step(role: number, key: string, term: string | undefined): void {
    if ((this.twoBack & GIVEN_PREPOSITION) !== 0 && (this.oneBack & GIVEN_POINTER) !== 0 && (role & GIVEN_POINTER) === 0) {
      if ((role & GIVEN_NOUN_SCAN) !== 0 && (this.givenNouns?.length ?? 0) < MAX_GIVEN) this.givenScan = true;
      if ((role & GIVEN_NOUN) !== 0) this.addNoun(key, term);
    }
    this.twoBack = this.oneBack;
    this.oneBack = role;
  }

  /** A noun after a preposition and a pointing word: its key is the noun, its term the noun's. */
  private addNoun(key: string, term: string | undefined): void {
    const nouns = (this.givenNouns ??= []);
    if (nouns.length >= MAX_GIVEN || nouns.includes(key)) return;
    nouns.push(key);
    if (term !== undefined) (this.givenTerms ??= []).push(term);
  }

  private addTerm(term: string, id: number, flags: number): void {
    const at = this.termCount++;
    this.terms[at] = term;
    this.textIds[at] = id;
    this.textFlags[at] = flags;
  }
}
