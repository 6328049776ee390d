/** The walk behind Glob and Grep: name order without holding the event loop, even for huge directories. */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { FileWalk, sortSliced } from "../../src/builtin/file-walk.ts";
import { timeSlicer } from "../../src/builtin/time-slice.ts";
import { makeWorkspace } from "./fixture.ts";

describe("sortSliced", () => {
  test("orders as `<` does (UTF-16 code units), stable for every length, pausing as it goes", async () => {
    const names = ["b", "B", "a", "ä", "a1", "a10", "a2", "Z", "😀", "é", "", "aa", "a"];
    let pauses = 0;
    for (let length = 0; length <= names.length; length++) {
      const rows = names.slice(0, length).map((name, index) => ({ name, index }));
      const sorted = await sortSliced(rows, (a, b) => a.name <= b.name, async () => {
        pauses++;
      });
      const expected = [...rows].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.index - b.index));
      expect(sorted).toEqual(expected);
    }
    expect(pauses).toBeGreaterThan(0);
  });

  test("a 50,000-row sort hands the loop back when its slice is up", async () => {
    const rows = Array.from({ length: 50_000 }, (_, index) => ({ name: `file-${(index * 7919) % 50_000}` }));
    let clock = 0;
    let yields = 0;
    const pause = timeSlicer({ now: () => (clock += 1), sliceMs: 8, yielder: async () => void yields++ });
    const sorted = await sortSliced(rows, (a, b) => a.name <= b.name, pause);
    expect(sorted.every((row, index) => index === 0 || (sorted[index - 1] as { name: string }).name <= row.name)).toBe(true);
    expect(yields).toBeGreaterThan(10);
  });
});

describe("FileWalk", () => {
  test("lists a directory of 300 files in name order and stops at a cancelled signal", async () => {
    using workspace = makeWorkspace();
    for (let index = 0; index < 300; index++) writeFileSync(workspace.path(`f${index}.txt`), "");
    const seen: string[] = [];
    for await (const file of new FileWalk(workspace.root).files()) seen.push(file.relative);
    expect(seen).toEqual(Array.from({ length: 300 }, (_, index) => `f${index}.txt`).sort());
    const controller = new AbortController();
    controller.abort();
    const cancelled = (async () => {
      for await (const _file of new FileWalk(workspace.root, { signal: controller.signal }).files()) {
        // nothing: the walk must refuse to go on
      }
    })();
    await expect(cancelled).rejects.toThrow("the search was cancelled");
  });
});
