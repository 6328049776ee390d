/**
 * Words a request marks as what the user already has: the noun right after a preposition and a
 * pointing word — "latitude and longitude *of this address*", "the owner *of my repo*", "issues
 * *for this project*". A tool that takes such a word as a parameter works from it; a tool that
 * only mentions it may produce it (reverse geocoding mentions addresses: it returns one).
 * Words only, in query order, a few at most; a pure function of the text.
 */
const PREPOSITIONS: ReadonlySet<string> = new Set(["of", "for", "from", "in", "on", "at", "about", "into", "to", "with"]);
const POINTERS: ReadonlySet<string> = new Set(["this", "that", "these", "those", "my", "our", "your", "his", "her", "their", "its"]);
const MAX_GIVEN = 4;
const WORD = /^\p{L}[\p{L}\p{N}]*$/u;

/**
 * A pointing word not inside a longer ASCII word: a cheap scan that rules out most requests
 * before the split (a false alarm only costs the split; no pointer the split finds is missed,
 * since a split word is delimited by what is not a letter or digit, and ASCII ones are excluded here).
 */
const MAY_POINT = new RegExp(`(?<![A-Za-z0-9])(?:${[...POINTERS].join("|")})(?![A-Za-z0-9])`, "i");

/**
 * False when `text` certainly marks no word as given (givenWords would answer []). The answer for a
 * text is the OR of its white-space words' answers: white space is a boundary of MAY_POINT.
 */
export function givenMayPoint(text: string): boolean {
  return MAY_POINT.test(text);
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
