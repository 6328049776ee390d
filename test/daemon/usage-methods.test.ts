import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { tempSocketDir } from "../helpers/daemon-harness.ts";
import { dispatchHarness } from "../helpers/dispatch-harness.ts";
import { echoTool } from "../helpers/test-tools.ts";

describe("toolpool/stats and toolpool/history/clear over the socket", () => {
  test("bad params are refused with the field named", async () => {
    await using harness = dispatchHarness({ builtins: [echoTool] });
    using client = harness.peer();
    for (const [method, params, field] of [
      ["toolpool/stats", { sinceMs: 0 }, "sinceMs"],
      ["toolpool/stats", { sinceMs: 1e12 }, "sinceMs"],
      ["toolpool/stats", { top: 1_000 }, "top"],
      ["toolpool/stats", { query: "x" }, "query"],
      ["toolpool/history/clear", { workspace: "relative/path" }, "workspace"],
      ["toolpool/history/clear", { workspace: "/x".repeat(600) }, "workspace"],
    ] as const) {
      const error = (await client.request(method, params)).error as { code: number; message: string };
      expect(error.code).toBe(-32602);
      expect(error.message).toContain(field);
    }
  });

  test("a history file that cannot be opened switches recording off; calls and stats still answer", async () => {
    const dir = tempSocketDir();
    const blocked = join(dir, "usage.sqlite");
    // A directory where the file should be: SQLite cannot open it.
    mkdirSync(blocked);
    await using harness = dispatchHarness({ builtins: [echoTool], usageDatabasePath: blocked });
    using client = harness.peer();
    for (let i = 0; i < 3; i++) {
      const called = await client.request("toolpool/call", { name: "Echo", input: { text: "still here" } });
      expect(called.result).toMatchObject({ isError: false, content: [{ type: "text", text: "still here" }] });
    }
    const stats = (await client.request("toolpool/stats")).result as { calls: { total: number }; searches: { total: number } };
    expect([stats.calls.total, stats.searches.total]).toEqual([0, 0]);
    expect((await client.request("toolpool/history/clear", {})).result).toEqual({ workspace: null, removed: 0 });
  });

  test("stats counts the calls just made (queued events are written before reading)", async () => {
    await using harness = dispatchHarness({ builtins: [echoTool] });
    using client = harness.peer();
    for (let i = 0; i < 5; i++) await client.request("toolpool/call", { name: "Echo", input: { text: String(i) } });
    await client.request("toolpool/call", { name: "Echo", input: { wrong: true } });
    const stats = (await client.request("toolpool/stats", { sinceMs: 3_600_000 })).result as { calls: { total: number; errors: number; tools: { name: string; count: number; errors: number }[] } };
    expect(stats.calls.total).toBe(6);
    expect(stats.calls.errors).toBe(1);
    expect(stats.calls.tools.map((tool) => [tool.name, tool.count, tool.errors])).toEqual([["Echo", 6, 1]]);
  });

  test("calls of names that are no tool are counted under one label, not listed as tools", async () => {
    await using harness = dispatchHarness({ builtins: [echoTool] });
    using client = harness.peer();
    await client.request("toolpool/call", { name: "Echo", input: { text: "x" } });
    for (const name of ["get-sum", "mcp__nosuch__tool", "echo"]) await client.request("toolpool/call", { name, input: {} });
    const stats = (await client.request("toolpool/stats", { sinceMs: 3_600_000 })).result as { calls: { tools: { name: string; count: number }[] } };
    expect(stats.calls.tools.map((tool) => [tool.name, tool.count])).toEqual([["(no such tool)", 3], ["Echo", 1]]);
  });
});
