import { expect, test } from "bun:test";
import { estimateTokens, firstRequestTokens } from "../../src/usage/token-estimate.ts";

/** The rule, written as the regex it replaced: the scanner must agree with it on every input. */
function reference(text: string): number {
  let tokens = 0;
  for (const [piece] of text.matchAll(/[A-Za-z]+|\d{1,3}|[^\sA-Za-z\d]+/gu)) {
    if (/^[A-Za-z]/.test(piece)) tokens += Math.ceil(piece.length / 8);
    else if (/^\d/.test(piece)) tokens += 1;
    else tokens += Math.ceil(piece.length / 4);
  }
  return tokens;
}

test.each([
  ["", 0],
  ["hello", 1],
  ["internationalization", 3],
  ["12345", 2],
  ['{"name":"Read"}', 5],
  ["a  b\tc\n", 3],
])("%p is %p tokens", (text, tokens) => {
  expect(estimateTokens(text)).toBe(tokens);
});

test("agrees with the regex form of the rule on mixed text, CJK and emoji included", () => {
  const samples = [
    JSON.stringify({ name: "mcp__github__create_issue", description: "Create an issue — 2048 chars max", input_schema: { type: "object", properties: { n: { type: "integer", enum: [1, 22, 333, 4444] } } } }),
    "搜索文件 search files 😀😀 ok\u00a0non-breaking\u3000ideographic",
    "a1b2c3   ---===+++ ___ x9999999y",
  ];
  for (const sample of samples) expect(estimateTokens(sample)).toBe(reference(sample));
});

test("a first request is its tools array plus its announcement", () => {
  const tools = [{ name: "ToolSearch", description: "Find tools." }];
  expect(firstRequestTokens(tools, "<available-deferred-tools>\nWebFetch\n</available-deferred-tools>")).toBe(estimateTokens(JSON.stringify(tools)) + estimateTokens("<available-deferred-tools>\nWebFetch\n</available-deferred-tools>"));
  expect(firstRequestTokens(tools, null)).toBe(estimateTokens(JSON.stringify(tools)));
});
