import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AnswerScan } from "../../src/search/answer-types.ts";
import { givenWords } from "../../src/search/given-words.ts";
import { InvertedIndex } from "../../src/search/inverted-index.ts";
import { QueryCache } from "../../src/search/query-cache.ts";
import { parseQueryWords } from "../../src/search/query-parser.ts";
import { termFlags } from "../../src/search/query-terms.ts";
import { identifierOf } from "../../src/search/query-words.ts";
import { mentionKeyOf, mentionWordOf, mentionWordsOf, type MentionWords } from "../../src/search/server-mention.ts";
import { Tokenizer } from "../../src/search/tokenizer.ts";
import { PARAMETER_WORDS, valueKinds } from "../../src/search/value-kinds.ts";
import { MAX_WORD_CHARS } from "../../src/search/word-table.ts";

/** The parse as it was before words' facts were cached: every reader over the whole query text. */
function reference(tokenizer: Tokenizer, text: string) {
  const { parsed, words } = parseQueryWords(text);
  if (parsed.kind === "select") {
    return { parsed, tokens: { text: [], required: [], given: [], valueParameters: [] }, identifiers: [], mentions: { words: [] } };
  }
  const textIds: number[] = [];
  const terms = tokenizer.tokenize(parsed.text, [], textIds);
  const identifiers: string[] = [];
  for (const raw of words) {
    const word = raw.length >= 3 ? identifierOf(raw) : undefined;
    if (word !== undefined && identifiers.length < 32) identifiers.push(word);
  }
  // The question asked, by each word's own key and terms (answer-types.ts).
  const answers = new AnswerScan();
  let termAt = 0;
  words.forEach((raw, i) => {
    const count = tokenizer.tokenize(raw).length;
    const key = mentionKeyOf(raw, mentionWordOf(raw));
    if (key.length === 3 || answers.afterHow) answers.note(key, count === 0 ? -1 : termAt, i === 0);
    termAt += count;
  });
  return {
    parsed,
    tokens: {
      text: terms,
      textIds,
      idsAt: tokenizer.dictionarySize(),
      textFlags: terms.map(termFlags),
      required: parsed.required.map((word) => tokenizer.tokenize(word)),
      given: givenWords(parsed.text).flatMap((word) => tokenizer.tokenize(word)),
      valueParameters: valueKinds(parsed.text).flatMap((kind) => PARAMETER_WORDS[kind].flatMap((word) => tokenizer.tokenize(word))),
      answer: answers.asked,
    },
    identifiers,
    mentions: mentionWordsOf(words),
  };
}

/** A query's server-name window words, field by field (the parse hands on its words' facts themselves). */
function mentionFields(mentions: MentionWords) {
  return mentions.words.map(({ mentionWord, mentionKey, mentionHash, mentionLength }) => ({ mentionWord, mentionKey, mentionHash, mentionLength }));
}

const requests = readFileSync(join(import.meta.dir, "../../bench/data/real-requests.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => (JSON.parse(line) as { query: string }).query);

const chosen = [
  "get the weather forecast for Paris",
  "How many open issues? who cares",
  "Who is on call; how LONG, how far",
  "  two  spaces\tand tabs ",
  "+github open issues",
  "mcp__gitlab__create_issue with a title",
  "list mcp__gitlab tools page:2",
  "select:read_file,write_file",
  "discover: send a Slack message",
  "İstanbul getUserProfile HTMLParser",
  "ΟΔΟΣ ΟΔΟΣ. σοφός",
  "天気予報を教えて 東京",
  "café déjà-vu naïve_user",
  "latitude of this address 40.7128, -74.0060",
  "the owner of my repo, and issues for our project",
  "send it to my car, for this 2fa of our café and of their API, from his X1 in my the",
  "COVID-19 real-time e.g. U.S. data",
  `${"x".repeat(MAX_WORD_CHARS + 5)} weather ${"getUser".repeat(10)}`,
  "GitLab's merge requests in Google Calendar",
  "call +1 555 0100",
  // Free text whatever its white space: the free text is the words joined by single spaces.
  "pasted list:\n- 'of my repo'\n- second  item\r\n\tthird", "a \u00a0 b\u3000c", "x  y", "tab\there\n",
  // The given-word scan followed word by word (given-words.ts givenRole), and where it cannot be.
  "of this getUser and for my 'repo' from our (project) at your it's, in their 42 of his X-ray",
  "the owner of this café", "of my GitHub", "of this HTMLParser", "of this URLs", "for my API.", "of (my) house",
  "of - my - home", "of my my house", "of this this", "of this the", "of this 'thing'", "of this '(thing", "in my x2Y",
  "of my a of my a of my b of my c of my d of my e", "of my a of my b of my c of my d of my GitHub", "of My Repo",
  "of my getUser of my repo", "OF THIS CITY", "to my 3D", "+repo of my project", "mcp__gitlab__issues of my repo",
  "of my repo’s owner", "of mcp__x__my repo",
  // Words of several runs, followed run by run (given-words.ts givenRuns).
  "of this real-time feed", "for my e-mail", "of-this-file and for my x-ray", "of this.repo", "in my 19:30 slot",
  "of this https://example.com/a-b page", "of my a-b of my c.d of my e_f of my g-h of my i-j", "of this it's-file",
  "of my-my-house", "for this getUser-x", "of this 'a'-'b'", "of my x-ray, of my X-Ray", "of this 2-step", "of:this:thing",
  "of this real-time café",
  "reverse geocode 12 Main St, reversed",
  "",
  "   ",
  "a",
  Array.from({ length: 150 }, (_, i) => `word${i % 40} get_item${i}`).join(" "),
];

describe("QueryCache: a query's parse from its words' cached facts", () => {
  test("equals the parse over the whole text, on real requests and on edge cases, asked twice", () => {
    const index = new InvertedIndex();
    const tokenizer = new Tokenizer(index);
    for (const term of ["weather", "forecast", "pari", "github", "issu", "user"]) index.intern(term);
    const cache = new QueryCache(tokenizer);
    for (const round of [0, 1]) {
      for (const query of [...chosen, ...requests]) {
        if (round === 1) cache.clear();
        const { found: _, mentions, ...got } = cache.get(query);
        const { mentions: wanted, ...want } = reference(tokenizer, query);
        expect([query, got, mentionFields(mentions)]).toEqual([query, want as typeof got, mentionFields(wanted)]);
      }
    }
  });

  test("term ids follow a dictionary that grew after the words were first seen", () => {
    const index = new InvertedIndex();
    const tokenizer = new Tokenizer(index);
    const cache = new QueryCache(tokenizer);
    expect(cache.get("zzqx weather").tokens.textIds).toEqual([-1, -1]);
    const id = index.intern("zzqx");
    cache.clear();
    const again = cache.get("zzqx weather");
    expect(again.tokens.textIds).toEqual([id, -1]);
    expect(again.tokens.idsAt).toBe(tokenizer.dictionarySize());
  });
});
