/**
 * A ToolSearch call that waits behind another call of its session (the call order: an exclusive
 * call runs alone) while the pool changes under it. It had awaited the index before the pipeline
 * (core-sessions.ts), so by the time it ran the index was behind again, and the query's synchronous
 * way in (search-sync.ts `index`) caught up with the whole change in one stretch on the thread that
 * serves every client: a server re-listing 20k renamed tools, ~0.3 s with nothing else answered.
 */
import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { buildTool } from "../../src/tool/build-tool.ts";
import { textResult } from "../../src/tool/result.ts";
import type { Tool } from "../../src/tool/tool.ts";
import { coreHarness } from "../helpers/core-harness.ts";

function mcpTool(name: string): Tool {
  return { name: `mcp__srv__${name}`, description: `${name}: weather forecast for a city`, inputJSONSchema: { type: "object" }, aliases: [], isMcp: true, mcpInfo: { server: "srv", tool: name } } as unknown as Tool;
}

describe("ToolSearch queued behind an exclusive call while the pool changes", () => {
  test("catches the index up in slices when it runs, not in one stretch on the thread", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const hold = buildTool({ name: "Hold", description: "Holds the session's call order", inputSchema: z.object({}), call: async () => (await held, textResult("held")) });
    const deferred = Array.from({ length: 300 }, (_, i) =>
      buildTool({ name: `Report${i}`, description: `Report number ${i} on sales`, inputSchema: z.object({}), shouldDefer: true, call: async () => textResult("") }),
    );
    const harness = coreHarness({ builtins: [hold, ...deferred] });
    const { core } = harness;
    // No background catch-up: the window between a pool change and its settle timer, held open.
    core.live.searchWarm.close();
    try {
      const session = harness.open({ delivery: "proxy" });
      await core.live.search.ready();
      const holding = harness.call(session, "Hold", {});
      const searching = harness.call(session, "ToolSearch", { query: "sales report" });
      await new Promise<void>((resolve) => setImmediate(resolve));
      // A server's re-listing lands while the search waits its turn: 5,000 tools the index lacks.
      core.live.search.sync([...core.live.pool().tools, ...Array.from({ length: 5_000 }, (_, i) => mcpTool(`t${i}`))]);
      const slicesBefore = core.live.search.stats.slices;
      let turns = 0;
      let answered = false;
      void searching.then(() => (answered = true));
      release();
      await holding;
      while (!answered) {
        turns++;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      const result = await searching;
      expect(result.isError).toBe(false);
      expect(JSON.stringify(result.content)).toContain("Report");
      // The catch-up ran in slices with the event loop served between them.
      expect(core.live.search.stats.slices - slicesBefore).toBeGreaterThan(1);
      expect(turns).toBeGreaterThan(1);
    } finally {
      core.live.markClosing();
    }
  });
});
