import { REVERSE_TERM } from "./fields.ts";
import { ACTION_CODE } from "./opposite-actions.ts";
import { isCjkTerm } from "./tokenizer.ts";

/**
 * Stemmed words of a relative date or time ("tomorrow", "on Friday", "this morning"): like a
 * number, a value the request passes (a date argument), rarely the capability it asks for.
 */
const RELATIVE_TIMES: ReadonlySet<string> = new Set([
  "todai", "tomorrow", "yesterdai", "tonight", "now", "morn", "afternoon",
  "mondai", "tuesdai", "wednesdai", "thursdai", "fridai", "saturdai", "sundai",
]);

/**
 * What prepareQuery asks of a term's string: a CJK term, a value (all digits, or a relative date
 * or time: RELATIVE_TIMES), the word "reverse", and above those bits the action side it says
 * (opposite-actions.ts' actionCode, 0 for none). A constant of the term alone, so a word's parse
 * may keep it (query-words.ts).
 */
export const TERM_CJK = 1;
export const TERM_VALUE = 2;
export const TERM_REVERSE = 4;
export const TERM_ACTION_SHIFT = 3;

/** The flags a term's string has by being a listed word (a relative time, an action's side): one lookup for both tables. */
const WORD_FLAGS: ReadonlyMap<string, number> = new Map([
  ...[...RELATIVE_TIMES].map((word): [string, number] => [word, TERM_VALUE]),
  ...[...ACTION_CODE].map(([word, code]): [string, number] => [word, (RELATIVE_TIMES.has(word) ? TERM_VALUE : 0) | (code << TERM_ACTION_SHIFT)]),
]);

export function termFlags(term: string): number {
  return (isCjkTerm(term) ? TERM_CJK : 0) | (allDigits(term) ? TERM_VALUE : 0) | (term === REVERSE_TERM ? TERM_REVERSE : 0) | (WORD_FLAGS.get(term) ?? 0);
}

function allDigits(term: string): boolean {
  if (term.length === 0) return false;
  for (let i = 0; i < term.length; i++) {
    const code = term.charCodeAt(i);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}
