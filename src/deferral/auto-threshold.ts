/**
 * tst-auto's test: defer only when the deferred tools' definitions would fill more than N% of the
 * model's context window (seed 000, default 10%). The size is measured on the definitions exactly as
 * they would be serialized, by a pluggable counter: the default is the seed's heuristic of 2.5
 * characters per token; a counter backed by a token-count API reports its fixed request overhead,
 * which is taken off (seed 000: 500 tokens).
 */

/** The seed's fallback when no token-count API is configured. */
export const CHARS_PER_TOKEN = 2.5;

/** What a token-count API call costs beyond the tools themselves (the request scaffolding). */
export const TOKEN_COUNT_API_OVERHEAD = 500;

export interface ToolTokenCounter {
  /** Tokens of these serialized tool definitions (a JSON array's text). Synchronous on purpose:
   * an API-backed count is fetched ahead (per pool version) by the caller and looked up here. */
  count(serializedDefinitions: string): number;
  /** Tokens the counter includes beyond the definitions; subtracted from every count. */
  overheadTokens?: number;
  /** Names the method in decisions and benchmarks, e.g. "chars/2.5" or "count_tokens API". */
  readonly label: string;
}

export const charsPerTokenCounter: ToolTokenCounter = {
  label: `chars/${CHARS_PER_TOKEN}`,
  count: (text) => Math.ceil(text.length / CHARS_PER_TOKEN),
};

/** Tokens of the definitions with the counter's overhead taken off (never below zero). */
export function countDefinitionTokens(serializedDefinitions: string, counter: ToolTokenCounter = charsPerTokenCounter): number {
  return Math.max(0, counter.count(serializedDefinitions) - (counter.overheadTokens ?? 0));
}

export interface AutoThresholdCheck {
  /** Tokens of the deferred tools' definitions. */
  tokens: number;
  /** The line: `floor(contextWindow × percent / 100)`. */
  threshold: number;
  /** Whether deferral pays: tokens at or above the threshold. */
  above: boolean;
  counter: string;
}

export function checkAutoThreshold(input: {
  serializedDeferredTools: string;
  contextWindow: number;
  percent: number;
  counter?: ToolTokenCounter;
}): AutoThresholdCheck {
  const counter = input.counter ?? charsPerTokenCounter;
  const tokens = countDefinitionTokens(input.serializedDeferredTools, counter);
  const threshold = Math.floor((input.contextWindow * input.percent) / 100);
  return { tokens, threshold, above: tokens >= threshold, counter: counter.label };
}
