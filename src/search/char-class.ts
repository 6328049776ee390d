/** What a character is to the tokenizer. */
export const CharClass = { Separator: 0, Word: 1, Cjk: 2 } as const;
export type CharClass = (typeof CharClass)[keyof typeof CharClass];

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const WORD = /[\p{L}\p{N}\p{M}]/u;

/** A pure memo of the BMP's classes, filled on first sight (0 = not yet known; stored class + 1). */
const bmpClasses = new Uint8Array(0x10000);

export function classifyCodePoint(code: number): CharClass {
  if (code < 0x80) {
    if (code >= 0x61 && code <= 0x7a) return CharClass.Word;
    if (code >= 0x41 && code <= 0x5a) return CharClass.Word;
    if (code >= 0x30 && code <= 0x39) return CharClass.Word;
    return CharClass.Separator;
  }
  if (code > 0xffff) return classifySlowly(code);
  const known = bmpClasses[code]!;
  if (known !== 0) return (known - 1) as CharClass;
  const charClass = classifySlowly(code);
  bmpClasses[code] = charClass + 1;
  return charClass;
}

function classifySlowly(code: number): CharClass {
  const char = String.fromCodePoint(code);
  if (CJK.test(char)) return CharClass.Cjk;
  return WORD.test(char) ? CharClass.Word : CharClass.Separator;
}

/** ECMAScript white space and line terminators: what `\s` matches and `trim` removes. */
export function isWhiteSpace(code: number): boolean {
  if (code < 0x80) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return (
    code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 ||
    code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff
  );
}

/**
 * `text.split(/\s+/)` without its empty edge words, by a scan of character codes (the regular
 * expression split was the largest part of parsing a new query). `single` says whether every gap
 * was one plain space, so that `words.join(" ")` would give the text back.
 */
export function splitWhiteSpace(text: string): { words: string[]; single: boolean } {
  const words: string[] = [];
  let single = true;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!isWhiteSpace(code)) {
      if (start < 0) start = i;
      continue;
    }
    if (code !== 0x20 || start < 0) single = false;
    if (start >= 0) words.push(text.slice(start, i));
    start = -1;
  }
  if (start >= 0) words.push(text.slice(start));
  else if (text.length > 0) single = false;
  return { words, single };
}

/**
 * Lowercase ASCII letters and digits only, at least one: one word to the tokenizer (no camel case
 * to split, Tokenizer.termOfLowerAscii), and a word with nothing to trim or squash (server-mention.ts).
 */
export function isLowerAsciiWord(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    if (!((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39))) return false;
  }
  return word.length > 0;
}
