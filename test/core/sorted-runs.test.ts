/**
 * SortedRuns: the MCP pool's tools in name order from the servers' lists, sorting again only the
 * lists that changed. Attacks: an order that differs from assemblePool's own sort (which would move
 * tools in every tools array and change which of two same-named tools is kept), ranges that overlap
 * (a server name that is another's followed by `__`, a name listed twice), and a list sorted again
 * although it did not change.
 */
import { describe, expect, test } from "bun:test";
import { SortedRuns } from "../../src/core/sorted-runs.ts";
import { assemblePool, byName } from "../../src/pool/assemble.ts";
import type { Tool } from "../../src/tool/tool.ts";

function server(name: string, tools: readonly string[]): Tool[] {
  return tools.map((tool) => ({ name: `mcp__${name}__${tool}`, description: `${tool} of ${name}`, aliases: [], isMcp: true, mcpInfo: { server: name, tool } }) as unknown as Tool);
}

function shuffled(count: number, seed: number): string[] {
  const names = Array.from({ length: count }, (_, i) => `t${(i * 7919 + seed) % 1_009}_${i}`);
  return names.reverse();
}

/** What assemblePool makes of the lists handed over in server order (the answer before SortedRuns). */
function reference(runs: readonly (readonly Tool[])[]) {
  const pool = assemblePool({ builtins: [], mcpTools: runs.flat() });
  return { names: pool.tools.map((tool) => `${tool.name}@${tool.mcpInfo?.server}`), collisions: pool.collisions };
}

function viaRuns(sorter: SortedRuns, runs: readonly (readonly Tool[])[]) {
  const pool = assemblePool({ builtins: [], mcpTools: sorter.of(runs) });
  return { names: pool.tools.map((tool) => `${tool.name}@${tool.mcpInfo?.server}`), collisions: pool.collisions };
}

describe("SortedRuns", () => {
  test("servers' lists end to end are the pool in name order, exactly as assemblePool sorts it", () => {
    const runs = [server("zeta", shuffled(300, 1)), server("alpha", shuffled(200, 2)), server("mid", shuffled(250, 3)), server("alpha_beta", shuffled(40, 4)), server("empty", [])];
    const sorter = new SortedRuns();
    const ordered = sorter.of(runs);
    expect(ordered.map((tool) => tool.name)).toEqual(byName(runs.flat()).map((tool) => tool.name));
    expect(viaRuns(sorter, runs)).toEqual(reference(runs));
  });

  test("a list that did not change is not sorted again; a changed one is", () => {
    let reads = 0;
    // The unchanged server's tools count every read of their name (a sort reads them thousands of times).
    const stable = server("stable", shuffled(500, 5)).map((tool) => new Proxy(tool, { get: (target, key) => (key === "name" && reads++, Reflect.get(target, key)) }));
    const sorter = new SortedRuns();
    sorter.of([stable, server("moving", shuffled(100, 6))]);
    expect(reads).toBeGreaterThan(500);
    const before = reads;
    const moved = server("moving", [...shuffled(100, 6), "added"]);
    const result = sorter.of([stable, moved]);
    // Only the unchanged list's first and last names are read again (to order the lists), not sorted.
    expect(reads - before).toBeLessThanOrEqual(4);
    expect(result.map((tool) => tool.name)).toEqual(byName([...stable, ...moved]).map((tool) => tool.name));
  });

  test("ranges that overlap are handed over in server order, and assemblePool's answer is unchanged (collisions too)", () => {
    const sorter = new SortedRuns();
    // mcp__a__x… and mcp__a__b__… interleave: server "a__b" is "a" followed by "__".
    const prefixRuns = [server("a__b", ["c", "zz"]), server("a", ["b__d", "y", "a"])];
    expect(sorter.of(prefixRuns)).toEqual(prefixRuns.flat());
    expect(viaRuns(sorter, prefixRuns)).toEqual(reference(prefixRuns));
    // The same pool name from two lists (one server listed under two config names would do it).
    // Listed first in server order, the second list's copy is kept; ordering the lists by their first
    // names would keep the other one.
    const twice = [[...server("dup", ["two"]).map((tool) => ({ ...tool, mcpInfo: { server: "other", tool: "two" } }) as Tool), ...server("dup", ["zed"])], server("dup", ["one", "two"])];
    expect(viaRuns(sorter, twice)).toEqual(reference(twice));
    expect(reference(twice).collisions).toEqual([{ name: "mcp__dup__two", kept: "other/two", dropped: ["dup/two"] }]);
  });
});
