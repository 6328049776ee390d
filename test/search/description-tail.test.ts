/**
 * RankingOptions.descriptionTail: a request word a tool has only after its description's first
 * sentence (in no other field) counts for less of the coverage share.
 */
import { describe, expect, test } from "bun:test";
import { firstSentenceEnd, tailTermMask } from "../../src/search/description-tail.ts";
import { documentFields, type FieldShape } from "../../src/search/document-fields.ts";
import { FIELD_ID } from "../../src/search/fields.ts";
import { InvertedIndex } from "../../src/search/inverted-index.ts";
import { Tokenizer } from "../../src/search/tokenizer.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import type { SearchDocument } from "../../src/search/types.ts";

function build(tools: SearchDocument[], descriptionTail?: number): ToolSearchIndex {
  const index = new ToolSearchIndex(descriptionTail === undefined ? {} : { ranking: { descriptionTail } });
  for (const tool of tools) index.add(tool);
  return index;
}

const names = (index: ToolSearchIndex, query: string) => index.query(query, { maxResults: 5 }).matches.map((match) => match.name);

// run_command says the request's words more often than rotate, but only in its notes; rotate says them up front.
const NOTES: SearchDocument = {
  name: "run_command",
  description: "Run a shell command. For example, archive logs with tar, or archive logs to a bucket.",
};
const FIRST: SearchDocument = { name: "rotate", description: "Archive the logs of a service and start new ones." };
/** Other tools, so that the request's words are rarer than the pool's common ones. */
const OTHERS: SearchDocument[] = ["send_mail", "read_file", "list_users", "get_weather"].map((name) => ({
  name,
  description: `The ${name.replace("_", " ")} tool does one thing.`,
}));

describe("first sentence of a description", () => {
  test("ends at sentence punctuation followed by white space or the end, or at a line break", () => {
    expect(firstSentenceEnd("Read a file. Then more.")).toBe("Read a file.".length);
    expect(firstSentenceEnd("Is it up? Ask it.")).toBe("Is it up?".length);
    expect(firstSentenceEnd("Stop now!")).toBe("Stop now!".length);
    expect(firstSentenceEnd("Title line\nBody text.")).toBe("Title line".length);
    expect(firstSentenceEnd("Title line\r\nBody text.")).toBe("Title line".length);
    // A dot inside a word or number is not an end; no end at all is the whole text.
    expect(firstSentenceEnd("Uses v1.2 of config.yaml for it")).toBe("Uses v1.2 of config.yaml for it".length);
    expect(firstSentenceEnd("")).toBe(0);
  });

  test("leading white space and blank lines are skipped before the sentence starts", () => {
    const text = "\n\n    Create a PDF file.\n\n    More here.";
    expect(text.slice(0, firstSentenceEnd(text)).trim()).toBe("Create a PDF file.");
    expect(firstSentenceEnd("   \n  ")).toBe("   \n  ".length);
  });

  test("a description tokenized in two parts at its first sentence gives the terms of the whole", () => {
    const tokenizer = new Tokenizer(new InvertedIndex());
    const texts = [
      "Read a file. Then more.",
      "\n  List the open pull requests.\nUse get_pull_request for one.",
      "Geocode an address. e.g. 1600 Amphitheatre Parkway; returns lat/lng.",
      "天气预报。Weather forecast for a city. 天气",
      "No sentence end at all",
      "Ends right here.",
    ];
    for (const text of texts) {
      const shape: FieldShape = { descriptionHead: -1 };
      const fields = documentFields({ name: "t", description: text }, tokenizer, undefined, shape);
      const whole = tokenizer.tokenizeToIds(text, []);
      expect(fields[FIELD_ID.description]).toEqual(whole);
      expect(shape.descriptionHead).toBe(tokenizer.tokenizeToIds(text.slice(0, firstSentenceEnd(text)), []).length);
    }
  });
});

describe("index: terms only in a description's tail", () => {
  test("are counted per tool and kept last among its outside-value terms, ascending by id", () => {
    const index = new InvertedIndex();
    const tokenizer = new Tokenizer(index);
    // "logs" is in the parameter name, "read" in the first sentence: neither is tail-only.
    const doc: SearchDocument = {
      name: "tail_tool",
      description: "Read the logs. Zebra yak xylophone logs read wombat.",
      parameters: [{ name: "logs", values: ["quokka"] }],
    };
    const shape: FieldShape = { descriptionHead: 0 };
    const slot = index.add(doc.name, documentFields(doc, tokenizer, undefined, shape), shape.descriptionHead);
    const count = index.tailOnly[slot]! & 0xffff;
    const end = index.slotTermStart[slot]! + index.outsideValueCounts[slot]!;
    expect(index.slotTermStart[slot]! + (index.tailOnly[slot]! >>> 16)).toBe(end - count);
    const tail = [...index.slotTermArena.subarray(end - count, end)];
    expect(tail.map((id) => index.terms[id]).sort()).toEqual(["wombat", "xylophon", "yak", "zebra"]);
    expect(tail).toEqual([...tail].sort((a, b) => a - b));
    // Every distinct term is still there once, the enum-only value last.
    const start = index.slotTermStart[slot]!;
    const distinct = [...index.slotTermArena.subarray(start, start + index.distinctCounts[slot]!)].map((id) => index.terms[id]);
    expect(distinct.slice(0, index.outsideValueCounts[slot]! - count).sort()).toEqual(["log", "read", "tail", "tool"]);
    expect(distinct.at(-1)).toBe("quokka");
    expect(new Set(distinct).size).toBe(distinct.length);
    // The query mask: bit t for a query term some tool has only in its tail.
    const term = (word: string) => ({ id: index.termId(word)!, idf: 1, weight: 1, weightedIdf: 1, requiredBit: 0, cjk: false });
    expect(tailTermMask(index, [term("read"), term("zebra"), term("log"), term("wombat")])).toBe(0b1010);
    expect(tailTermMask(index, [term("read"), term("log")])).toBe(0);
  });

  test("a document added without a head length has no tail", () => {
    const index = new InvertedIndex();
    const slot = index.add("t", documentFields({ name: "t", description: "One. Two words here." }, new Tokenizer(index)));
    expect(index.tailOnly[slot]).toBe(0);
  });
});

describe("ranking", () => {
  test("a tool that says the request's words only in its notes goes after one that says them first", () => {
    const query = "archive the logs";
    expect(names(build([NOTES, FIRST, ...OTHERS], 1), query)).toEqual(["run_command", "rotate"]);
    expect(names(build([NOTES, FIRST, ...OTHERS]), query)).toEqual(["rotate", "run_command"]);
  });

  test("a word also in another field, or in the first sentence, is not discounted", () => {
    const scoreOf = (tool: SearchDocument, descriptionTail: number) =>
      build([tool, FIRST, ...OTHERS], descriptionTail).query("archive the logs").matches.find((match) => match.name === "run_command")!.score;
    expect(scoreOf(NOTES, 0.7)).toBeLessThan(scoreOf(NOTES, 1));
    const inParameters: SearchDocument = { ...NOTES, parameters: [{ name: "archive" }, { name: "logs" }] };
    expect(scoreOf(inParameters, 0.7)).toBe(scoreOf(inParameters, 1));
    const upFront: SearchDocument = { name: "run_command", description: "Archive logs. For example, archive logs with tar." };
    expect(scoreOf(upFront, 0.7)).toBe(scoreOf(upFront, 1));
  });

  test("a named server's words are its members' by membership, not discounted as tail words", () => {
    // Server "ZorkHub" is zork + hub in the server field; "zorkhub" written as one word names it, and
    // the member has that word only in its description's tail.
    const member: SearchDocument = { name: "mcp__ZorkHub__run", server: "ZorkHub", rawToolName: "run", description: "Run a job. Jobs run on zorkhub workers." };
    const other: SearchDocument = { name: "mcp__ZorkHub__stop", server: "ZorkHub", rawToolName: "stop", description: "Stop a job." };
    const score = (descriptionTail: number) =>
      build([member, other, ...OTHERS], descriptionTail).query("run a job on zorkhub").matches.find((match) => match.name === "mcp__ZorkHub__run")!.score;
    expect(score(0.7)).toBe(score(1));
  });
});
