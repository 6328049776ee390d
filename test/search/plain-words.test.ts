import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { InvertedIndex } from "../../src/search/inverted-index.ts";
import { plainWordShape } from "../../src/search/plain-word-shape.ts";
import { QueryWords } from "../../src/search/query-words.ts";
import { keyHashOf } from "../../src/search/server-mention.ts";
import { Tokenizer } from "../../src/search/tokenizer.ts";

/**
 * A plain word's facts are worked out from its shape alone (query-words.ts); every field must be
 * what the general readers (tokenizer, server-name trimming, identifier, pointing-word, decimal
 * and syntax rules) give for the same word.
 */
const data = join(import.meta.dir, "../../bench/data");
const requests = readFileSync(join(data, "real-requests.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => (JSON.parse(line) as { query: string }).query);
interface Catalog {
  server: string;
  tools: { name: string; description?: string; inputSchema?: { properties?: Record<string, { description?: string }> } }[];
}
const catalogs = (JSON.parse(readFileSync(join(data, "real-servers.json"), "utf8")) as { servers: Catalog[] }).servers;
const toolTexts = catalogs.flatMap((catalog) =>
  catalog.tools.flatMap((tool) => [
    catalog.server,
    tool.name,
    tool.description ?? "",
    ...Object.entries(tool.inputSchema?.properties ?? {}).flatMap(([name, property]) => [name, property.description ?? ""]),
  ]),
);

const tricky = [
  "mcp__x__y", "mcp__gitlab", "MCP__Server__Tool", "+word", "+Word.", "+4915", "page:3", "Page:12", "page:", "page:0",
  "3.5", "3.5.", "v3.5", "COVID-19", "getUserProfile", "HTMLParser", "APIs", "GitHub", "iPhone", "e-mail", "e.g.",
  "U.S.", "real-time", "snake_case", "_private", "word_", "café", "Café.", "naïve", "İstanbul", "ΟΔΟΣ", "σοφός", "東京",
  "天気予報を教えて", "한국어", "x", "X", "I", "I.", "a,", "(a)", "\"quoted\"", "'single'", "[bracket]", "(paren", "end)",
  "trail?", "trail!", "trail:", "trail;", "trail...", "trail?!", "?", ".", "''", "(", ")", "word's", "users'", "'s",
  "THIS", "this.", "(my", "Their,", "its", "it's", "that's", "yours", "reverse", "Reverse.", "REVERSED", "today",
  "Tomorrow?", "yesterday,", "now", "the", "The", "AND", "to", "of.", "é", "ﬁle", "Ǆemal", "ΣΑΣ", "K", "Kelvin",
  "x".repeat(62), "x".repeat(63), "x".repeat(64), `(${"y".repeat(62)})`, "Abc".repeat(20), "ABC".repeat(21),
  "-word", "word-", "word.com", ".word", "#tag", "@user", "$5", "50%", "a/b", "C++", "C#", "Node.js", "x=1", "1st",
  "3D", "A1", "a1B", "COVID19", "x2Y", "2x", "$75.50?", "56,", "(45,", "19:30", "100%", "**bold**", "`code`", "<tag>",
  "'s'", "page:)", "page:3)", "Page:3.", "(+word", "@my", "#this", "*reverse*", "12", "1", "007", "3.", "(3.5)",
  "mcp__a:", "e.g.,", "i.e.", "ok?!\"", "\"(quoted)\",", "[[link]]", "{{x}}", "<<a>>", "1,000", "10^-12", "x86_64",
];

/** Every plain shape over some words: openers and closers around lower, upper and capitalised letters. */
function generated(): string[] {
  const stems = ["the", "this", "my", "reverse", "today", "weather", "is", "a", "repositories", "github", "its", "running", "a1", "2fa", "covid19", "3d", "42"];
  const out: string[] = [];
  for (const stem of stems) {
    for (const cased of [stem, stem.toUpperCase(), stem[0]!.toUpperCase() + stem.slice(1)]) {
      for (const open of ["", "(", "\"", "'", "[", "+", "-", "_", "{", "((", "$", "@", "#", "`", "<", "*", "(+", "+(", "."]) {
        for (const close of ["", ".", ",", "?", "!", ":", ";", ")", "\"", "'", "]", "-", "_", "s", "'s", "3", "?\"", "),", "%", ">", "*", ":3", ".5", "_x", "X"]) {
          out.push(open + cased + close);
        }
      }
    }
  }
  return out;
}

function allWords(): string[] {
  const words = new Set<string>([...tricky, ...generated()]);
  for (const text of [...requests, ...toolTexts]) for (const word of text.split(/\s+/)) if (word !== "") words.add(word);
  return [...words];
}

/** A tokenizer over a dictionary of the real servers' terms (so ids are found, and missing). */
function tokenizerOverCatalogs(): { index: InvertedIndex; tokenizer: Tokenizer } {
  const index = new InvertedIndex();
  const tokenizer = new Tokenizer(index);
  for (const text of toolTexts) tokenizer.tokenizeToIds(text);
  return { index, tokenizer };
}

describe("plain query words: facts from the shape", () => {
  test("equal the general readers' facts, field for field, for every plain word", () => {
    const { tokenizer } = tokenizerOverCatalogs();
    const words = new QueryWords(tokenizer);
    const all = allWords();
    let plain = 0;
    for (const word of all) {
      const shape = plainWordShape(word);
      if (shape < 0) continue;
      plain++;
      expect([word, words.plainFactsOf(word, shape)]).toStrictEqual([word, words.generalFactsOf(word)]);
    }
    // Most words are plain: the comparison is over thousands of them, not a handful.
    expect(plain).toBeGreaterThan(3000);
    expect(plain).toBeLessThan(all.length);
  });

  test("equal them too when read in place inside a longer text (the parse's path: no string made first)", () => {
    const { tokenizer } = tokenizerOverCatalogs();
    const inPlace = new QueryWords(tokenizer);
    const general = new QueryWords(tokenizer);
    let plain = 0;
    for (const word of allWords()) {
      if (plainWordShape(word) < 0) continue;
      plain++;
      const text = `(x ${word} y)`;
      expect([word, inPlace.of(text, 3, 3 + word.length)]).toStrictEqual([word, general.generalFactsOf(word)]);
    }
    expect(plain).toBeGreaterThan(3000);
  });

  test("words the tokenizer splits, syntax, numbers, identifiers and non-ASCII are not plain", () => {
    const notPlain = [
      "mcp__x__y", "+word", "page:3", "3.5", "COVID-19", "getUserProfile", "HTMLParser", "APIs", "GitHub", "e-mail",
      "snake_case", "café", "東京", "word's", "-word", "x".repeat(64), "", "?", "(", "3D", "a1B", "x2Y", "COVID19X2",
      "+(word", "_word", "word_", "1,000", "19:30", "page:3",
    ];
    expect(notPlain.filter((word) => plainWordShape(word) >= 0)).toEqual([]);
    const plain = [
      "weather", "Weather", "WEATHER", "weather.", "(weather)", "\"Paris\"", "I", "I.", "this?", "x".repeat(63), "1st", "A1",
      "COVID", "56,", "trail?!", "((a", "**bold**", "`code`", "@user", "$5", "100%",
    ];
    expect(plain.filter((word) => plainWordShape(word) < 0)).toEqual([]);
  });

  test("a word's ids follow the dictionary, one term or several, plain or not", () => {
    const index = new InvertedIndex();
    const tokenizer = new Tokenizer(index);
    const words = new QueryWords(tokenizer);
    const before = ["Zqxw.", "getZqxwVlrt"].map((word) => ({ ...words.of(word, 0, word.length) }));
    expect(before.map((facts) => [facts.id, facts.moreIds])).toEqual([[-1, undefined], [-1, [-1, -1]]]);
    const zqxw = index.intern("zqxw");
    const vlrt = index.intern("vlrt");
    const after = ["Zqxw.", "getZqxwVlrt"].map((word) => words.of(word, 0, word.length));
    expect(after.map((facts) => [facts.id, facts.moreIds, facts.idsAt])).toEqual([
      [zqxw, undefined, tokenizer.dictionarySize()],
      [-1, [zqxw, vlrt], tokenizer.dictionarySize()],
    ]);
    expect(after.map((facts) => facts.moreIds)).toEqual(["Zqxw.", "getZqxwVlrt"].map((word) => words.generalFactsOf(word).moreIds));
  });
});

describe("any query word: its server-name window parts", () => {
  test("trimmed of edge punctuation and a possessive, squashed, as the windows compare them", () => {
    const words = new QueryWords(new Tokenizer(new InvertedIndex()));
    const cases: [string, string, string, number][] = [
      ["GitLab's", "GitLab", "gitlab", 6], ["(Google", "Google", "google", 6], ["café,", "café", "café", 4],
      ["Ünïcödé's!", "Ünïcödé", "ünïcödé", 7], ["mcp__x__y", "mcp__x__y", "mcpxy", 5], ["e-mail", "e-mail", "email", 5],
      ["'s", "s", "s", 1], ["...", "", "", -1], ["GitHub", "GitHub", "github", 6], ["google", "google", "google", 6],
      ["x_y.z", "x_y.z", "xyz", 3], ["ΟΔΟΣ.", "ΟΔΟΣ", "οδος", 4],
    ];
    for (const [raw, word, key, length] of cases) {
      const facts = words.generalFactsOf(raw);
      expect([raw, facts.mentionWord, facts.mentionKey, facts.mentionLength, facts.mentionHash]).toEqual([raw, word, key, length, keyHashOf(key)]);
    }
  });
});
