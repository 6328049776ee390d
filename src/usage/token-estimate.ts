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

const PIECE = /[A-Za-z]+|\d{1,3}|[^\sA-Za-z\d]+/gu;
const LETTERS_PER_TOKEN = 8;
const PUNCTUATION_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const match of text.matchAll(PIECE)) {
    const piece = match[0];
    const code = piece.charCodeAt(0);
    if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122)) tokens += Math.ceil(piece.length / LETTERS_PER_TOKEN);
    else if (code >= 48 && code <= 57) tokens += 1;
    else tokens += Math.ceil(piece.length / PUNCTUATION_PER_TOKEN);
  }
  return tokens;
}

/** A request's first-request size: its tools array (as sent) plus its announcement text. */
export function firstRequestTokens(tools: readonly unknown[], announcement: string | null | undefined): number {
  return estimateTokens(JSON.stringify(tools)) + (announcement ? estimateTokens(announcement) : 0);
}
