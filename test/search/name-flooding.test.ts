/**
 * Name flooding: pool names and raw tool names crafted offline against the fixed-seed FNV-1a of
 * the index's name tables (hash-slots.ts: name → slot, folded keys → names). A server's author
 * writes both (a pool name is `mcp__<server>__<tool>`: the server's configured name is known, and
 * multicollisions for that prefix are a birthday search per stage, seconds offline); neither may
 * make a table walk a run as long as the names it was given, nor lose a name.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import { fullCollisions } from "../helpers/fnv-collisions.ts";

// The old walk took ~11 s for 32k pool names of one hash (0.5 s for as many honest ones), ~21 s for
// 32k raw names (0.8 s).
setDefaultTimeout(60_000);

/** Honest names as long as the crafted ones, and as many. */
function honestLike(words: readonly string[]): string[] {
  return words.map((word, i) => `h${i.toString(36)}_`.padEnd(word.length, "q"));
}

function timeIndexing(names: readonly string[], doc: (name: string, i: number) => { name: string; rawToolName?: string; server?: string }) {
  const index = new ToolSearchIndex();
  const started = performance.now();
  names.forEach((name, i) => index.add({ ...doc(name, i), description: "Reads one record." }));
  const addMs = performance.now() - started;
  return { index, addMs };
}

describe("ToolSearchIndex fed pool names of one 32-bit hash", () => {
  test("32k of them are indexed, found and removed in linear time", () => {
    const crafted = fullCollisions(15);
    const honest = honestLike(crafted);
    const honestRun = timeIndexing(honest, (name) => ({ name }));
    const craftedRun = timeIndexing(crafted, (name) => ({ name }));
    const index = craftedRun.index;
    expect(index.size).toBe(crafted.length);
    // Every name is still there exactly, and a name of the same hash not added is not.
    for (const at of [0, 1, 31, 32, 33, 4_097, 20_000, crafted.length - 1]) expect(index.has(crafted[at]!)).toBe(true);
    expect(index.has(`${crafted[0]!}x`)).toBe(false);
    const started = performance.now();
    for (let i = 0; i < crafted.length; i += 2) expect(index.remove(crafted[i]!)).toBe(true);
    const removeMs = performance.now() - started;
    expect(index.size).toBe(crafted.length / 2);
    expect([0, 2, 4_096].map((at) => index.has(crafted[at]!))).toEqual([false, false, false]);
    expect([1, 3, 4_097, crafted.length - 1].map((at) => index.has(crafted[at]!))).toEqual([true, true, true, true]);
    // Crafted names cost what honest ones cost, within a margin load cannot explain (the old walk was ~20×).
    expect(craftedRun.addMs + removeMs).toBeLessThan(4 * honestRun.addMs + 2_000);
  });

  test("raw tool names of one hash still resolve, in any case, each to its own tool", () => {
    const raw = fullCollisions(15);
    const honestRun = timeIndexing(honestLike(raw), (word, i) => ({ name: `mcp__evil__t${i}`, server: "evil", rawToolName: word }));
    const craftedRun = timeIndexing(raw, (word, i) => ({ name: `mcp__evil__t${i}`, server: "evil", rawToolName: word }));
    for (const at of [0, 31, 32, 5_000, raw.length - 1]) {
      expect(craftedRun.index.query(`select:${raw[at]!.toUpperCase()}`).matches?.map((match) => match.name)).toEqual([`mcp__evil__t${at}`]);
    }
    expect(craftedRun.addMs).toBeLessThan(4 * honestRun.addMs + 2_000);
  });
});
