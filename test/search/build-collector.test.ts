import { describe, expect, test } from "bun:test";
import { BuildCollector, COLLECT_EVERY_ADDS } from "../../src/search/build-collector.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";

describe("BuildCollector", () => {
  test("collects once per `every` tools indexed", () => {
    let collections = 0;
    const collector = new BuildCollector(() => collections++, 3);
    for (let i = 0; i < 10; i++) collector.added();
    expect(collections).toBe(3);
  });

  test("rejects an interval below one", () => {
    expect(() => new BuildCollector(() => {}, 0)).toThrow(/at least 1/);
  });

  test("the index collects during a bulk build, and not for a small pool", () => {
    let collections = 0;
    const index = new ToolSearchIndex({ collectGarbage: () => collections++ });
    for (let i = 0; i < COLLECT_EVERY_ADDS - 1; i++) index.add({ name: `t${i}`, description: "x" });
    expect(collections).toBe(0);
    for (let i = COLLECT_EVERY_ADDS - 1; i < 2 * COLLECT_EVERY_ADDS + 5; i++) index.add({ name: `t${i}`, description: "x" });
    expect(collections).toBe(2);
    expect(index.size).toBe(2 * COLLECT_EVERY_ADDS + 5);
  });
});
