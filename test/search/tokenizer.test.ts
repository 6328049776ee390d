import { describe, expect, test } from "bun:test";
import { isCjkTerm, Tokenizer } from "../../src/search/tokenizer.ts";

const tokenize = (text: string) => new Tokenizer().tokenize(text);

describe("Tokenizer", () => {
  test("splits CamelCase, acronyms, snake_case, kebab-case and dotted names", () => {
    expect(tokenize("getUserProfile")).toEqual(["get", "user", "profil"]);
    expect(tokenize("HTMLParser")).toEqual(["html", "parser"]);
    expect(tokenize("create_pull_request")).toEqual(["creat", "pull", "request"]);
    expect(tokenize("get-station-code")).toEqual(["get", "station", "code"]);
    expect(tokenize("math_roots.quadratic")).toEqual(["math", "root", "quadrat"]);
  });

  test("splits mcp__server__tool names into words", () => {
    expect(tokenize("mcp__github__create_issue")).toEqual(["mcp", "github", "creat", "issu"]);
  });

  test("lowercases, stems and drops stop words", () => {
    expect(tokenize("Searching THE Files of a Repository")).toEqual(["search", "file", "repositori"]);
    // Adverbs and indefinite pronouns of a chatty request are function words too.
    expect(tokenize("Is there anything that could maybe actually list my repos already?")).toEqual(["list", "repo"]);
    // The wh-words beside who / whom / which: "contacts whose company is Acme".
    expect(tokenize("contacts whose company, whatever whoever wherever whenever whichever whomever")).toEqual(["contact", "compani"]);
  });

  test("drops one-character words but keeps digits runs of two or more", () => {
    expect(tokenize("a b 7 42 s3Bucket")).toEqual(["42", "s3", "bucket"]);
  });

  test("folds diacritics", () => {
    expect(tokenize("Cancún Ändere")).toEqual(tokenize("Cancun Andere"));
  });

  test("turns CJK runs into overlapping bigrams and keeps a lone character", () => {
    expect(tokenize("天气预报")).toEqual(["天气", "气预", "预报"]);
    expect(tokenize("查 weather")).toEqual(["查", "weather"]);
    expect(tokenize("통돌이 중지")).toEqual(["통돌", "돌이", "중지"]);
    expect(tokenize("カタカナ")).toEqual(["カタ", "タカ", "カナ"]);
  });

  test("separates CJK from Latin text in the same run of non-spaces", () => {
    expect(tokenize("abc天气def")).toEqual(["abc", "天气", "def"]);
  });

  test("marks CJK terms", () => {
    expect(isCjkTerm("天气")).toBe(true);
    expect(isCjkTerm("중지")).toBe(true);
    expect(isCjkTerm("weather")).toBe(false);
    expect(isCjkTerm("")).toBe(false);
  });

  test("keeps other scripts as words and ignores symbols and emoji", () => {
    expect(tokenize("привет мир 🚀 ★ --- ***")).toEqual(["привет", "мир"]);
  });

  test("survives lone surrogates and characters outside the BMP", () => {
    expect(tokenize("ab\ud800cd 𠀀𠀁 ok")).toEqual(["ab", "cd", "𠀀𠀁", "ok"]);
  });

  test("empty and whitespace-only text give no terms", () => {
    expect(tokenize("")).toEqual([]);
    expect(tokenize(" \n\t ")).toEqual([]);
  });

  test("appends to a given array", () => {
    const out = ["x"];
    new Tokenizer().tokenize("weather", out);
    expect(out).toEqual(["x", "weather"]);
  });

  test("normalizeWord matches what tokenize produces for one word", () => {
    const tokenizer = new Tokenizer();
    expect(tokenizer.normalizeWord("Running")).toBe("run");
    expect(tokenizer.normalizeWord("the")).toBeUndefined();
  });
});
