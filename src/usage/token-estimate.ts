/**
 * The one way toolpool counts tokens for people (`toolpool stats`, `status --watch`): an estimate,
 * labelled as one, from word pieces — a run of letters costs one token per 8 letters, a run of 1–3
 * digits one, a run of punctuation one per 4 characters; whitespace rides along. Measured against
 * o200k_base (bench/token-estimate.ts): LiveMCPBench first requests 0.94–0.98×, every source's JSON
 * definitions 0.98–1.09×, name lists 0.87–1.08×, where characters ÷ 2.5 said 1.4–1.9×. No tokenizer is shipped: the
 * model's own (Anthropic's) is not public, so any count here is an estimate anyway.
 * `bench/token-estimate.ts` re-measures it.
 */

/** Named wherever a figure is shown; the rule is in this file's header and docs/operations.md. */
export const TOKEN_COUNTER = { label: "estimate: word pieces", estimate: true } as const;

const LETTERS_PER_TOKEN = 8;
const DIGITS_PER_TOKEN = 3;
const PUNCTUATION_PER_TOKEN = 4;
/** Character kinds: 0 whitespace, 1 letter, 2 digit, 3 anything else. */
const SPACE = 0;
const LETTER = 1;
const DIGIT = 2;
const OTHER = 3;

/** A hand-written scanner, not a regex: a 3 MB pool is counted in a few ms instead of ~300. */
export function estimateTokens(text: string): number {
  let tokens = 0;
  let kind = SPACE;
  let run = 0;
  const length = text.length;
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    const next =
      (code >= 97 && code <= 122) || (code >= 65 && code <= 90) ? LETTER : code >= 48 && code <= 57 ? DIGIT : code <= 32 || (code >= 0xa0 && isUnicodeSpace(code)) ? SPACE : OTHER;
    if (next !== kind) {
      tokens += cost(kind, run);
      kind = next;
      run = 0;
    }
    run++;
  }
  return tokens + cost(kind, run);
}

/** The characters beyond ASCII that `\s` matches. */
function isUnicodeSpace(code: number): boolean {
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

function cost(kind: number, run: number): number {
  if (kind === LETTER) return Math.ceil(run / LETTERS_PER_TOKEN);
  if (kind === DIGIT) return Math.ceil(run / DIGITS_PER_TOKEN);
  if (kind === OTHER) return Math.ceil(run / PUNCTUATION_PER_TOKEN);
  return 0;
}

/** A request's first-request size: its tools array (as sent) plus its announcement text. */
export function firstRequestTokens(tools: readonly unknown[], announcement: string | null | undefined): number {
  return estimateTokens(JSON.stringify(tools)) + (announcement ? estimateTokens(announcement) : 0);
}
