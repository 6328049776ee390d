/**
 * The common query word told by its character codes (query-words.ts reads its facts from this
 * alone): ASCII letters and digits between opening and closing punctuation. A shape packs where
 * the letters start and end and whether they hold an uppercase letter; this file is the one place
 * that packs and unpacks it.
 */

/** A plain word's letters start and end (each < 2^SHAPE_BITS) are packed into its shape. */
const SHAPE_BITS = 6;
const SHAPE_MASK = (1 << SHAPE_BITS) - 1;
/**
 * Punctuation a plain word may open with: `(`, `[`, `{`, `<`, quotes and backticks, `$`, `#`,
 * `@`, `*` (never `+`, `_` or `-`: syntax and identifier characters).
 */
function isPlainOpener(code: number): boolean {
  return (
    code === 0x28 || code === 0x5b || code === 0x7b || code === 0x3c || code === 0x22 || code === 0x27 ||
    code === 0x60 || code === 0x24 || code === 0x23 || code === 0x40 || code === 0x2a
  );
}

/** … and end with: `.`, `,`, `?`, `!`, `:`, `;`, `)`, `]`, `}`, `>`, quotes and backticks, `%`, `*`. */
function isPlainCloser(code: number): boolean {
  return (
    code === 0x2e || code === 0x2c || code === 0x3f || code === 0x21 || code === 0x3a || code === 0x3b ||
    code === 0x29 || code === 0x5d || code === 0x7d || code === 0x3e || code === 0x22 || code === 0x27 ||
    code === 0x60 || code === 0x25 || code === 0x2a
  );
}

/**
 * The common query word, told by its character codes: ASCII letters and digits the tokenizer keeps
 * as one word (no uppercase letter after the first unless all its letters are uppercase and it has
 * no digit: "getUser", "APIs", "3D" are split), between a run of opening and one of closing
 * punctuation marks. Its shape packs where the letters start and end, and whether they hold an
 * uppercase letter; -1 for any other word (and for one of 2^SHAPE_BITS characters or more).
 */
export function plainWordShape(word: string): number {
  return plainWordShapeAt(word, 0, word.length);
}

/**
 * plainWordShape of text[start, end), read in place (a query's word before any string is made of
 * it); where its letters start and end stay relative to `start`.
 */
export function plainWordShapeAt(text: string, start: number, end: number): number {
  const length = end - start;
  if (length === 0 || length > SHAPE_MASK) return -1;
  let from = start;
  while (from < end && isPlainOpener(text.charCodeAt(from))) from++;
  let to = end;
  while (to > from && isPlainCloser(text.charCodeAt(to - 1))) to--;
  if (to <= from) return -1;
  let upper = 0;
  let other = 0;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if ((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39)) other = 1;
    else if (code >= 0x41 && code <= 0x5a) upper |= i === from ? 1 : 2;
    else return -1;
  }
  if ((upper & 2) !== 0 && other !== 0) return -1;
  return ((((from - start) << SHAPE_BITS) | (to - start)) << 1) | (upper !== 0 ? 1 : 0);
}

/** Where a plain word's letters start (shape ≥ 0, from plainWordShape). */
export function shapeFrom(shape: number): number {
  return shape >> (SHAPE_BITS + 1);
}

/** Where they end (exclusive). */
export function shapeTo(shape: number): number {
  return (shape >> 1) & SHAPE_MASK;
}

/** Whether they hold an uppercase letter (then the key and term are of them lowercased). */
export function shapeHasUpper(shape: number): boolean {
  return (shape & 1) === 1;
}
