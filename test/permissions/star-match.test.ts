/** Patterns against templates with holes: may-match for deny rules, must-match for allow rules. */
import { describe, expect, test } from "bun:test";
import { HOLE, mayMatch, mustMatch, type Template } from "../../src/permissions/star-match.ts";

type Row = [pattern: string, template: Template | string, may: boolean, must: boolean];

const table: Row[] = [
  ["git *", "git status", true, true],
  ["git *", "legit x", false, false],
  ["git *", ["git ", HOLE], true, true],
  ["git *", [HOLE, " status"], true, false],
  ["rm *", [HOLE, " -rf x"], true, false],
  ["rm *", ["echo ", HOLE], false, false],
  ["*/.env", ["/w/", HOLE, ".ts"], false, false],
  ["*/.env", ["/w/.e", HOLE], true, false],
  ["*/.env", ["/w/", HOLE], true, false],
  ["a*b*c", "axxbyyc", true, true],
  ["a*b*c", "axxbyy", false, false],
  ["", "", true, true],
  ["", [HOLE], true, false],
  ["*", [HOLE], true, true],
  ["a*", ["a", HOLE, "b", HOLE], true, true],
  ["*b", ["a", HOLE, "b", HOLE], true, false],
  ["*b", ["a", HOLE, "c", HOLE], true, false],
  ["xyz", ["x", HOLE, "q"], false, false],
  ["**/.env", "/w/app/.env", true, true],
  ["rm -rf /", ["rm -rf ", HOLE], true, false],
  ["echo *", ["echo ", HOLE, " ", HOLE], true, true],
];

describe("mayMatch / mustMatch", () => {
  for (const [pattern, template, may, must] of table) {
    test(`${JSON.stringify(pattern)} against ${JSON.stringify(typeof template === "string" ? template : template.map((part) => (part === HOLE ? "<hole>" : part)))}`, () => {
      expect({ may: mayMatch(pattern, template), must: mustMatch(pattern, template) }).toEqual({ may, must });
    });
  }

  test("a long subject stays linear in its length", () => {
    const long: Template = ["echo ", HOLE, "x".repeat(200_000), HOLE];
    const started = performance.now();
    expect(mayMatch("*rm -rf*", long)).toBe(true);
    expect(mustMatch("echo *", long)).toBe(true);
    // Not a speed target (bench/bash-rules.ts has those): only a guard against a quadratic blow-up.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe("the greedy matcher agrees with a regular expression (seeded random patterns and texts)", () => {
  test("mayMatch and mustMatch of text without holes, 5,000 cases", () => {
    let state = 7;
    const random = (n: number) => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return Math.floor((state / 2147483648) * n);
    };
    const pick = (alphabet: string, length: number) => Array.from({ length }, () => alphabet[random(alphabet.length)]).join("");
    const disagreements: string[] = [];
    for (let index = 0; index < 5000; index++) {
      const pattern = pick("ab*", random(8));
      const text = pick("ab", random(10));
      const expected = new RegExp(`^${pattern.replace(/\*+/g, ".*")}$`, "s").test(text);
      if (mayMatch(pattern, text) !== expected || mustMatch(pattern, text) !== expected) disagreements.push(`${pattern} ~ ${text}`);
    }
    expect(disagreements).toEqual([]);
  });

  test("must-match: a hole is covered only by a star, wherever it stands", () => {
    expect([mustMatch("a*b", ["a", HOLE, "b"]), mustMatch("ab", ["a", HOLE, "b"]), mustMatch("a*", ["a", HOLE]), mustMatch("*b*", [HOLE, "x"])]).toEqual([true, false, true, false]);
  });
});
