/**
 * The per-word parse cache (query-words.ts, on word-table.ts: 16k words, then emptied) and the
 * stand-in table (synonyms.ts, resolved again when the dictionary grows) under a long-lived index
 * whose dictionary keeps growing and whose query words keep being new (72k of them): every answer
 * must equal that of an index given the same tools in the same order and asked nothing before (no
 * id, term or stand-in read from a cache entry made for an older dictionary, none lost when the
 * cache empties). The same order, not a fresh build from the pool as it is: term ids follow the
 * order words were first indexed, and an answer can depend on them (ties between terms of equal
 * IDF decide which frequent term brings in candidates, bm25f-scorer.ts).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";

setDefaultTimeout(60_000);

type Change = { add: { name: string; description: string } } | { remove: string };

function replay(changes: readonly Change[]): ToolSearchIndex {
  const index = new ToolSearchIndex();
  for (const change of changes) {
    if ("add" in change) index.add(change.add);
    else index.remove(change.remove);
  }
  return index;
}

describe("QueryWords across cache clears and a growing dictionary", () => {
  test("a long-lived index asked 70k new words answers as one given the same tools and asked nothing", () => {
    let seed = 12_345;
    const random = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
    const syllables = ["ka", "lo", "mi", "ra", "te", "su", "no", "pe", "di", "fo", "gu", "ha", "zi", "xo", "be", "qu"];
    const word = () => Array.from({ length: 2 + random(3) }, () => syllables[random(16)]).join("");
    // Words with stand-ins (synonyms.ts) and their groups' other words, so stand-ins come and go as tools do.
    const known = ["folder", "directory", "delete", "remove", "weather", "forecast", "repo", "issue", "ticket", "image", "photo", "search", "find", "create", "update"];
    const names: string[] = [];
    const changes: Change[] = [];
    const living = new ToolSearchIndex();
    const differing: string[] = [];
    let checked = 0;
    for (let round = 0; round < 300; round++) {
      for (let k = 0; k < 5; k++) {
        const add = { name: `t${changes.length}_${word()}`, description: Array.from({ length: 6 }, () => (random(3) === 0 ? known[random(known.length)] : word())).join(" ") };
        names.push(add.name);
        changes.push({ add });
        living.add(add);
      }
      if (random(4) === 0) {
        const [name] = names.splice(random(names.length), 1);
        changes.push({ remove: name! });
        living.remove(name!);
      }
      // New words, never indexed: 240 a round, 72k in all (the cache empties every 16k).
      for (let q = 0; q < 80; q++) living.query(Array.from({ length: 3 }, () => `${word()}${random(1_000)}`).join(" "));
      if (round % 5 !== 4) continue;
      const unasked = replay(changes);
      for (let q = 0; q < 6; q++) {
        const query = Array.from({ length: 1 + random(4) }, () => (random(2) === 0 ? known[random(known.length)] : word())).join(" ");
        const answer = (index: ToolSearchIndex) => JSON.stringify(index.query(query).matches.map((match) => [match.name, match.score.toFixed(5)]));
        checked++;
        if (answer(living) !== answer(unasked)) differing.push(query);
      }
    }
    expect({ checked, differing }).toEqual({ checked: 360, differing: [] });
    expect(living.size).toBe(names.length);
  });
});
