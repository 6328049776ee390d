import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { stemmer } from "stemmer";
import { porterStem } from "../../src/search/porter-stem.ts";

describe("porterStem", () => {
  test("classic Porter cases, step by step", () => {
    const cases: Record<string, string> = {
      // 1a
      caresses: "caress", ponies: "poni", ties: "ti", caress: "caress", cats: "cat",
      // 1b
      feed: "feed", agreed: "agre", plastered: "plaster", bled: "bled", motoring: "motor", sing: "sing",
      conflated: "conflat", troubled: "troubl", sized: "size", hopping: "hop", tanned: "tan", falling: "fall",
      hissing: "hiss", fizzed: "fizz", failing: "fail", filing: "file",
      // 1c
      happy: "happi", sky: "sky",
      // 2
      relational: "relat", conditional: "condit", rational: "ration", valenci: "valenc", hesitanci: "hesit",
      digitizer: "digit", conformabli: "conform", radicalli: "radic", differentli: "differ", vileli: "vile",
      analogousli: "analog", vietnamization: "vietnam", predication: "predic", operator: "oper", feudalism: "feudal",
      decisiveness: "decis", hopefulness: "hope", callousness: "callous", formaliti: "formal", sensitiviti: "sensit",
      sensibiliti: "sensibl",
      // 3
      triplicate: "triplic", formative: "form", formalize: "formal", electriciti: "electr", electrical: "electr",
      hopeful: "hope", goodness: "good",
      // 4
      revival: "reviv", allowance: "allow", inference: "infer", airliner: "airlin", gyroscopic: "gyroscop",
      adjustable: "adjust", defensible: "defens", irritant: "irrit", replacement: "replac", adjustment: "adjust",
      dependent: "depend", adoption: "adopt", homologou: "homolog", communism: "commun", activate: "activ",
      angulariti: "angular", homologous: "homolog", effective: "effect", bowdlerize: "bowdler",
      // 5
      probate: "probat", rate: "rate", cease: "ceas", controll: "control", roll: "roll",
      // a first y is a consonant; a y after a consonant is a vowel
      yelling: "yell", syzygy: "syzygi", crying: "cry", enjoying: "enjoi",
      // short words are left alone
      is: "is", a: "a",
    };
    const got = Object.fromEntries(Object.keys(cases).map((word) => [word, porterStem(word)]));
    expect(got).toEqual(cases);
  });

  test("gives the stemmer package's stem for the real servers' words and their inflections", () => {
    const data = join(import.meta.dir, "../../bench/data");
    const text = readFileSync(join(data, "real-servers.json"), "utf8") + readFileSync(join(data, "real-requests.jsonl"), "utf8");
    const words = new Set(text.toLowerCase().match(/[a-z]+/g) ?? []);
    const suffixes = ["s", "es", "ies", "ed", "ing", "ly", "ness", "ation", "ational", "izer", "ement", "ful", "ize", "ity", "al", "e"];
    for (const word of [...words]) for (const suffix of suffixes) words.add(word + suffix);
    expect(words.size).toBeGreaterThan(50_000);
    const differing = [...words].filter((word) => porterStem(word) !== stemmer(word));
    expect(differing).toEqual([]);
  });

  test("gives the stemmer package's stem for random words rich in y, doubled letters and suffixes", () => {
    // A fixed linear congruential sequence: the same words on every run.
    let seed = 26;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const pieces = ["y", "a", "e", "i", "o", "u", "ea", "ee", "oy", "w", "x", "b", "l", "s", "z", "t", "ss", "ll", "at", "bl", "iz", "eed", "ion", "tion", "sion", "ies", "ement", "ic", "ical"];
    const differing: string[] = [];
    for (let n = 0; n < 50_000; n++) {
      let word = "";
      const parts = 1 + next(6);
      for (let p = 0; p < parts; p++) word += pieces[next(pieces.length)];
      if (porterStem(word) !== stemmer(word)) differing.push(word);
    }
    expect(differing).toEqual([]);
  });
});
