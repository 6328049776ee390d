import { describe, expect, test } from "bun:test";
import { FoldedKeys, foldedHash } from "../../src/search/folded-keys.ts";

describe("FoldedKeys", () => {
  test("finds names by any case of a key, de-duplicated, in the order added; removal is per key and name", () => {
    const keys = new FoldedKeys();
    keys.add("mcp__a__Search", "mcp__a__Search");
    keys.add("search", "mcp__a__Search");
    keys.add("SEARCH", "mcp__b__find");
    keys.add("Bash", "Bash");
    expect(keys.names("search")).toEqual(["mcp__a__Search", "mcp__b__find"]);
    expect(keys.names("mcp__a__search")).toEqual(["mcp__a__Search"]);
    expect(keys.names("bash")).toEqual(["Bash"]);
    keys.add("bash", "mcp__c__bash");
    keys.add("BASH", "Bash");
    expect(keys.names("bash")).toEqual(["Bash", "mcp__c__bash"]);
    keys.remove("Bash", "Bash");
    expect(keys.names("bash")).toEqual(["mcp__c__bash", "Bash"]);
    keys.remove("BASH", "Bash");
    keys.remove("bash", "mcp__c__bash");
    expect(keys.names("bash")).toEqual([]);
    keys.remove("search", "mcp__a__Search");
    expect(keys.names("search")).toEqual(["mcp__b__find"]);
  });

  test("non-ASCII keys fold as String.toLowerCase does", () => {
    const keys = new FoldedKeys();
    keys.add("Ümlaut_Tool", "Ümlaut_Tool");
    keys.add("\u212Aelvin", "kelvin_sign"); // KELVIN SIGN lowercases to an ASCII k
    expect(keys.names("ümlaut_tool")).toEqual(["Ümlaut_Tool"]);
    expect(keys.names("kelvin")).toEqual(["kelvin_sign"]);
  });

  test("keys whose hashes collide stay apart: a hash only files, the key decides", () => {
    const seen = new Map<number, string>();
    let pair: [string, string] | undefined;
    for (let i = 0; pair === undefined; i++) {
      const key = `k${i}`;
      const other = seen.get(foldedHash(key));
      if (other !== undefined) pair = [other, key];
      else seen.set(foldedHash(key), key);
    }
    const [first, second] = pair;
    const keys = new FoldedKeys();
    keys.add(first, first);
    keys.add(second.toUpperCase(), "other_tool");
    expect(keys.names(first)).toEqual([first]);
    expect(keys.names(second)).toEqual(["other_tool"]);
    keys.remove(first, first);
    expect(keys.names(first)).toEqual([]);
    expect(keys.names(second)).toEqual(["other_tool"]);
  });
});
