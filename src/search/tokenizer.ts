import { porterStem } from "./porter-stem.ts";
import { CharClass, classifyCodePoint } from "./char-class.ts";
import { ensureInt32 } from "./growable.ts";
import { STOP_WORDS } from "./stop-words.ts";
import { MISSING, StringIds, WordIds } from "./string-ids.ts";
import { WordTable, wordHash } from "./word-table.ts";

const ASCII_WORD = /^[a-z]+$/;
const ASCII_CLASSES = Uint8Array.from({ length: 0x80 }, (_, code) => classifyCodePoint(code));
const COMBINING_MARKS = /\p{Mn}/gu;
/** lower→Upper ("getUser") and Upper→Upper+lower ("HTMLParser") boundaries. */
const CAMEL_LOWER_UPPER = /([\p{Ll}\p{N}])(\p{Lu})/gu;
const CAMEL_UPPER_WORD = /(\p{Lu})(\p{Lu}\p{Ll})/gu;

/** The word cache is dropped wholesale past this size, so adversarial vocabularies cannot grow it forever. */
const TERM_CACHE_LIMIT = 200_000;
/** Texts cached with their term ids: at most this many, each at most this long. */
const TEXT_CACHE_LIMIT = 20_000;
const TEXT_CACHE_MAX_CHARS = 300;
/** A cached text's id count is packed beside its offset in the arena: below this (300 chars make at most 150 words). */
const TEXT_CACHE_COUNT_LIMIT = 256;

/** A term dictionary: the same term always gets the same id. */
export interface TermInterner {
  intern(term: string): number;
  /** The id of a known term, without adding it (tokenize's `ids`). */
  termId?(term: string): number | undefined;
  /** Every term so far, by id; it only grows, so an id looked up at one length holds while it stays. */
  readonly terms?: readonly string[];
}


/** Terms (tokenize) or term ids (tokenizeToIds). */
type Sink = string[] | number[];

/** True when a term came from CJK text (an overlapping bigram, or a lone CJK character). */
export function isCjkTerm(term: string): boolean {
  return term.length > 0 && classifyCodePoint(term.codePointAt(0)!) === CharClass.Cjk;
}

/**
 * Turns text into index terms: CamelCase, snake_case, kebab-case, dotted and `mcp__server__tool`
 * names split into words; lowercased, diacritics folded, English stop words dropped, ASCII words
 * Porter-stemmed; CJK runs become overlapping bigrams. Positions are the indexes of the result.
 */
export class Tokenizer {
  /** Lowercased word → its term, or null for a stop word or a word too short to index. */
  private readonly terms = new Map<string, string | null>();
  /** Lowercased word → its term id in `interner` (-1 for none): one lookup per word when indexing, no string made. */
  private readonly wordIds = new WordIds(TERM_CACHE_LIMIT);
  /**
   * Text → where its term ids are in `textArena` (offset × TEXT_CACHE_COUNT_LIMIT + count), for
   * texts that tools share. One arena, not an array per text: the cache is refilled many times
   * while 100k tools are indexed, and every dropped array was garbage.
   */
  private readonly textIds = new StringIds(TEXT_CACHE_LIMIT, false);
  private textArena = new Int32Array(4096);
  private textArenaUsed = 0;
  /**
   * Lowercase ASCII word → its term (null: none), for tokenize(): queries' words, looked up in
   * place in the lowered text (word-table.ts says why).
   */
  private readonly queryWords = new WordTable<string | null>();
  /** Set only while tokenize runs with an `ids` sink. */
  private ids: number[] | undefined;
  /** Set only while tokenizeToIds runs; `out` then holds term ids. */
  private interner: TermInterner | undefined;

  /** When given, term ids are looked up in (and added to) this dictionary, which must stay the same. */
  constructor(private readonly dictionary?: TermInterner) {}

  /**
   * Terms of `text`. With `ids` (and a dictionary that can look terms up), each term's id in the
   * dictionary as of dictionarySize() is pushed there too, -1 for a term it does not hold: a
   * query's words then cost one in-place lookup each, not two Map probes.
   */
  tokenize(text: string, out: string[] = [], ids?: number[]): string[] {
    this.interner = undefined;
    this.ids = ids !== undefined && this.dictionary?.termId !== undefined ? ids : undefined;
    try {
      this.scan(text, out);
    } finally {
      this.ids = undefined;
    }
    return out;
  }

  /** How many terms the dictionary holds (-1 without one): the ids tokenize gave hold while this stays. */
  dictionarySize(): number {
    return this.dictionary?.terms?.length ?? -1;
  }

  /** Like tokenize, but yields term ids of the constructor's dictionary, adding new terms to it. */
  tokenizeToIds(text: string, out: number[] = []): number[] {
    if (this.dictionary === undefined) throw new Error("tokenizeToIds needs a Tokenizer built with a dictionary");
    // Tools repeat a lot of text (server descriptions, parameter names and descriptions):
    // about 40% of the eval pool's characters. Their term ids are remembered per text.
    const cacheable = text.length <= TEXT_CACHE_MAX_CHARS;
    const cached = cacheable ? this.textIds.find(text, 0, text.length) : MISSING;
    if (cached !== MISSING) {
      const count = cached % TEXT_CACHE_COUNT_LIMIT;
      const offset = (cached - count) / TEXT_CACHE_COUNT_LIMIT;
      for (let i = offset; i < offset + count; i++) out.push(this.textArena[i]!);
      return out;
    }
    const start = out.length;
    this.interner = this.dictionary;
    try {
      this.scan(text, out);
    } finally {
      this.interner = undefined;
    }
    const count = out.length - start;
    if (cacheable && count < TEXT_CACHE_COUNT_LIMIT) {
      // The table empties itself when full; the arena starts over with it.
      if (this.textIds.size >= TEXT_CACHE_LIMIT) this.textArenaUsed = 0;
      this.textArena = ensureInt32(this.textArena, this.textArenaUsed + count);
      for (let i = 0; i < count; i++) this.textArena[this.textArenaUsed + i] = out[start + i] as number;
      // A text the table does not keep (string-ids.ts: MAX_PROBES) leaves its ids as free space.
      if (this.textIds.set(text, this.textArenaUsed * TEXT_CACHE_COUNT_LIMIT + count)) this.textArenaUsed += count;
    }
    return out;
  }

  private scan(text: string, out: Sink): void {
    const length = text.length;
    // Lowercasing once per text is cheaper than once per word; it is only reusable when it kept
    // every index in place (some non-ASCII letters lowercase to two code units).
    // When indexing, ASCII words are looked up by their range (pushAsciiWords), so no lowercased copy is made.
    const lowered = this.interner === undefined ? text.toLowerCase() : text;
    const lower = lowered.length === length ? lowered : undefined;
    let start = -1;
    let runClass: CharClass = CharClass.Separator;
    let ascii = true;
    for (let i = 0; i <= length; i++) {
      let code = i < length ? text.charCodeAt(i) : 0x20;
      let charClass: CharClass;
      if (code < 0x80) {
        charClass = ASCII_CLASSES[code]! as CharClass;
      } else {
        if (code >= 0xd800 && code <= 0xdbff && i + 1 < length) code = text.codePointAt(i)!;
        charClass = classifyCodePoint(code);
      }
      if (charClass !== runClass) {
        if (start >= 0) {
          if (runClass === CharClass.Cjk) this.pushBigrams(text.slice(start, i), out);
          else if (ascii && lower !== undefined) this.pushAsciiWords(text, lower, start, i, out);
          else this.pushWords(text.slice(start, i), out);
        }
        start = charClass === CharClass.Separator ? -1 : i;
        runClass = charClass;
        ascii = true;
      }
      if (code >= 0x80) ascii = false;
      if (code > 0xffff) i++;
    }
  }

  /** One word as it would be indexed, or undefined when it is a stop word or too short. */
  normalizeWord(word: string): string | undefined {
    return this.termOf(word.toLowerCase()) ?? undefined;
  }

  /**
   * The term of a word of lowercase ASCII letters and digits (isLowerAsciiWord; null: none), as tokenize gives it: what a
   * query's plain word costs once its shape is known (query-words.ts), with no scan and no arrays.
   */
  termOfLowerAscii(lower: string): string | null {
    return this.termOf(lower);
  }

  /**
   * The term id of text[start, end), a word the index met (case folded), without making a string:
   * -1 for a word with no term, MISSING when not remembered (then termOfLowerAscii decides).
   */
  knownWordId(text: string, start: number, end: number): number {
    return this.wordIds.find(text, start, end);
  }

  /** The term of a dictionary id (undefined when the dictionary does not list its terms). */
  termAt(id: number): string | undefined {
    return this.dictionary?.terms?.[id];
  }

  /** A term's id in the dictionary as of dictionarySize() (-1: not there, or no dictionary to ask), as tokenize's `ids` holds it. */
  termIdOf(term: string): number {
    const termId = this.dictionary?.termId;
    return termId === undefined ? -1 : (this.dictionary!.termId!(term) ?? -1);
  }

  /** CamelCase split of text[start, end) by scanning character codes: the common case, no regular expressions. */
  private pushAsciiWords(text: string, lower: string, start: number, end: number, out: Sink): void {
    let wordStart = start;
    for (let i = start + 1; i < end; i++) {
      const code = text.charCodeAt(i);
      if (!isUpper(code)) continue;
      const previous = text.charCodeAt(i - 1);
      const afterLowerOrDigit = isLower(previous) || isDigit(previous);
      const acronymEnd = isUpper(previous) && i + 1 < end && isLower(text.charCodeAt(i + 1));
      if (!afterLowerOrDigit && !acronymEnd) continue;
      this.pushAsciiWord(text, lower, wordStart, i, out);
      wordStart = i;
    }
    this.pushAsciiWord(text, lower, wordStart, end, out);
  }

  /**
   * text[start, end), an ASCII word; `lower` is text lowercased. While indexing it is found by range
   * in `wordIds` (no string made for a known word); a query's words are found in place in `queryWords`,
   * and a query word not seen before in `wordIds` too (MISSING there: its term is worked out).
   */
  private pushAsciiWord(text: string, lower: string, start: number, end: number, out: Sink): void {
    if (this.interner !== undefined) {
      const id = this.wordIds.find(text, start, end);
      if (id === MISSING) this.pushLowercase(text.slice(start, end).toLowerCase(), out);
      else if (id >= 0) (out as number[]).push(id);
      return;
    }
    const hash = wordHash(lower, start, end);
    const words = this.queryWords;
    let entry = words.find(lower, start, end, hash);
    const size = this.dictionarySize();
    if (entry < 0) {
      // A word the index met is found by its characters, its term by its id: no string made or hashed.
      const known = this.wordIds.find(lower, start, end);
      const listed = known >= 0 ? this.termAt(known) : undefined;
      const term = listed ?? (known === -1 ? null : this.termOf(lower.slice(start, end)));
      entry = words.add(lower, start, end, hash, term);
      if (entry < 0) {
        if (term !== null) this.pushQueryTerm(term, out as string[]);
        return;
      }
      if (listed !== undefined) {
        words.numbers[entry * 2] = size + 1;
        words.numbers[entry * 2 + 1] = known;
      }
    }
    const term = words.valueAt(entry);
    if (term === null) return;
    (out as string[]).push(term);
    if (this.ids === undefined) return;
    // numbers (read after add, which may grow them): [dictionary size + 1 when the id was looked up (0: never), the id then (-1: none)].
    const numbers = words.numbers;
    if (numbers[entry * 2] !== size + 1) {
      numbers[entry * 2] = size + 1;
      numbers[entry * 2 + 1] = this.dictionary!.termId!(term) ?? -1;
    }
    this.ids.push(numbers[entry * 2 + 1]!);
  }

  private pushWords(run: string, out: Sink): void {
    const folded = run.normalize("NFD").replace(COMBINING_MARKS, "");
    const spaced = folded.replace(CAMEL_LOWER_UPPER, "$1 $2").replace(CAMEL_UPPER_WORD, "$1 $2");
    for (const word of spaced.split(" ")) this.pushLowercase(word.toLowerCase(), out);
  }

  private pushLowercase(word: string, out: Sink): void {
    const interner = this.interner;
    if (interner === undefined) {
      const term = this.termOf(word);
      if (term !== null) this.pushQueryTerm(term, out as string[]);
      return;
    }
    let id = this.wordIds.find(word, 0, word.length);
    if (id === MISSING) {
      const term = this.termOf(word);
      id = term === null ? -1 : interner.intern(term);
      this.wordIds.set(word, id);
    }
    if (id >= 0) (out as number[]).push(id);
  }

  private pushBigrams(run: string, out: Sink): void {
    const chars = Array.from(run);
    if (chars.length === 1) {
      this.pushTerm(run, out);
      return;
    }
    for (let i = 0; i + 1 < chars.length; i++) this.pushTerm(chars[i]! + chars[i + 1]!, out);
  }

  private pushTerm(term: string, out: Sink): void {
    if (this.interner === undefined) this.pushQueryTerm(term, out as string[]);
    else (out as number[]).push(this.interner.intern(term));
  }

  private pushQueryTerm(term: string, out: string[]): void {
    out.push(term);
    if (this.ids !== undefined) this.ids.push(this.dictionary!.termId!(term) ?? -1);
  }

  private termOf(lower: string): string | null {
    const cached = this.terms.get(lower);
    if (cached !== undefined) return cached;
    if (this.terms.size >= TERM_CACHE_LIMIT) this.terms.clear();
    const term =
      lower.length < 2 || STOP_WORDS.has(lower) ? null : ASCII_WORD.test(lower) ? porterStem(lower) : lower;
    this.terms.set(lower, term);
    return term;
  }
}

function isUpper(code: number): boolean {
  return code >= 0x41 && code <= 0x5a;
}

function isLower(code: number): boolean {
  return code >= 0x61 && code <= 0x7a;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}
