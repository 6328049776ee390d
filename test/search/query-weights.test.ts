/**
 * A query term's weight (numbers weigh RankingOptions.numberWeight) holds in every stage: the
 * first-stage score and the re-rank's coverage share, which counts each term's IDF times its weight.
 */
import { describe, expect, test } from "bun:test";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";

const TOOLS = [
  { name: "convert_units", description: "Convert a quantity from one unit of measure to another." },
  { name: "unit_prices_2024", description: "Unit prices of the 2024 catalogue." },
  { name: "weather_forecast", description: "Weather forecast for a city." },
  { name: "send_email", description: "Send an email to a recipient." },
  { name: "daily_digest", description: "What is due today, tomorrow, or on Friday morning." },
  { name: "list_events", description: "List the events on a calendar." },
];

function indexWith(numberWeight: number): ToolSearchIndex {
  const index = new ToolSearchIndex({ ranking: { numberWeight } });
  for (const tool of TOOLS) index.add(tool);
  return index;
}

const ranked = (index: ToolSearchIndex, query: string) => index.query(query, { maxResults: 10 }).matches;

describe("query term weights", () => {
  test("a number weighed 0 changes nothing: same tools, same scores, none listed twice", () => {
    const index = indexWith(0);
    for (const [words, withNumber] of [
      ["convert units", "convert units 2024"],
      ["units", "units 2024"],
      ["weather", "weather 2024"],
    ] as const) {
      const plain = ranked(index, words);
      const numbered = ranked(index, withNumber);
      expect(numbered).toEqual(plain);
      expect(new Set(numbered.map((match) => match.name)).size).toBe(numbered.length);
    }
  });

  test("relative dates and times weigh as numbers do: 'tomorrow', 'on Friday' are values the request passes", () => {
    const index = indexWith(0);
    for (const [words, withTime] of [
      ["calendar events", "calendar events tomorrow"],
      ["calendar events", "calendar events on Friday morning"],
      ["events", "today's events"],
    ] as const) {
      expect(ranked(index, withTime)).toEqual(ranked(index, words));
    }
    // At the default weight they still count, less than a word: a request that is only a date finds what mentions it.
    const defaults = new ToolSearchIndex();
    for (const tool of TOOLS) defaults.add(tool);
    expect(ranked(defaults, "tomorrow").map((match) => match.name)).toEqual(["daily_digest"]);
    expect(ranked(defaults, "calendar events tomorrow")[0]!.name).toBe("list_events");
  });

  test("a number alone, weighed 0, finds nothing", () => {
    const index = indexWith(0);
    // Alone, a term weighed 0 finds nothing (it used to list its tools with score 0).
    expect(ranked(index, "2024")).toEqual([]);
  });

  test("the coverage share counts a number at its weight: a tool with every word but the number loses less", () => {
    // convert_units has both words of "convert units 2024" and not the number. Its score relative
    // to the words alone is the coverage factor (1 + 2·share) it keeps: share = the words' IDF over
    // the query's weighted IDF, so the lower the number's weight, the closer to the words-only score.
    const ratio = (numberWeight: number) => {
      const index = indexWith(numberWeight);
      const score = (query: string) => ranked(index, query).find((match) => match.name === "convert_units")!.score;
      return score("convert units 2024") / score("convert units");
    };
    const [light, medium, full] = [ratio(0.1), ratio(0.5), ratio(1)];
    expect(light).toBeLessThan(1);
    expect(light).toBeGreaterThan(medium);
    expect(medium).toBeGreaterThan(full);
  });

  test("the verb take-back counts the leading word at its weight: a date first, only a reader's enum value, takes back what it added", () => {
    // "tomorrow" leads the request and list_reminders has it only as a filter value: the re-rank
    // takes back (1 - filterValue) of what the first stage added, which was weighed numberWeight.
    // Taken back at full IDF, the reader fell below zero (-0.07) at numberWeight 0.01.
    const index = new ToolSearchIndex({ ranking: { numberWeight: 0.01 } });
    index.add({ name: "list_reminders", description: "List the reminders on a calendar.", parameters: [{ name: "when", values: ["today", "tomorrow", "later"] }] });
    index.add({ name: "create_reminder", description: "Create a reminder on a calendar." });
    for (const tool of TOOLS) index.add(tool);
    const score = (query: string) => ranked(index, query).find((match) => match.name === "list_reminders")!.score;
    expect(score("tomorrow reminders")).toBeGreaterThan(0.95 * score("reminders"));
    expect(score("tomorrow reminders")).toBeLessThanOrEqual(score("reminders"));
  });
});
