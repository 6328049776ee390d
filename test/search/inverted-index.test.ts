import { describe, expect, test } from "bun:test";
import { FIELD_COUNT, FIELD_ID } from "../../src/search/fields.ts";
import { InvertedIndex, MAX_OWN_NAME_TERMS } from "../../src/search/inverted-index.ts";

/** Fields of a document with these description (and name) terms, interned into `index`. */
function fields(index: InvertedIndex, description: string[], name: string[] = []): number[][] {
  const result: number[][] = Array.from({ length: FIELD_COUNT }, () => []);
  result[FIELD_ID.name] = name.map((term) => index.intern(term));
  result[FIELD_ID.description] = description.map((term) => index.intern(term));
  return result;
}

const totalPostings = (index: InvertedIndex) => index.postingLengths.reduce((sum, length) => sum + length, 0);

describe("InvertedIndex", () => {
  test("keeps document frequency, field lengths and postings per field", () => {
    const index = new InvertedIndex();
    const slot = index.add("a", fields(index, ["weather", "weather", "city"], ["weather"]));
    index.add("b", fields(index, ["city"]));
    const weather = index.termId("weather")!;
    expect(index.documentFrequency[weather]).toBe(1);
    expect(index.documentFrequency[index.termId("city")!]).toBe(2);
    expect(index.fieldLengths[slot * FIELD_COUNT + FIELD_ID.description]).toBe(3);
    expect(index.postingLengths[weather]).toBe(2);
    expect([...index.frequencies[weather]!.slice(0, 2)].sort()).toEqual([1, 2]);
    expect(index.liveCount).toBe(2);
  });

  test("counts the distinct terms a name has that its server's name does not, at most MAX_OWN_NAME_TERMS", () => {
    const index = new InvertedIndex();
    const withServer = (name: string[], server: string[]) => {
      const result = fields(index, [], name);
      result[FIELD_ID.server] = server.map((term) => index.intern(term));
      return result;
    };
    expect(index.ownNameTerms[index.add("slack_get_users", withServer(["slack", "get", "user", "user"], ["slack"]))]).toBe(2);
    expect(index.ownNameTerms[index.add("whoami", withServer(["sentri"], ["sentri"]))]).toBe(0);
    // A byte per slot: 300 distinct words count as the most it holds, not as 300 mod 256.
    const long = Array.from({ length: 300 }, (_, i) => `word${i}`);
    expect(index.ownNameTerms[index.add("long", withServer(long, []))]).toBe(MAX_OWN_NAME_TERMS);
  });

  test("sweeps dead postings once they pile up, and reuses the freed slots", () => {
    const index = new InvertedIndex();
    const words = Array.from({ length: 20 }, (_, i) => `word${i}`);
    for (let i = 0; i < 1_000; i++) index.add(`tool${i}`, fields(index, words));
    const before = totalPostings(index);
    for (let i = 0; i < 800; i++) index.remove(index.slotOf(`tool${i}`)!);
    expect(totalPostings(index)).toBeLessThan(before);
    expect(index.liveCount).toBe(200);
    for (let i = 0; i < 500; i++) index.add(`again${i}`, fields(index, words));
    expect(index.slotCount).toBe(1_000);
    expect(index.documentFrequency[index.termId("word3")!]).toBe(700);
    index.compact();
    expect(totalPostings(index)).toBe(700 * 20);
  });

  test("removing a slot twice is harmless", () => {
    const index = new InvertedIndex();
    const slot = index.add("a", fields(index, ["x1"]));
    index.remove(slot);
    index.remove(slot);
    expect(index.liveCount).toBe(0);
    expect(index.documentFrequency[index.termId("x1")!]).toBe(0);
  });
});

describe("the slots' term arena", () => {
  test("holds term ids in two bytes while they fit, then widens without losing any", () => {
    const index = new InvertedIndex();
    const expected = new Map<string, number[]>();
    const add = (name: string, terms: string[]) => {
      const slot = index.add(name, fields(index, terms));
      expected.set(name, fields(index, terms)[FIELD_ID.description]!);
      return slot;
    };
    const before = add("early", ["alpha", "beta", "alpha"]);
    expect(index.slotTermArena).toBeInstanceOf(Uint16Array);
    // 70k distinct terms in 70 tools: ids pass 0xffff part-way.
    for (let t = 0; t < 70; t++) add(`bulk${t}`, Array.from({ length: 1_000 }, (_, i) => `w${t * 1_000 + i}`));
    expect(index.terms.length).toBeGreaterThan(0x10000);
    expect(index.slotTermArena).toBeInstanceOf(Int32Array);
    const termsOf = (slot: number) => {
      const start = index.slotTermStart[slot]!;
      return [...index.slotTermArena.subarray(start + index.distinctCounts[slot]!, start + index.slotTermCount[slot]!)];
    };
    expect(termsOf(before)).toEqual(expected.get("early")!);
    const last = index.slotOf("bulk69")!;
    expect(termsOf(last)).toEqual(expected.get("bulk69")!);
    expect(Math.max(...termsOf(last))).toBeGreaterThan(0xffff);
  });
});

describe("InvertedIndex under churn", () => {
  // Hostile pass: a slot came back only when dead postings were a quarter of all postings, so a tool
  // with none (server "x", name "the", no description) never freed its slot, and one with a posting
  // or two left thousands of slots dead beside a large pool (every per-slot array grew with them; past
  // 2^27 slots `slot << FIELD_BITS` overflows). Dead slots now stay at most max(COMPACT_MIN, live).
  test("a long-lived index under churn reuses slots: dead ones stay at most max(4096, live)", () => {
    const empty = new InvertedIndex();
    empty.add("kept", fields(empty, ["weather"]));
    for (let i = 0; i < 20_000; i++) empty.remove(empty.add("the", fields(empty, [])));
    expect(empty.slotCount).toBeLessThanOrEqual(4096 + 2);

    const pool = new InvertedIndex();
    const words = Array.from({ length: 400 }, (_, i) => `word${i}`);
    for (let i = 0; i < 300; i++) pool.add(`tool${i}`, fields(pool, words));
    for (let i = 0; i < 20_000; i++) pool.remove(pool.add(`churn${i % 7}`, fields(pool, ["churn"])));
    expect(pool.slotCount).toBeLessThanOrEqual(4096 + 301);
    expect(pool.liveCount).toBe(300);
    expect(pool.documentFrequency[pool.termId("churn")!]).toBe(0);
    // What is left answers like before: every pool tool still has each word once.
    expect(pool.documentFrequency[pool.termId("word7")!]).toBe(300);
    expect(pool.postingLengths[pool.termId("churn")!]).toBeLessThanOrEqual(4096);
  });
});
