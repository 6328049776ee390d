/**
 * ToolSearch loads only as many tools as the request's tools array can still take under the
 * provider's hard limit (maxToolsInArray): the rest are named not_addable, never "not found", never
 * dropped unsaid — and the next request then carries every tool the answer said it loaded.
 */
import { describe, expect, test } from "bun:test";
import { TOOLS_ARRAY_LIMIT } from "../../src/assembly/array-guard.ts";
import type { ToolResult } from "../../src/tool/result.ts";
import { anthropicCall, mcp } from "../assembly/fixtures.ts";
import { coreHarness } from "../helpers/core-harness.ts";

const names = Array.from({ length: 20 }, (_, i) => `t${String(i).padStart(2, "0")}`);
const tools = names.map((name) => mcp("forge", name, { description: `Does ${name}.` }));
const pooled = (count: number, from = 0) => names.slice(from, from + count).map((name) => `mcp__forge__${name}`);
const select = (list: readonly string[]) => ({ query: `select:${list.join(",")}` });
const textOf = (result: ToolResult) => result.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
const references = (result: ToolResult) => result.content.flatMap((block) => (block.type === "tool_reference" ? [block.tool_name] : []));
const wireNames = (assembled: { tools: readonly unknown[] }) => assembled.tools.map((tool) => (tool as { name: string }).name);

function started() {
  return coreHarness({ builtins: tools, config: { maxToolsInArray: 8 } });
}

describe("the tools array's room", () => {
  test("native: a select: of more tools than fit loads exactly the room and names the rest not_addable", async () => {
    const { core, open, call } = started();
    const session = open({ delivery: "native", model: "claude-sonnet-4-5", toolSearch: "true" });
    const hello = [{ role: "user", content: "hi" }];
    expect(wireNames(core.assemble(session, hello))).toEqual(["ToolSearch"]);
    // Room: 8 less ToolSearch = 7 of the 10 asked, in the order asked.
    const answer = await call(session, "ToolSearch", select(pooled(10)));
    expect(answer.structuredContent).toMatchObject({ matches: pooled(7), not_addable: pooled(3, 7) });
    expect(answer.structuredContent!.missing).toBeUndefined();
    expect(references(answer)).toEqual(pooled(7));
    expect(textOf(answer)).toContain(`Not loaded: ${pooled(3, 7).join(", ")}. They exist, but the tools array this conversation sends holds at most 8 tools (maxToolsInArray) and had room for 7 more`);
    expect(pooled(10).filter((name) => session.hasDiscovered(name))).toEqual(pooled(7));
    // A second answer before the next request: the first one's loads already took the room.
    const later = await call(session, "ToolSearch", select(pooled(1, 10)));
    expect(later.structuredContent).toMatchObject({ matches: [], not_addable: pooled(1, 10) });
    expect(references(later)).toEqual([]);
    // The next request carries all seven, and the guard cut nothing.
    const next = core.assemble(session, [...hello, ...anthropicCall("ToolSearch", select(pooled(10)), answer.content as Record<string, unknown>[])]);
    expect(wireNames(next)).toEqual(["ToolSearch", ...pooled(7)]);
    expect(next.warnings.filter((warning) => warning.startsWith(TOOLS_ARRAY_LIMIT))).toEqual([]);
    // A tool the array holds costs no room: selected again, it loads; a new one still does not fit.
    const again = await call(session, "ToolSearch", select([pooled(1)[0]!, pooled(1, 12)[0]!]));
    expect(again.structuredContent).toMatchObject({ matches: pooled(1), not_addable: pooled(1, 12) });
  });

  test("a keyword answer in native loads within the room too", async () => {
    const { core, open, call } = started();
    const session = open({ delivery: "native", model: "claude-sonnet-4-5", toolSearch: "true" });
    core.assemble(session, [{ role: "user", content: "hi" }]);
    await call(session, "ToolSearch", select(pooled(6, 14)));
    // Five matches, none loaded yet, one place left.
    const found = await call(session, "ToolSearch", { query: "does forge", max_results: 5 });
    expect(pooled(6, 14).some((name) => (found.structuredContent!.matches as string[]).includes(name))).toBe(false);
    expect(references(found)).toHaveLength(1);
    expect((found.structuredContent!.not_addable as string[]).length).toBe(4);
  });

  test("mid-conversation with inline tools: the tools added by value count, and the rest are not_addable", async () => {
    const { core, open, call } = started();
    const session = open({ delivery: "mid-conversation", inlineTools: true, model: "claude-sonnet-4-5", toolSearch: "true" });
    const hello = [{ role: "user", content: "hi" }];
    expect(wireNames(core.assemble(session, hello))).toEqual(["ToolSearch"]);
    const answer = await call(session, "ToolSearch", select(pooled(9)));
    expect(answer.structuredContent).toMatchObject({ matches: pooled(7), not_addable: pooled(2, 7) });
    expect(textOf(answer)).toStartWith(`Loaded 7 tool(s): ${pooled(7).join(", ")}.`);
    const next = core.assemble(session, [...hello, ...anthropicCall("ToolSearch", select(pooled(9)), answer.content as Record<string, unknown>[])]);
    expect(next.toolChanges?.added).toEqual(pooled(7));
    expect(next.warnings.filter((warning) => warning.startsWith(TOOLS_ARRAY_LIMIT))).toEqual([]);
    // The array is full now: the next one is not addable, and says so.
    const more = await call(session, "ToolSearch", select(pooled(1, 15)));
    expect(more.structuredContent).toMatchObject({ matches: [], not_addable: pooled(1, 15) });
    expect(textOf(more)).toContain("had room for 0 more");
  });

  test("proxy loads nothing into the array: every match is delivered", async () => {
    const { open, call } = started();
    const session = open({ delivery: "proxy" });
    const answer = await call(session, "ToolSearch", select(pooled(10)));
    expect(answer.structuredContent!.matches).toEqual(pooled(10));
    expect(answer.structuredContent!.not_addable).toBeUndefined();
  });
});
