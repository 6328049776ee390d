import { describe, expect, test } from "bun:test";
import { squash } from "../../src/search/document-fields.ts";
import { boundedEditDistance } from "../../src/search/edit-distance.ts";
import { NameLookup, type NamedKeys } from "../../src/search/name-lookup.ts";

/** A lookup whose owner keeps the pool names in a Set, as the index keeps them in its slot map. */
function poolLookup(): { add(doc: NamedKeys): void; remove(doc: NamedKeys): void; lookup: NameLookup } {
  const names = new Set<string>();
  const lookup = new NameLookup(names);
  return {
    lookup,
    add: (doc) => {
      names.add(doc.name);
      lookup.add(doc);
    },
    remove: (doc) => {
      lookup.remove(doc);
      names.delete(doc.name);
    },
  };
}

describe("NameLookup", () => {
  test("resolves names, aliases and raw names; exact case and pool names win", () => {
    const pool = poolLookup();
    const lookup = pool.lookup;
    pool.add({ name: "Bash", aliases: ["Shell"] });
    pool.add({ name: "mcp__a__search", rawToolName: "search" });
    pool.add({ name: "mcp__b__search", rawToolName: "search" });
    pool.add({ name: "search" });
    expect(lookup.resolve("shell")).toEqual(["Bash"]);
    expect(lookup.resolve("search")).toEqual(["search"]);
    expect(lookup.resolve("SEARCH")).toEqual(["mcp__a__search", "mcp__b__search", "search"]);
    pool.remove({ name: "search" });
    expect(lookup.resolve("search")).toEqual(["mcp__a__search", "mcp__b__search"]);
  });

  test("a text with white space resolves only while some key has white space (an alias such as \"Web Search\")", () => {
    const pool = poolLookup();
    const lookup = pool.lookup;
    pool.add({ name: "web_search" });
    expect(lookup.resolve("web search")).toEqual([]);
    expect(lookup.resolve("WEB_SEARCH")).toEqual(["web_search"]);
    pool.add({ name: "fetch", aliases: ["Web Fetch"] });
    expect(lookup.resolve("web fetch")).toEqual(["fetch"]);
    expect(lookup.resolve("Web Fetch")).toEqual(["fetch"]);
    expect(lookup.resolve("Web\tFetch")).toEqual([]);
  });

  test("a text longer than every key is not looked up, yet every key of any length still resolves", () => {
    const pool = poolLookup();
    const lookup = pool.lookup;
    const long = "mcp__server__" + "x".repeat(80);
    pool.add({ name: long });
    expect(lookup.resolve(long)).toEqual([long]);
    expect(lookup.resolve(long.toUpperCase())).toEqual([long]);
    expect(lookup.resolve(long + "x")).toEqual([]);
    expect(lookup.resolve("please find the tool named " + long)).toEqual([]);
    // The bound only grows: after the long tool goes, a shorter text is still looked up.
    pool.remove({ name: long });
    pool.add({ name: "short" });
    expect(lookup.resolve("SHORT")).toEqual(["short"]);
    // "İ" lowercases to two code units ("i̇"), longer than the key: that spelling still resolves.
    const dotted = poolLookup();
    dotted.add({ name: "d", aliases: ["İ"] });
    expect("İ".toLowerCase().length).toBe(2);
    expect(dotted.lookup.resolve("İ".toLowerCase())).toEqual(["d"]);
  });

  test("suggestions follow adds and removals", () => {
    const pool = poolLookup();
    const lookup = pool.lookup;
    pool.add({ name: "CronCreate" });
    expect(lookup.suggest("CronCreat")).toEqual(["CronCreate"]);
    pool.remove({ name: "CronCreate" });
    expect(lookup.suggest("CronCreat")).toEqual([]);
    pool.add({ name: "CronCreated" });
    expect(lookup.suggest("CronCreat")).toEqual(["CronCreated"]);
  });

  test("the cheap prefilters never drop a near miss that brute force finds", () => {
    let state = 5;
    const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const word = (length: number) => Array.from({ length }, () => "abcde_.-19"[Math.floor(next() * 10)]).join("");
    const names = Array.from({ length: 400 }, () => word(3 + Math.floor(next() * 6)));
    const pool = poolLookup();
    const lookup = pool.lookup;
    for (const name of new Set(names)) pool.add({ name });
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

describe("raw names shared by several tools", () => {
  test("each tool's removal takes out only its own entry, in either order, and the key can come back", () => {
    const pool = poolLookup();
    const lookup = pool.lookup;
    // Equal raw names made separately (as each copy's document makes its own slice).
    const raw = (text: string) => text.split("").join("");
    const a = { name: "mcp__a__Create_Issue", rawToolName: raw("Create_Issue") };
    const b = { name: "mcp__b__Create_Issue", rawToolName: raw("Create_Issue") };
    pool.add(a);
    pool.add(b);
    expect(lookup.sharedKey(raw("Create_Issue"))).toBe("Create_Issue");
    expect(lookup.resolve("Create_Issue")).toEqual([a.name, b.name]);
    expect(lookup.resolve("create_issue")).toEqual([a.name, b.name]);
    pool.remove(a);
    expect(lookup.resolve("Create_Issue")).toEqual([b.name]);
    expect(lookup.resolve("create_issue")).toEqual([b.name]);
    pool.add(a);
    pool.remove(b);
    expect(lookup.resolve("CREATE_ISSUE")).toEqual([a.name]);
    pool.remove(a);
    expect(lookup.resolve("Create_Issue")).toEqual([]);
    expect(lookup.resolve("create_issue")).toEqual([]);
    expect(lookup.sharedKey("Create_Issue")).toBe("Create_Issue");
  });
});
