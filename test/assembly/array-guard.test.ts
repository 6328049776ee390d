/**
 * The tools array limit (config maxToolsInArray) at assembly, in every delivery: standard over the
 * limit defers instead (core tools and ToolSearch kept), promoted tools, native's discovered tools and
 * mid-conversation's fixed array are cut to the room left — and a warning names what was cut. The
 * sweep at the end tries every delivery × mode × kill switch × format with everything discovered.
 */
import { describe, expect, test } from "bun:test";
import { assembleRequest, type AssembleInput, type AssembleSettings } from "../../src/assembly/assemble-request.ts";
import { MAX_DEFERRED_ARRAY_CHARS } from "../../src/assembly/array-guard.ts";
import { wireToolName } from "../../src/assembly/wire-format.ts";
import { INLINE_TOOLS_BETA } from "../../src/assembly/tool-change-blocks.ts";
import { REQUESTED_DELIVERIES } from "../../src/deferral/delivery.ts";
import type { Pool } from "../../src/pool/assemble.ts";
import { assemblePool } from "../../src/pool/assemble.ts";
import { anthropicCall, builtin, indexOf, mcp, metaToolsOf, samplePool } from "./fixtures.ts";
import { scanTranscript } from "../../src/assembly/scan-transcript.ts";
import type { FixedToolHolder } from "../../src/assembly/mid-conversation.ts";

const LIMIT = 8;
const CORE = ["Bash", "Read", "Write", "mcp__slack__list_channels"];
/** 10 pool tools of the sample plus 20 of a big server: 30, well over the limit. */
const big = samplePool({ mcpTools: Array.from({ length: 20 }, (_, i) => mcp("big", `tool_${String(i).padStart(2, "0")}`)) });
const deferredNames = big.tools.filter((tool) => !CORE.includes(tool.name)).map((tool) => tool.name);

function input(pool: Pool, settings: Partial<AssembleSettings>, overrides: Partial<AssembleInput> = {}): AssembleInput {
  const engine = indexOf(pool);
  return {
    settings: { model: "claude-sonnet-4-5", provider: "anthropic", delivery: "auto", format: "anthropic", announcements: "list", maxToolsInArray: LIMIT, ...settings },
    tools: pool.tools,
    messages: [],
    metaTools: metaToolsOf(pool, engine),
    ...overrides,
  };
}

const names = (result: ReturnType<typeof assembleRequest>) => result.tools.map(wireToolName);
const discoverAll = () => anthropicCall("ToolSearch", { query: "select:all" }, deferredNames.map((name) => ({ type: "tool_reference", tool_name: name })));

describe("the tools array limit at assembly", () => {
  test("standard over the limit defers with proxy: core + ToolSearch + ExecuteExtraTool, a warning says why", () => {
    const result = assembleRequest(input(big, { delivery: "standard" }));
    expect(result.delivery).toEqual({ delivery: "proxy", reason: "tool_limit" });
    expect(result.deferring).toBe(true);
    expect(names(result)).toEqual([...CORE, "ToolSearch", "ExecuteExtraTool"]);
    expect(result.counts).toMatchObject({ core: 4, deferred: 26 });
    expect(result.announcement?.added).toEqual([...deferredNames].sort());
    expect(result.warnings).toEqual(["tools array limit (maxToolsInArray 8): 30 tools would be sent in full, so this request defers with proxy delivery"]);
  });

  test("standard within the limit is untouched", () => {
    const result = assembleRequest(input(big, { delivery: "standard", maxToolsInArray: 30 }));
    expect(result.delivery).toEqual({ delivery: "standard", reason: "requested" });
    expect(result.tools.length).toBe(30);
    expect(result.warnings).toEqual([]);
  });

  test("a mode that defers nothing keeps the session's own delivery when over the limit; the kill switch makes it proxy", () => {
    const standardMode = assembleRequest(input(big, { toolSearch: "false" }));
    expect(standardMode.mode.deferring).toBe(false);
    expect(standardMode.delivery).toEqual({ delivery: "native", reason: "tool_limit" });
    expect(names(standardMode)).toEqual([...CORE, "ToolSearch"]);
    const killed = assembleRequest(input(big, { disableExperimentalBetas: true }));
    expect(killed.delivery).toEqual({ delivery: "proxy", reason: "tool_limit" });
    expect(killed.betas).toEqual([]);
    expect(names(killed)).toEqual([...CORE, "ToolSearch", "ExecuteExtraTool"]);
  });

  test("a request of every tool in full that would send a tool the operator defers always defers instead, saying so; a deferring one is untouched", () => {
    // Attack: a session asks for standard delivery (or toolSearch false, or tst-auto below its
    // threshold) to get a tool the operator's config defers always sent in full on every request.
    const small = samplePool();
    // As the eager policy leaves them: deferred (core/eager-config.ts operatorDeferredOf names them).
    const always = (tool: { name: string }) => tool.name === "mcp__github__create_issue" || tool.name === "WebFetch";
    const warning = (delivery: string) => `config defer "always" names 2 of this session's tools (WebFetch, mcp__github__create_issue), which a request of every tool in full would send: this request defers with ${delivery} delivery`;
    const standard = assembleRequest(input(small, { delivery: "standard", maxToolsInArray: 128 }, { operatorDeferred: always }));
    const noSearch = assembleRequest(input(small, { toolSearch: "false", maxToolsInArray: 128 }, { operatorDeferred: always }));
    const killed = assembleRequest(input(small, { disableExperimentalBetas: true, maxToolsInArray: 128 }, { operatorDeferred: always }));
    expect([standard, noSearch, killed].map((result) => ({ delivery: result.delivery, sent: names(result).filter((name) => always({ name })), warnings: result.warnings }))).toEqual([
      { delivery: { delivery: "proxy", reason: "operator_defer" }, sent: [], warnings: [warning("proxy")] },
      { delivery: { delivery: "native", reason: "operator_defer" }, sent: [], warnings: [warning("native")] },
      { delivery: { delivery: "proxy", reason: "operator_defer" }, sent: [], warnings: [warning("proxy")] },
    ]);
    expect(names(standard)).toEqual(["Bash", "Read", "Write", "mcp__slack__list_channels", "ToolSearch", "ExecuteExtraTool"]);
    // Nothing the operator defers always: standard stays standard; a deferring session is as before.
    expect(assembleRequest(input(small, { delivery: "standard", maxToolsInArray: 128 }, { operatorDeferred: () => false })).delivery).toEqual({ delivery: "standard", reason: "requested" });
    expect(assembleRequest(input(small, { maxToolsInArray: 128 }, { operatorDeferred: always }))).toEqual(assembleRequest(input(small, { maxToolsInArray: 128 })));
  });

  test("native: discovered tools are cut to the room core and ToolSearch leave, named in a warning", () => {
    const result = assembleRequest(input(big, {}, { messages: discoverAll() }));
    expect(result.delivery.delivery).toBe("native");
    expect(names(result)).toEqual([...CORE, "ToolSearch", "NotebookEdit", "WebFetch", "mcp__big__tool_00"]);
    expect(result.counts.discovered).toBe(3);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toStartWith("tools array limit (maxToolsInArray 8): 23 discovered tool(s) left out of the array (select them again later): ");
  });

  test("promoted tools join the core only as far as the room goes; the pool's own core stays", () => {
    const promoted = new Set(["WebFetch", "NotebookEdit", "mcp__github__create_issue"]);
    const result = assembleRequest(input(big, { delivery: "proxy" }, { promoted }));
    expect(names(result)).toEqual(["Bash", "NotebookEdit", "Read", "WebFetch", "Write", "mcp__slack__list_channels", "ToolSearch", "ExecuteExtraTool"]);
    expect(result.warnings).toEqual(["tools array limit (maxToolsInArray 8): 1 core tool(s) deferred: mcp__github__create_issue"]);
  });

  test("mid-conversation: the fixed array's deferred entries are cut to the room left, with a warning", () => {
    const result = assembleRequest(input(big, { delivery: "mid-conversation" }, { fixedTools: {} }));
    expect(result.delivery.delivery).toBe("mid-conversation");
    expect(names(result)).toEqual([...CORE, "ToolSearch", "NotebookEdit", "WebFetch", "mcp__big__tool_00"]);
    expect(result.warnings).toEqual([`tools array limit (maxToolsInArray 8): 23 deferred tool(s) left out of the fixed array; without the ${INLINE_TOOLS_BETA} beta (inlineTools) they cannot be added`]);
  });

  test("tools of 250K-character schemas: standard defers past 4 MiB of definitions; native's discovered ones and mid-conversation's fixed array hold at most MAX_DEFERRED_ARRAY_CHARS, the rest named in a warning", () => {
    // Attack: 60 such tools made every mid-conversation request 15 MB (40 discovered, a native one 10 MB), over the 8 MiB line a client reads.
    const schema = { type: "object", properties: { text: { type: "string", description: "s".repeat(250_000) } } };
    const fat = samplePool({ mcpTools: Array.from({ length: 60 }, (_, i) => mcp("fat", `tool_${String(i).padStart(2, "0")}`, { schema })) });
    const fatNames = fat.tools.filter((tool) => tool.mcpInfo?.server === "fat").map((tool) => tool.name);
    const discover = anthropicCall("ToolSearch", { query: "select:mcp__fat" }, fatNames.map((name) => ({ type: "tool_reference", tool_name: name })));
    const native = assembleRequest(input(fat, { maxToolsInArray: 128 }, { messages: discover }));
    const mid = assembleRequest(input(fat, { delivery: "mid-conversation", maxToolsInArray: 128 }, { fixedTools: {} }));
    const fits = Math.floor(MAX_DEFERRED_ARRAY_CHARS / (fat.get(fatNames[0]!)!.description.length + JSON.stringify(fat.get(fatNames[0]!)!.inputJSONSchema).length));
    const fatIn = (result: ReturnType<typeof assembleRequest>) => names(result).filter((name) => name.startsWith("mcp__fat__")).length;
    // A session that would send every tool (standard) defers instead, as it does over the count.
    const standard = assembleRequest(input(fat, { delivery: "standard", maxToolsInArray: 128 }));
    expect({ delivery: standard.delivery, fat: fatIn(standard), warning: standard.warnings[0]?.replace(/\(\d+ bytes\)/, "(N bytes)") }).toEqual({
      delivery: { delivery: "proxy", reason: "tool_limit" },
      fat: 0,
      warning: "tools array limit (4 MiB of tool definitions): 70 tools would be sent in full (N bytes), so this request defers with proxy delivery",
    });
    // With inline tools, each request's definitions by value are sized alike; the next request adds the next ones.
    const holder: FixedToolHolder = {};
    const inlineSettings = { delivery: "mid-conversation" as const, inlineTools: true, maxToolsInArray: 128 };
    const transcript: unknown[] = [...discover];
    const inline = assembleRequest(input(fat, inlineSettings, { fixedTools: holder, messages: transcript }));
    transcript.push(inline.toolChanges!.message);
    const next = assembleRequest(input(fat, inlineSettings, { fixedTools: holder, messages: transcript }));
    const fatAdded = (result: ReturnType<typeof assembleRequest>) => result.toolChanges?.added.filter((name) => name.startsWith("mcp__fat__")) ?? [];
    expect({ added: fatAdded(inline), next: fatAdded(next), under: JSON.stringify(inline).length < 8 * 1024 * 1024, warning: inline.warnings.at(-1)?.slice(0, 60) }).toEqual({
      added: fatNames.slice(0, fits),
      next: fatNames.slice(fits, 2 * fits),
      under: true,
      warning: "tools array limit (2 MiB of deferred tool definitions): 52 t",
    });
    expect({ native: fatIn(native), mid: fatIn(mid), nativeUnder: JSON.stringify(native).length < 8 * 1024 * 1024, midUnder: JSON.stringify(mid).length < 8 * 1024 * 1024, nativeWarning: native.warnings.at(-1)?.slice(0, 60), midWarning: mid.warnings.at(-1)?.slice(0, 60) }).toEqual({
      native: fits,
      mid: fits,
      nativeUnder: true,
      midUnder: true,
      nativeWarning: "tools array limit (2 MiB of deferred tool definitions): 52 d",
      midWarning: "tools array limit (2 MiB of deferred tool definitions): 52 d",
    });
  });

  test("definitions are sized as the line carries them, UTF-8 bytes: schemas of CJK text (3 bytes a character) stay inside the 8 MiB line", () => {
    // Attack: the guards counted characters. 16 tools of 250K-character CJK schemas (4 Mi characters) went out whole in
    // standard delivery, ~12 MB; 8 eager ones beside 8 discovered ones made a native request as large.
    const schema = { type: "object", properties: { text: { type: "string", description: "界".repeat(250_000) } } };
    const lineBytes = (result: ReturnType<typeof assembleRequest>) => Buffer.byteLength(JSON.stringify(result));
    const cjk = samplePool({ mcpTools: Array.from({ length: 16 }, (_, i) => mcp("cjk", `tool_${String(i).padStart(2, "0")}`, { schema })) });
    const standard = assembleRequest(input(cjk, { delivery: "standard", maxToolsInArray: 128 }));
    // The pool's eager guard (eager-policy.ts) sizes the 8 alwaysLoad ones alike.
    const eagerAndDiscovered = assemblePool({
      builtins: [builtin("Bash"), builtin("Read")],
      mcpTools: Array.from({ length: 24 }, (_, i) => mcp("cjk", `tool_${String(i).padStart(2, "0")}`, { schema, alwaysLoad: i < 8 })),
      eager: { tools: new Map(), servers: new Map(), maxTools: 128 },
    });
    const discovered = eagerAndDiscovered.tools.filter((tool) => tool.mcpInfo?.server === "cjk" && !tool.alwaysLoad).map((tool) => tool.name);
    const discover = anthropicCall("ToolSearch", { query: "select:mcp__cjk" }, discovered.map((name) => ({ type: "tool_reference", tool_name: name })));
    const native = assembleRequest(input(eagerAndDiscovered, { maxToolsInArray: 128 }, { messages: discover }));
    const mid = assembleRequest(input(eagerAndDiscovered, { delivery: "mid-conversation", maxToolsInArray: 128 }, { fixedTools: {} }));
    expect({ standard: standard.delivery, under: [standard, native, mid].map((result) => lineBytes(result) < 8 * 1024 * 1024) }).toEqual({
      standard: { delivery: "proxy", reason: "tool_limit" },
      under: [true, true, true],
    });
  });

  test("no delivery, mode, kill switch or format ever crosses the limit, with every tool discovered", () => {
    for (const delivery of REQUESTED_DELIVERIES) {
      for (const toolSearch of ["true", "false", "auto"]) {
        for (const disableExperimentalBetas of [false, true]) {
          for (const format of ["anthropic", "openai"] as const) {
            for (const limit of [8, 12, 29]) {
              const result = assembleRequest(
                input(big, { delivery, toolSearch, disableExperimentalBetas, format, maxToolsInArray: limit }, { messages: discoverAll(), fixedTools: {}, promoted: new Set(["WebFetch", "NotebookEdit"]) }),
              );
              const where = `${delivery} ${toolSearch} kill=${disableExperimentalBetas} ${format} limit=${limit}`;
              expect({ where, over: result.tools.length > limit }).toEqual({ where, over: false });
              // What was cut is said: more tools than sent and not deferring would be a silent loss.
              if (!result.deferring) expect({ where, count: result.tools.length }).toEqual({ where, count: 30 });
            }
          }
        }
      }
    }
  });
});

describe("mid-conversation with inline tools: tools added by value count against the limit", () => {
  /** Tools the provider holds after this transcript: the fixed array plus every tool loaded by value (last change true, not in tools[]). */
  const held = (result: ReturnType<typeof assembleRequest>, transcript: readonly unknown[]) => {
    const inArray = new Set(names(result));
    const byValue = [...scanTranscript(transcript).toolChanges].filter(([name, on]) => on && !inArray.has(name)).map(([name]) => name);
    return { total: inArray.size + byValue.length, byValue };
  };
  const select = (picked: readonly string[]) => anthropicCall("ToolSearch", { query: `select:${picked.join(",")}` }, picked.map((name) => ({ type: "tool_reference", tool_name: name })));

  test("discovering everything adds only what fits beside the fixed array, and a warning names the rest", () => {
    const holder: FixedToolHolder = {};
    const settings = { delivery: "mid-conversation" as const, inlineTools: true };
    const first = assembleRequest(input(big, settings, { fixedTools: holder }));
    expect(names(first)).toEqual([...CORE, "ToolSearch"]);
    const transcript: unknown[] = [...discoverAll()];
    const second = assembleRequest(input(big, settings, { messages: transcript, fixedTools: holder }));
    // 8 − 4 core − ToolSearch = 3 by value, in pool order.
    expect(second.toolChanges?.added).toEqual(deferredNames.slice(0, 3));
    expect(second.warnings).toEqual([`tools array limit (maxToolsInArray 8): 23 tool(s) not added mid-conversation (the fixed array and the tools already added by value fill it): ${deferredNames.slice(3, 13).join(", ")}, …`]);
    transcript.push(second.toolChanges!.message);
    const third = assembleRequest(input(big, settings, { messages: transcript, fixedTools: holder }));
    expect(third.toolChanges).toBeNull();
    expect(held(third, transcript)).toEqual({ total: 8, byValue: deferredNames.slice(0, 3) });
  });

  test("tools loaded earlier keep their place before new ones; a lowered limit removes the excess", () => {
    const holder: FixedToolHolder = {};
    const settings = { delivery: "mid-conversation" as const, inlineTools: true };
    assembleRequest(input(big, settings, { fixedTools: holder }));
    const transcript: unknown[] = [...select(["mcp__big__tool_19"])];
    const first = assembleRequest(input(big, settings, { messages: transcript, fixedTools: holder }));
    expect(first.toolChanges?.added).toEqual(["mcp__big__tool_19"]);
    transcript.push(first.toolChanges!.message, ...discoverAll());
    const more = assembleRequest(input(big, settings, { messages: transcript, fixedTools: holder }));
    // tool_19 is already loaded: it keeps its place, two new ones join it.
    expect(more.toolChanges?.added).toEqual(["NotebookEdit", "WebFetch"]);
    transcript.push(more.toolChanges!.message);
    const lowered = assembleRequest(input(big, { ...settings, maxToolsInArray: 6 }, { messages: transcript, fixedTools: holder }));
    // Among loaded tools, pool order decides which stay.
    expect(lowered.toolChanges?.removed).toEqual(["WebFetch", "mcp__big__tool_19"]);
    // The warning names the removed first, then the discovered ones that still do not fit.
    expect(lowered.warnings).toEqual([`tools array limit (maxToolsInArray 6): 25 tool(s) not added mid-conversation (the fixed array and the tools already added by value fill it): WebFetch, mcp__big__tool_19, ${deferredNames.filter((name) => !["NotebookEdit", "WebFetch", "mcp__big__tool_19"].includes(name)).slice(0, 8).join(", ")}, …`]);
    transcript.push(lowered.toolChanges!.message);
    expect(held(lowered, transcript)).toEqual({ total: 6, byValue: ["NotebookEdit"] });
  });

  test("over a scripted conversation at several limits, the tools held never pass the limit", () => {
    for (const limit of [5, 6, 8, 12, 29]) {
      const holder: FixedToolHolder = {};
      const settings = { delivery: "mid-conversation" as const, inlineTools: true, maxToolsInArray: limit };
      const transcript: unknown[] = [];
      for (let turn = 0; turn < 8; turn++) {
        transcript.push(...select(deferredNames.slice(turn * 4, turn * 4 + 4)));
        const result = assembleRequest(input(big, settings, { messages: transcript, fixedTools: holder }));
        if (result.toolChanges) transcript.push(result.toolChanges.message);
        const where = `limit=${limit} turn=${turn}`;
        expect({ where, over: held(result, transcript).total > limit }).toEqual({ where, over: false });
      }
      // Everything was selected: what is held fills the limit exactly (nothing is lost silently below it).
      const last = assembleRequest(input(big, settings, { messages: transcript, fixedTools: holder }));
      expect({ limit, held: held(last, transcript).total }).toEqual({ limit, held: Math.min(limit, CORE.length + 1 + deferredNames.length) });
    }
  });
});
