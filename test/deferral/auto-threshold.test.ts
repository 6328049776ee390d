import { describe, expect, test } from "bun:test";
import {
  charsPerTokenCounter,
  checkAutoThreshold,
  countDefinitionTokens,
  TOKEN_COUNT_API_OVERHEAD,
} from "../../src/deferral/auto-threshold.ts";

describe("tst-auto threshold", () => {
  test.each([
    ["", 0],
    ["ab", 1],
    ["abcde", 2],
    ["abcdef", 3],
    ["x".repeat(2500), 1000],
  ])("%p is %d tokens at 2.5 characters a token", (text, tokens) => {
    expect(countDefinitionTokens(text)).toBe(tokens);
  });

  test("an API counter's overhead is subtracted, never below zero", () => {
    const api = { label: "api", overheadTokens: TOKEN_COUNT_API_OVERHEAD, count: (text: string) => 500 + text.length };
    expect(countDefinitionTokens("x".repeat(100), api)).toBe(100);
    expect(countDefinitionTokens("", { ...api, count: () => 10 })).toBe(0);
  });

  test.each([
    [200_000, 10, 20_000],
    [200_000, 5, 10_000],
    [128_000, 10, 12_800],
    [1_000_000, 1, 10_000],
  ])("window %d at %d%% → %d tokens", (contextWindow, percent, threshold) => {
    expect(checkAutoThreshold({ serializedDeferredTools: "", contextWindow, percent }).threshold).toBe(threshold);
  });

  test("at or above the line defers; below does not", () => {
    const at = checkAutoThreshold({ serializedDeferredTools: "x".repeat(50_000), contextWindow: 200_000, percent: 10 });
    expect(at).toEqual({ tokens: 20_000, threshold: 20_000, above: true, counter: charsPerTokenCounter.label });
    const below = checkAutoThreshold({ serializedDeferredTools: "x".repeat(49_997), contextWindow: 200_000, percent: 10 });
    expect(below.above).toBe(false);
  });
});
