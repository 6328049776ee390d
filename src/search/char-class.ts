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
