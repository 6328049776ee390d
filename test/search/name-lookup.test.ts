import { describe, expect, test } from "bun:test";
import { squash } from "../../src/search/document-fields.ts";
import { boundedEditDistance } from "../../src/search/edit-distance.ts";
import { NameLookup } from "../../src/search/name-lookup.ts";

describe("NameLookup", () => {
  test("resolves names, aliases and raw names; exact case and pool names win", () => {
    const lookup = new NameLookup();
    lookup.add({ name: "Bash", aliases: ["Shell"] });
    lookup.add({ name: "mcp__a__search", rawToolName: "search" });
    lookup.add({ name: "mcp__b__search", rawToolName: "search" });
    lookup.add({ name: "search" });
    expect(lookup.resolve("shell")).toEqual(["Bash"]);
    expect(lookup.resolve("search")).toEqual(["search"]);
    expect(lookup.resolve("SEARCH")).toEqual(["mcp__a__search", "mcp__b__search", "search"]);
    lookup.remove({ name: "search" });
    expect(lookup.resolve("search")).toEqual(["mcp__a__search", "mcp__b__search"]);
  });

  test("suggestions follow adds and removals", () => {
    const lookup = new NameLookup();
    lookup.add({ name: "CronCreate" });
    expect(lookup.suggest("CronCreat")).toEqual(["CronCreate"]);
    lookup.remove({ name: "CronCreate" });
    expect(lookup.suggest("CronCreat")).toEqual([]);
    lookup.add({ name: "CronCreated" });
    expect(lookup.suggest("CronCreat")).toEqual(["CronCreated"]);
  });

  test("the cheap prefilters never drop a near miss that brute force finds", () => {
    let state = 5;
    const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const word = (length: number) => Array.from({ length }, () => "abcde_.-19"[Math.floor(next() * 10)]).join("");
    const names = Array.from({ length: 400 }, () => word(3 + Math.floor(next() * 6)));
    const lookup = new NameLookup();
    for (const name of new Set(names)) lookup.add({ name });
    for (let round = 0; round < 200; round++) {
      const needle = word(3 + Math.floor(next() * 6));
      const limit = needle.length <= 4 ? 1 : 2;
      const suggested = lookup.suggest(needle);
      const best = Math.min(
        ...[...new Set(names)].filter((name) => name !== needle).map((name) => boundedEditDistance(needle, name, limit)),
      );
      if (names.includes(needle)) continue;
      if (best <= limit) expect(suggested.length).toBeGreaterThan(0);
      for (const name of suggested) {
        const sameLetters = squash(name) === squash(needle);
        expect(sameLetters || boundedEditDistance(needle, name, limit) <= limit).toBe(true);
      }
    }
  });
});
