import { describe, expect, test } from "bun:test";
import { contextWindowFor, DEFAULT_CONTEXT_WINDOW } from "../../src/deferral/context-windows.ts";

describe("context windows", () => {
  test.each([
    ["claude-sonnet-4-5-20250929", 200_000],
    ["claude-opus-4-1", 200_000],
    ["claude-3-5-haiku-20241022", 200_000],
    ["anthropic/claude-sonnet-4", 200_000],
    ["us.anthropic.claude-sonnet-4-5-20250929-v1:0", 200_000],
    ["claude-sonnet-4-5[1m]", 1_000_000],
    ["claude-2.0", 100_000],
    ["gpt-4o", 128_000],
    ["gpt-4o-mini", 128_000],
    ["gpt-4", 8_192],
    ["gpt-4-0613", 8_192],
    ["gpt-4-32k", 32_768],
    ["gpt-4-turbo-2024-04-09", 128_000],
    ["gpt-4.1-mini", 1_047_576],
    ["gpt-5", 400_000],
    ["gpt-5.1-codex", 400_000],
    ["gpt-3.5-turbo", 16_385],
    ["o1-preview", 200_000],
    ["o1-mini", 128_000],
    ["o3-mini", 200_000],
    ["o4-mini", 200_000],
    ["gemini-2.5-pro", 1_048_576],
    ["gemini-1.5-pro-002", 2_097_152],
    ["deepseek-chat", 128_000],
    ["qwen2.5-72b-instruct", 131_072],
    ["some-local-model", DEFAULT_CONTEXT_WINDOW],
    ["pro1", DEFAULT_CONTEXT_WINDOW],
  ])("%s → %d", (model, tokens) => {
    expect(contextWindowFor(model)).toBe(tokens);
  });

  test("the session's own window wins", () => {
    expect(contextWindowFor("claude-sonnet-4-5", 500_000)).toBe(500_000);
    expect(contextWindowFor("claude-sonnet-4-5", null)).toBe(200_000);
    expect(contextWindowFor("claude-sonnet-4-5", 0)).toBe(200_000);
  });

  test("a table can replace the built-in one", () => {
    expect(contextWindowFor("house-model-7b", undefined, { "house-model": 32_000 })).toBe(32_000);
    expect(contextWindowFor("claude-sonnet-4", undefined, { "house-model": 32_000 })).toBe(DEFAULT_CONTEXT_WINDOW);
  });
});
