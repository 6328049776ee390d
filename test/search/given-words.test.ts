import { describe, expect, test } from "bun:test";
import { givenMayPoint, givenWords } from "../../src/search/given-words.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";

describe("givenWords", () => {
  test("the noun after a preposition and a pointing word is what the user has", () => {
    expect(givenWords("latitude and longitude of this address")).toEqual(["address"]);
    expect(givenWords("the owner of my repo, and the issues for our project")).toEqual(["repo", "project"]);
  });

  test("no pointing word, no given: 'the area of a triangle' says nothing about direction", () => {
    expect(givenWords("the area of a triangle with base 10")).toEqual([]);
    expect(givenWords("of this")).toEqual([]);
    expect(givenWords("from this this")).toEqual([]);
    expect(givenWords("of this 42")).toEqual([]);
  });

  test("bounded: a pasted wall of 'of this x' yields a few words, not thousands", () => {
    const wall = Array.from({ length: 5_000 }, (_, i) => `of this word${String.fromCharCode(97 + (i % 26))}`).join(" ");
    expect(givenWords(wall).length).toBe(4);
  });
});

describe("a tool that takes the given word as a parameter works from it", () => {
  const build = (givenParameter: number) => {
    const index = new ToolSearchIndex({ ranking: { givenParameter } });
    index.add({ name: "lookup_timezone", description: "Look up the time zone of a city.", parameters: [{ name: "city", description: "City name" }] });
    index.add({ name: "cities_in_timezone", description: "List the cities in a time zone.", parameters: [{ name: "timezone", description: "IANA time zone" }] });
    return index;
  };
  const first = (index: ToolSearchIndex, query: string) => index.query(query).matches[0]?.name;

  test("'time zone of this city' wants the tool that takes a city; without the cue the other one wins", () => {
    expect(first(build(0.2), "time zone of this city")).toBe("lookup_timezone");
    expect(first(build(0), "time zone of this city")).toBe("cities_in_timezone");
  });

  test("the cue goes the other way when the other thing is given", () => {
    expect(first(build(0.2), "cities in this time zone")).toBe("cities_in_timezone");
  });
});

describe("valueKinds", () => {
  test("coordinates are a pair of decimals; a lone number or a version is not", async () => {
    const { valueKinds } = await import("../../src/search/value-kinds.ts");
    expect(valueKinds("what address is at 40.7128, -74.0060")).toEqual(["coordinates"]);
    expect(valueKinds("lat/lng 48.8584;2.2945")).toEqual(["coordinates"]);
    expect(valueKinds("upgrade to 3.14 then 2.7")).toEqual([]);
    expect(valueKinds("pay 12.50, then 3")).toEqual([]);
  });
});

describe("givenWords pre-scan (skips the split when no pointing word can be there)", () => {
  test("pointing words in any case, next to punctuation, underscores or non-ASCII letters are still found", () => {
    expect(givenWords("Coordinates OF THIS Address")).toEqual(["address"]);
    expect(givenWords("issues for my_repo")).toEqual(["repo"]);
    expect(givenWords("issues (for my) repo")).toEqual(["repo"]);
    expect(givenWords("the weather of this città")).toEqual(["città"]);
    expect(givenWords("x_of this address")).toEqual(["address"]);
  });

  test("a pointing word only inside a longer word is not one", () => {
    expect(givenWords("history of thistle plants")).toEqual([]);
    expect(givenWords("myth of myself")).toEqual([]);
  });
});

describe("givenMayPoint: the scan answers what the regular expression does", () => {
  const pattern = /(?<![A-Za-z0-9])(?:this|that|these|those|my|our|your|his|her|their|its)(?![A-Za-z0-9])/i;

  test("over generated texts: pointing words in any case, inside and beside letters, digits, punctuation and look-alikes", () => {
    const pieces = ["this", "THIS", "tHat", "these", "those", "my", "My", "our", "your", "his", "her", "their", "its", "it's", "thistle", "x", "9", "_", "-", "'", " ", "\n", "é", "ı", "İ", "ſ", "K", "東", "\u00a0", "(", "my2", "2my", ""];
    let seed = 5;
    const random = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
    for (let i = 0; i < 20_000; i++) {
      const text = Array.from({ length: random(6) }, () => pieces[random(pieces.length)]!).join("");
      expect([text, givenMayPoint(text)]).toEqual([text, pattern.test(text)]);
    }
  });
});
