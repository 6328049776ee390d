/** The linear-time engine behind Grep and MCP schema patterns: what it refuses, and that it is fast where backtracking is not. */
import { describe, expect, test } from "bun:test";
import { compileLinearRegex, MAX_PATTERN_CHARS, unsupportedConstruct } from "../../src/runtime/linear-regex.ts";

describe("compileLinearRegex", () => {
  test("constructs that need backtracking are refused, each with its name", () => {
    const refusal = (pattern: string) => {
      try {
        compileLinearRegex(pattern);
        return "compiled";
      } catch (error) {
        return (error as Error).message;
      }
    };
    const why = (construct: string) =>
      `uses ${construct}, which needs backtracking; patterns are matched by a linear-time engine (RE2 syntax) so that no pattern can stall the daemon. Rewrite it without that construct`;
    expect({
      backreference: refusal("(a)\\1"),
      named: refusal("(?<x>a)\\k<x>"),
      lookahead: refusal("foo(?=bar)"),
      negativeLookahead: refusal("foo(?!bar)"),
      lookbehind: refusal("(?<=x)y"),
      negativeLookbehind: refusal("(?<!x)y"),
      escapedParen: refusal("\\(?=x"),
      inClass: refusal("[(?=]\\d"),
      invalid: refusal("(unclosed"),
      tooLong: refusal("a".repeat(MAX_PATTERN_CHARS + 1)),
      tooBig: refusal("((a{100}){100}){100}"),
    }).toEqual({
      backreference: why("a backreference (\\1)"),
      named: why("a named backreference (\\k<…>)"),
      lookahead: why("a lookahead ((?=…))"),
      negativeLookahead: why("a negative lookahead ((?!…))"),
      lookbehind: why("a lookbehind ((?<=…))"),
      negativeLookbehind: why("a negative lookbehind ((?<!…))"),
      escapedParen: "compiled",
      inClass: "compiled",
      invalid: "is not a valid regular expression (missing closing ): `(unclosed`)",
      tooLong: `is ${MAX_PATTERN_CHARS + 1} characters long; the limit is ${MAX_PATTERN_CHARS}`,
      tooBig: expect.stringMatching(/^is not a valid regular expression \(|^compiles to \d+ instructions/),
    });
    expect(unsupportedConstruct("plain\\d+")).toBeUndefined();
  });

  test("JavaScript syntax models use works: classes, named groups, unicode escapes, flags", () => {
    expect(compileLinearRegex("function\\s+\\w+").test("export function helper()")).toBe(true);
    expect(compileLinearRegex("(?<name>ab)+c").test("ababc")).toBe(true);
    expect(compileLinearRegex("\\u{1F600}").test("smile 😀")).toBe(true);
    expect(compileLinearRegex("todo", { ignoreCase: true }).test("TODO: x")).toBe(true);
    expect([...compileLinearRegex("b+", { multiline: true }).matches("abbcbbb")]).toEqual([
      { index: 1, length: 2 },
      { index: 4, length: 3 },
    ]);
  });

  test("a catastrophic pattern over a long line is linear: ^(a+)+$ over 100,000 a's and a !", () => {
    const regex = compileLinearRegex("^(a+)+$");
    // A backtracking engine does not finish this in the lifetime of the test run.
    expect(regex.test(`${"a".repeat(100_000)}!`)).toBe(false);
    expect(regex.test("a".repeat(100_000))).toBe(true);
  });

  test("mayMatchAnyLine is never false when some line matches (anchors, CRLF, \\b, inline flags)", () => {
    const texts = ["alpha\nbeta\ngamma\n", "x\r\nfoo\r\ny\r\n", "foo", "", "one two\nthree", "a\n\nb"];
    const patterns = ["^beta$", "foo$", "^foo", "a$", "\\bthree\\b", "\\Atwo", "(?-m)^three", "^$", "[^x]o", "o\\s", "\\Bwo", "gamma\\z"];
    const disagreements: string[] = [];
    for (const pattern of patterns) {
      const regex = compileLinearRegex(pattern);
      for (const text of texts) {
        const lines = text.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
        const someLine = lines.some((line) => regex.test(line));
        if (someLine && !regex.mayMatchAnyLine(text)) disagreements.push(`${pattern} on ${JSON.stringify(text)}`);
      }
    }
    expect(disagreements).toEqual([]);
    expect(compileLinearRegex("needle").mayMatchAnyLine("hay\nstack\n")).toBe(false);
  });
});
