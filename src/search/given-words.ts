/**
 * Words a request marks as what the user already has: the noun right after a preposition and a
 * pointing word — "latitude and longitude *of this address*", "the owner *of my repo*", "issues
 * *for this project*". A tool that takes such a word as a parameter works from it; a tool that
 * only mentions it may produce it (reverse geocoding mentions addresses: it returns one).
 * Words only, in query order, a few at most; a pure function of the text.
 */
const PREPOSITIONS: ReadonlySet<string> = new Set(["of", "for", "from", "in", "on", "at", "about", "into", "to", "with"]);
const POINTERS: ReadonlySet<string> = new Set(["this", "that", "these", "those", "my", "our", "your", "his", "her", "their", "its"]);
export const MAX_GIVEN = 4;
const WORD = /^\p{L}[\p{L}\p{N}]*$/u;

/**
 * False when `text` certainly marks no word as given (givenWords would answer []): it holds no
 * pointing word (ASCII case folded) that is a whole run of ASCII letters and digits — what
 * `/(?<![A-Za-z0-9])(?:this|that|…)(?![A-Za-z0-9])/i` matches (without the u flag no other
 * character folds to an ASCII letter), read by one scan of character codes. A cheap pre-check: a
 * false alarm only costs the split; no pointer the split finds is missed, since a split word is
 * delimited by what is not a letter or digit, and ASCII ones are excluded here. The answer for a
 * text is the OR of its white-space words' answers: white space ends a run.
 */
export function givenMayPoint(text: string): boolean {
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 0x20;
    if (isAsciiLetter(code) || (code >= 0x30 && code <= 0x39)) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0 && i - start >= 2 && PACKED_POINTERS.has(packWord(text, start, i))) return true;
    start = -1;
  }
  return false;
}

/** A lowercase word that is a pointing word: givenMayPoint of a word of ASCII letters and digits alone. */
export function isPointingWord(lower: string): boolean {
  return lower.length <= SHORT_WORD_CHARS && POINTERS.has(lower);
}

export function givenWords(text: string): string[] {
  if (!givenMayPoint(text)) return [];
  return givenWordsOfPointing(text);
}

/** givenWords of a text known to pass givenMayPoint (a query's words said so one by one). */
export function givenWordsOfPointing(text: string): string[] {
  return isAscii(text) ? asciiGivenWords(text) : splitGivenWords(text);
}

function splitGivenWords(text: string): string[] {
  const words = text.toLowerCase().split(/[^\p{L}\p{N}'’]+/u).filter((word) => word.length > 0);
  const given: string[] = [];
  for (let i = 0; i + 2 < words.length && given.length < MAX_GIVEN; i++) {
    if (!PREPOSITIONS.has(words[i]!) || !POINTERS.has(words[i + 1]!)) continue;
    const noun = words[i + 2]!;
    if (WORD.test(noun) && !POINTERS.has(noun) && !given.includes(noun)) given.push(noun);
  }
  return given;
}

/**
 * Prepositions and pointing words are at most five ASCII letters: such a word packs into one
 * number (five bits a letter), so the scan below compares numbers and makes no string per word.
 */
const SHORT_WORD_CHARS = 5;

function packWord(text: string, start: number, end: number): number {
  if (end - start > SHORT_WORD_CHARS) return -1;
  let packed = 0;
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i) | 0x20;
    if (code < 0x61 || code > 0x7a) return -1;
    packed = packed * 32 + (code - 0x60);
  }
  return packed;
}

const packAll = (words: ReadonlySet<string>) => new Set([...words].map((word) => packWord(word, 0, word.length)));
const PACKED_PREPOSITIONS = packAll(PREPOSITIONS);
const PACKED_POINTERS = packAll(POINTERS);

/**
 * The same over ASCII text by one scan of character codes (a word is a run of letters, digits and
 * `'`), keeping only the last two words, packed; only a noun found is made a string.
 */
function asciiGivenWords(text: string): string[] {
  const given: string[] = [];
  let twoBack = -1;
  let oneBack = -1;
  let start = -1;
  for (let i = 0; i <= text.length && given.length < MAX_GIVEN; i++) {
    const inWord = i < text.length && isAsciiWordCode(text.charCodeAt(i));
    if (inWord) {
      if (start < 0) start = i;
      continue;
    }
    if (start < 0) continue;
    const packed = packWord(text, start, i);
    if (PACKED_PREPOSITIONS.has(twoBack) && PACKED_POINTERS.has(oneBack) && !PACKED_POINTERS.has(packed)) {
      const noun = text.slice(start, i).toLowerCase();
      if (isAsciiNoun(noun) && !given.includes(noun)) given.push(noun);
    }
    twoBack = oneBack;
    oneBack = packed;
    start = -1;
  }
  return given;
}

/**
 * What one white-space word is to asciiGivenWords' scan, so that a query's parse can follow the
 * scan word by word from facts it keeps per word (query-cache.ts) instead of scanning the text
 * again. White space ends every run, so the scan over a text is the scan over its words in order
 * when each word is ASCII and holds at most one run (of letters, digits and `'`).
 */
export const GIVEN_PREPOSITION = 1;
export const GIVEN_POINTER = 2;
/**
 * Its run is a noun (a letter, then letters and digits) with no case change the tokenizer splits
 * at: the noun lowercased is the word's server-name key, and its term the word's only term.
 */
export const GIVEN_NOUN = 4;
/** Its run is a noun of other terms ("getUser"): in a noun's place, the text is scanned. */
export const GIVEN_NOUN_SCAN = 8;
/** No run: the scan passes over the word. */
export const GIVEN_SKIP = 16;
/** Not ASCII, or several runs: the query's given words are found by scanning its text. */
export const GIVEN_SCAN = 32;

/**
 * givenRole of a word with no `'` whose one run, lowercased, is `lower`: ASCII letters and digits
 * the tokenizer keeps whole (a plain word, plain-word-shape.ts). No scan, no string made.
 */
export function plainGivenRole(lower: string): number {
  return plainGivenRoleAt(lower, 0, lower.length);
}

/** plainGivenRole of the run text[from, to) lowercased (A–Z), read in place: no string made or hashed. */
export function plainGivenRoleAt(text: string, from: number, to: number): number {
  let role = isAsciiLetter(text.charCodeAt(from)) ? GIVEN_NOUN : 0;
  if (to - from <= SHORT_WORD_CHARS) {
    // packWord folds A–Z and answers -1 for a digit: no preposition or pointer has one.
    const packed = packWord(text, from, to);
    if (PACKED_PREPOSITIONS.has(packed)) role |= GIVEN_PREPOSITION;
    if (PACKED_POINTERS.has(packed)) role |= GIVEN_POINTER;
  }
  return role;
}

/** The word's GIVEN_* bits (a function of its characters alone). */
export function givenRole(word: string): number {
  let from = -1;
  let to = -1;
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    if (code >= 0x80) return GIVEN_SCAN;
    if (!isAsciiWordCode(code)) continue;
    if (to >= 0 && to < i) return GIVEN_SCAN;
    if (from < 0) from = i;
    to = i + 1;
  }
  if (from < 0) return GIVEN_SKIP;
  const packed = packWord(word, from, to);
  const role = (PACKED_PREPOSITIONS.has(packed) ? GIVEN_PREPOSITION : 0) | (PACKED_POINTERS.has(packed) ? GIVEN_POINTER : 0);
  if (!isAsciiNoun(word.slice(from, to))) return role;
  for (let i = from + 1; i < to; i++) {
    const code = word.charCodeAt(i);
    if (code < 0x41 || code > 0x5a) continue;
    // A case change the tokenizer splits at (tokenizer.ts pushAsciiWords): lower or digit → Upper, or UPper.
    const previous = word.charCodeAt(i - 1);
    const acronymEnd = previous >= 0x41 && previous <= 0x5a && i + 1 < to && word.charCodeAt(i + 1) >= 0x61 && word.charCodeAt(i + 1) <= 0x7a;
    if (!(previous >= 0x41 && previous <= 0x5a) || acronymEnd) return role | GIVEN_NOUN_SCAN;
  }
  return role | GIVEN_NOUN;
}

/**
 * The roles of the runs of an ASCII word of several runs ("real-time", "e.g.", a URL), in order,
 * as asciiGivenWords' scan meets them (GIVEN_PREPOSITION, GIVEN_POINTER, GIVEN_NOUN), and each
 * noun run lowercased (undefined for another run): so the parse follows such a word run by run
 * instead of scanning the text. Undefined for any other word (givenRole tells those).
 */
export function givenRuns(word: string): { roles: number[]; nouns: (string | undefined)[] } | undefined {
  const roles: number[] = [];
  const nouns: (string | undefined)[] = [];
  let start = -1;
  for (let i = 0; i <= word.length; i++) {
    const code = i < word.length ? word.charCodeAt(i) : 0x20;
    if (code >= 0x80) return undefined;
    if (isAsciiWordCode(code)) {
      if (start < 0) start = i;
      continue;
    }
    if (start < 0) continue;
    const packed = packWord(word, start, i);
    const run = word.slice(start, i);
    const noun = isAsciiNoun(run);
    roles.push((PACKED_PREPOSITIONS.has(packed) ? GIVEN_PREPOSITION : 0) | (PACKED_POINTERS.has(packed) ? GIVEN_POINTER : 0) | (noun ? GIVEN_NOUN : 0));
    nouns.push(noun ? run.toLowerCase() : undefined);
    start = -1;
  }
  return roles.length > 1 ? { roles, nouns } : undefined;
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x80) return false;
  return true;
}

function isAsciiLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

function isAsciiWordCode(code: number): boolean {
  return isAsciiLetter(code) || (code >= 0x30 && code <= 0x39) || code === 0x27;
}

/** WORD for ASCII: a letter, then letters and digits. */
function isAsciiNoun(word: string): boolean {
  if (!isAsciiLetter(word.charCodeAt(0))) return false;
  for (let i = 1; i < word.length; i++) {
    const code = word.charCodeAt(i);
    if (!isAsciiLetter(code) && !(code >= 0x30 && code <= 0x39)) return false;
  }
  return true;
}
