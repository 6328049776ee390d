/**
 * What one white-space-delimited word of a query contributes to its parse, worked out from the
 * word alone and kept per word: its terms and their ids, its server-name window key, whether it
 * is an identifier, a pointing word or a decimal number, or query syntax. A query never seen
 * before is mostly words seen before, so parsing it is a scan for white space and one in-place
 * lookup per word (the peer BM25F caches its stems per word; this caches the whole word's parse).
 * A word not seen before is read one of two ways: a plain word (plainWordShape: ASCII letters and
 * digits inside punctuation, most words) from its shape alone, any other by each fact's own reader
 * (tokenizer, server-mention, given-words, value-kinds, query-parser); test/search/plain-words.test.ts
 * holds the two equal, field for field.
 *
 * Bounded like the word table it sits on: words up to MAX_WORD_CHARS are kept, the table empties
 * itself when full, and a longer word is worked out each time it is met.
 */
import { leadsAnswer } from "./answer-types.ts";
import { GIVEN_POINTER, givenMayPoint, givenRole, givenRuns, isPointingWord, plainGivenRoleAt } from "./given-words.ts";
import { wordSyntax, type WordSyntax } from "./query-parser.ts";
import { termFlags } from "./query-terms.ts";
import { keyHashOf, keyHashOfAscii, mentionKeyOf, mentionWordOf, type MentionWord } from "./server-mention.ts";
import type { Tokenizer } from "./tokenizer.ts";
import { plainWordShapeAt, shapeFrom, shapeHasUpper, shapeTo } from "./plain-word-shape.ts";
import { mayHaveDecimal } from "./value-kinds.ts";
import { MAX_ENTRIES, MAX_WORD_CHARS, WordTable, wordHash } from "./word-table.ts";

export const NAME_PUNCTUATION = /[_.\-]|\p{Ll}\p{Lu}/u;
const IDENTIFIER_EDGES = /^[^\p{L}\p{N}_]+|[^\p{L}\p{N}_]+$/gu;

/**
 * A query word's share of the parse; every field is a function of the word's characters. Most
 * words have one term or none: the first term is held in the object itself, and arrays only
 * for a word with more ("getUserProfile"), so a word read costs no array reads. Its server-name
 * window fields are MentionWord's (findMentions fills in the filter's answers).
 */
export interface WordFacts extends MentionWord {
  /** Its first term (tokenizer.ts), undefined for a word with none (a stop word, punctuation). */
  term: string | undefined;
  /** The first term's id as of a dictionary of `idsAt` terms (-1: not there). */
  id: number;
  idsAt: number;
  /** The first term's termFlags (query-terms.ts). */
  flags: number;
  /** Its mention key is a word the answer scan reacts to on its own (answer-types.ts leadsAnswer). */
  leadsAnswer: boolean;
  /** Its further terms, when it has more than one (their ids and flags: moreIds, moreFlags). */
  moreTerms: string[] | undefined;
  /** The word as a tool identifier it may name (identifierOf), if it looks like one. */
  identifier: string | undefined;
  /** It holds a pointing word ("this", "my"…): the query may mark a word as given (given-words.ts). */
  mayPoint: boolean;
  /** It holds a decimal number: the query may carry a value of a kind (value-kinds.ts). */
  decimal: boolean;
  /** What it is to the given-word scan (given-words.ts givenRole): the parse follows the scan word by word. */
  given: number;
  /**
   * For a word the parse cannot follow whole (given GIVEN_SCAN): its runs (givenRunsOf), worked out
   * when a query that may point first needs them; null when they cannot be followed either.
   */
  givenRuns: GivenRuns | null | undefined;
  /** Set when the word is query syntax (`page:N`, `+required`, `mcp__server`): not free text. */
  syntax: WordSyntax | undefined;
  /**
   * Read only for a word with several terms, or when the dictionary grew: last, so the fields
   * every new query reads of each word (above) share fewer cache lines.
   */
  moreIds: number[] | undefined;
  moreFlags: number[] | undefined;
  word: string;
}

/**
 * An ASCII word of several runs: its runs' roles in order (given-words.ts givenRuns), and each noun
 * run's key and term, which the parse follows run by run.
 */
export interface GivenRuns {
  roles: number[];
  nouns: (string | undefined)[];
  terms: (string | undefined)[];
}

/**
 * Words the pool's own texts may put in the table ahead of use (learn): only while the table holds
 * fewer than this, so the words queries bring keep at least the MAX_ENTRIES they had before it
 * empties itself.
 */
export const AHEAD_WORDS = 2 * MAX_ENTRIES;

/** Raw query words → their facts, looked up by the characters in place (word-table.ts). */
export class QueryWords {
  private readonly table = new WordTable<WordFacts>(2 * AHEAD_WORDS);
  /**
   * termFlags + 1 of each dictionary term a new word met, by term id (0: not worked out yet): a
   * constant of the term, so a new word of a known term reads a number, not the term's characters
   * and a Map. As long as the largest such id (the dictionary only grows, and never reuses an id).
   */
  private flagsById = new Uint16Array(1024);

  constructor(private readonly tokenizer: Tokenizer) {}

  /** The facts of text[start, end), a word without white space, with ids current for the dictionary. */
  of(text: string, start: number, end: number): WordFacts {
    return this.ofHashed(text, start, end, wordHash(text, start, end));
  }

  /**
   * Works out and keeps the facts of text[start, end) ahead of use when it is a plain word
   * (plainWordShape), as a query holding the word would (a word's facts are a function of its
   * characters: nothing any answer reads changes); false, learning nothing, once the table holds
   * AHEAD_WORDS words. Words of other shapes cost several times as much to learn and are few of
   * a query's new words: they are left to the queries.
   */
  learn(text: string, start: number, end: number): boolean {
    if (this.table.size >= AHEAD_WORDS) return false;
    if (end - start <= MAX_WORD_CHARS && plainWordShapeAt(text, start, end) >= 0) this.of(text, start, end);
    return true;
  }

  /**
   * Reads ahead what looking up these words (by their wordHash) will read, level by level for all
   * of them (WordTable.warm): their table entries and the facts they hold.
   */
  warm(hashes: Int32Array, count: number, entries: Int32Array): number {
    let read = this.table.warm(hashes, count, entries);
    for (let i = 0; i < count; i++) {
      const entry = entries[i]!;
      if (entry >= 0) read ^= this.table.valueAt(entry).idsAt;
    }
    for (let i = 0; i < count; i++) {
      const entry = entries[i]!;
      if (entry >= 0) read ^= this.table.valueAt(entry).given;
    }
    return read;
  }

  /** of(), for a caller that hashed the word (wordHash) as it scanned for its end. */
  ofHashed(text: string, start: number, end: number, hash: number): WordFacts {
    const entry = this.table.find(text, start, end, hash);
    let facts: WordFacts;
    if (entry >= 0) {
      facts = this.table.valueAt(entry);
    } else {
      // The shape is read in place: a plain word's facts need few strings, and none read from.
      const shape = plainWordShapeAt(text, start, end);
      const word = start === 0 && end === text.length ? text : text.slice(start, end);
      facts = shape < 0 ? this.generalFactsOf(word) : this.plainFactsAt(text, start, word, shape);
      this.table.add(text, start, end, hash, facts);
    }
    if (facts.idsAt !== this.tokenizer.dictionarySize()) this.refreshIds(facts);
    return facts;
  }

  /**
   * The facts of a plain word (plainWordShape), each as the general readers give it, worked out
   * from the shape: its letters and digits are its one term's word, its mention word and (lowered)
   * key; it is no identifier (no `_`, `.`, `-` or lower→upper inside), holds no decimal number (no
   * point inside), is no syntax (no `+`, `:` or `_`), and points exactly when it is a pointing word.
   * No scan of the tokenizer, no arrays.
   */
  plainFactsOf(word: string, shape: number): WordFacts {
    return this.plainFactsAt(word, 0, word, shape);
  }

  /**
   * plainFactsOf(word, shape) for `word`, text[start, start + word.length): the letters are read
   * in the text, where they are found, hashed and told apart with no string made of them, and
   * only the letters (and, with capitals, their lowercase) are made strings.
   */
  private plainFactsAt(text: string, start: number, word: string, shape: number): WordFacts {
    const from = shapeFrom(shape);
    const to = shapeTo(shape);
    const letters = from === 0 && to === word.length ? word : text.slice(start + from, start + to);
    const lower = shapeHasUpper(shape) ? letters.toLowerCase() : letters;
    // A word the index met is found by its characters, its term by its id: no string hashed.
    const known = this.tokenizer.knownWordId(text, start + from, start + to);
    const listed = known >= 0 ? this.tokenizer.termAt(known) : undefined;
    const term = listed ?? (known === -1 ? undefined : (this.tokenizer.termOfLowerAscii(lower) ?? undefined));
    // An opening or closing `'` makes a run of its own or joins the letters' (given-words.ts): rare, read in general.
    const quoted = (from > 0 || to < word.length) && hasApostrophe(text, start, start + word.length);
    const given = quoted ? givenRole(word) : plainGivenRoleAt(text, start + from, start + to);
    const id = listed !== undefined ? known : term === undefined ? -1 : this.tokenizer.termIdOf(term);
    return {
      term,
      id,
      idsAt: this.tokenizer.dictionarySize(),
      flags: term === undefined ? 0 : this.flagsOf(term, id),
      leadsAnswer: leadsAnswer(lower),
      moreTerms: undefined,
      mentionWord: letters,
      mentionKey: lower,
      mentionHash: keyHashOfAscii(text, start + from, start + to),
      mentionLength: to - from,
      mentionBits: 0,
      mentionAt: -1,
      identifier: undefined,
      mayPoint: quoted ? isPointingWord(lower) : (given & GIVEN_POINTER) !== 0,
      decimal: false,
      given,
      givenRuns: undefined,
      syntax: undefined,
      moreIds: undefined,
      moreFlags: undefined,
      word,
    };
  }

  /** The facts of any word, each from its own reader (what plainFactsOf must agree with). */
  generalFactsOf(word: string): WordFacts {
    const mentionWord = mentionWordOf(word);
    const mentionKey = mentionKeyOf(word, mentionWord);
    const facts: WordFacts = {
      term: undefined,
      id: -1,
      idsAt: -2,
      flags: 0,
      leadsAnswer: leadsAnswer(mentionKey),
      moreTerms: undefined,
      mentionWord,
      mentionKey,
      mentionHash: keyHashOf(mentionKey),
      mentionLength: mentionWord.length === 0 ? -1 : mentionKey.length,
      mentionBits: 0,
      mentionAt: -1,
      identifier: word.length >= 3 && mayBeIdentifier(word) ? identifierOf(word) : undefined,
      mayPoint: givenMayPoint(word),
      decimal: mayHaveDecimal(word),
      given: givenRole(word),
      givenRuns: undefined,
      syntax: wordSyntax(word),
      moreIds: undefined,
      moreFlags: undefined,
      word,
    };
    this.tokenizeInto(facts);
    return facts;
  }

  /**
   * The word's runs (a word of GIVEN_SCAN), kept in its facts once worked out, with each noun run's
   * term as the text's scan would find it (a noun is lowercase ASCII: one word to the tokenizer).
   */
  givenRunsOf(facts: WordFacts): GivenRuns | null {
    if (facts.givenRuns !== undefined) return facts.givenRuns;
    const runs = givenRuns(facts.word);
    const terms = runs?.nouns.map((noun) => (noun === undefined ? undefined : (this.tokenizer.termOfLowerAscii(noun) ?? undefined)));
    facts.givenRuns = runs === undefined ? null : { roles: runs.roles, nouns: runs.nouns, terms: terms! };
    return facts.givenRuns;
  }

  /**
   * The ids of the word's terms in the dictionary as it is now. A word's terms are a function of
   * its text; only their ids change as the dictionary grows, so they are looked up again by term.
   */
  private refreshIds(facts: WordFacts): void {
    facts.id = facts.term === undefined ? -1 : this.tokenizer.termIdOf(facts.term);
    if (facts.moreTerms !== undefined) facts.moreIds = facts.moreTerms.map((term) => this.tokenizer.termIdOf(term));
    facts.idsAt = this.tokenizer.dictionarySize();
  }

  /** termFlags(term), kept by the term's dictionary id (-1: none, then worked out). */
  private flagsOf(term: string, id: number): number {
    if (id < 0) return termFlags(term);
    if (id >= this.flagsById.length) {
      const grown = new Uint16Array(Math.max(this.flagsById.length * 2, id + 1));
      grown.set(this.flagsById);
      this.flagsById = grown;
    }
    const kept = this.flagsById[id]!;
    if (kept !== 0) return kept - 1;
    const flags = termFlags(term);
    if (flags < 0xffff) this.flagsById[id] = flags + 1;
    return flags;
  }

  /** The word's terms, their ids and flags, from the tokenizer. */
  private tokenizeInto(facts: WordFacts): void {
    const ids: number[] = [];
    const terms = this.tokenizer.tokenize(facts.word, [], ids);
    facts.term = terms[0];
    facts.id = ids[0] ?? -1;
    facts.moreTerms = terms.length > 1 ? terms.slice(1) : undefined;
    facts.moreIds = terms.length > 1 ? ids.slice(1) : undefined;
    facts.flags = terms.length > 0 ? this.flagsOf(terms[0]!, ids[0] ?? -1) : 0;
    if (terms.length > 1) {
      const moreFlags = new Array<number>(terms.length - 1);
      for (let t = 1; t < terms.length; t++) moreFlags[t - 1] = this.flagsOf(terms[t]!, ids[t] ?? -1);
      facts.moreFlags = moreFlags;
    } else {
      facts.moreFlags = undefined;
    }
    facts.idsAt = this.tokenizer.dictionarySize();
  }
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

function hasApostrophe(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 0x27) return true;
  return false;
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
