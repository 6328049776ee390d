import { describe, expect, test } from "bun:test";
import { assembleRequest, sessionDelivery, type AssembleInput, type AssembleSettings } from "../../src/assembly/assemble-request.ts";
import { formatDiscoveredLine } from "../../src/assembly/discovered-line.ts";
import { wireToolName } from "../../src/assembly/wire-format.ts";
import { ADVANCED_TOOL_USE_BETA } from "../../src/deferral/meta-tools.ts";
import type { Pool } from "../../src/pool/assemble.ts";
import { buildTool } from "../../src/tool/build-tool.ts";
import { textResult } from "../../src/tool/result.ts";
import { z } from "zod";
import type { SessionSettings } from "../../src/session/session.ts";
import { anthropicCall, builtin, indexOf, mcp, metaToolsOf, samplePool } from "./fixtures.ts";

const CORE = ["Bash", "Read", "Write", "mcp__slack__list_channels"];
const DEFERRED = ["NotebookEdit", "WebFetch", "mcp__github__create_issue", "mcp__github__get_issue", "mcp__jira__create-ticket", "mcp__slack__post_message"];

const settings = (overrides: Partial<AssembleSettings> = {}): AssembleSettings => ({
  model: "claude-sonnet-4-5",
  provider: "anthropic",
  delivery: "auto",
  format: "anthropic",
  announcements: "list",
  ...overrides,
});

function input(pool: Pool, overrides: Partial<AssembleInput> = {}, settingOverrides: Partial<AssembleSettings> = {}): AssembleInput {
  const engine = indexOf(pool);
  return {
    settings: settings(settingOverrides),
    tools: pool.tools,
    messages: [],
    metaTools: metaToolsOf(pool, engine),
    ...overrides,
  };
}

const toolNames = (result: ReturnType<typeof assembleRequest>) => result.tools.map(wireToolName);
const references = (...names: string[]) =>
  anthropicCall("ToolSearch", { query: `select:${names.join(",")}` }, names.map((name) => ({ type: "tool_reference", tool_name: name })));

describe("assembleRequest: the three deliveries", () => {
  const pool = samplePool();

  test("native: core + ToolSearch, the beta header, the list of deferred names", () => {
    const result = assembleRequest(input(pool));
    expect(toolNames(result)).toEqual([...CORE, "ToolSearch"]);
    expect(result.tools.some((tool) => "defer_loading" in tool)).toBe(false);
    expect(result.betas).toEqual([ADVANCED_TOOL_USE_BETA]);
    expect(result.delivery).toEqual({ delivery: "native", reason: "first_party_anthropic" });
    expect(result.mode).toEqual({ mode: "tst", deferring: true, reason: "tst_enabled" });
    expect(result.announcement?.text).toBe(["<available-deferred-tools>", ...DEFERRED, "</available-deferred-tools>"].join("\n"));
    expect(result.counts).toMatchObject({ core: 4, deferred: 6, discovered: 0 });
    expect(result.warnings).toEqual([]);
  });

  test("native: discovered deferred tools follow ToolSearch, in pool order, with defer_loading", () => {
    const messages = [...references("mcp__github__create_issue"), ...references("WebFetch", "Read")];
    const result = assembleRequest(input(pool, { messages }));
    expect(toolNames(result)).toEqual([...CORE, "ToolSearch", "WebFetch", "mcp__github__create_issue"]);
    expect(result.tools.slice(-2).every((tool) => "defer_loading" in tool && tool.defer_loading === true)).toBe(true);
    expect(result.discovered).toEqual(["Read", "WebFetch", "mcp__github__create_issue"]);
    expect(result.counts.discovered).toBe(2);
  });

  test("proxy: core + ToolSearch + ExecuteExtraTool, whatever was discovered", () => {
    const empty = assembleRequest(input(pool, {}, { delivery: "proxy" }));
    const later = assembleRequest(input(pool, { messages: references("mcp__github__create_issue", "WebFetch") }, { delivery: "proxy" }));
    expect(toolNames(empty)).toEqual([...CORE, "ToolSearch", "ExecuteExtraTool"]);
    expect(JSON.stringify(later.tools)).toBe(JSON.stringify(empty.tools));
    expect(empty.betas).toEqual([]);
    expect(later.discovered).toEqual(["WebFetch", "mcp__github__create_issue"]);
  });

  test("proxy and native describe ToolSearch differently", () => {
    const native = assembleRequest(input(pool));
    const proxy = assembleRequest(input(pool, {}, { delivery: "proxy" }));
    const description = (result: typeof native) => JSON.stringify(result.tools.find((tool) => wireToolName(tool) === "ToolSearch"));
    expect(description(native)).toContain("call it directly");
    expect(description(proxy)).toContain("ExecuteExtraTool");
  });

  test("standard: every tool in full, no meta-tools, no announcement", () => {
    const result = assembleRequest(input(pool, { messages: references("WebFetch") }, { delivery: "standard" }));
    expect(toolNames(result)).toEqual(pool.tools.map((tool) => tool.name));
    expect(result.delivery).toEqual({ delivery: "standard", reason: "requested" });
    expect(result.deferring).toBe(false);
    expect(result.announcement).toBeNull();
    expect(result.betas).toEqual([]);
    expect(result.counts).toMatchObject({ core: 10, deferred: 0, discovered: 0 });
  });

  test("OpenAI format: proxy, as function tools", () => {
    const result = assembleRequest(input(pool, {}, { format: "openai", provider: "openai", model: "gpt-4o" }));
    expect(result.format).toBe("openai");
    expect(result.delivery).toEqual({ delivery: "proxy", reason: "openai_format" });
    expect(result.tools[0]).toEqual({
      type: "function",
      function: { name: "Bash", description: "Bash does bash things.", parameters: pool.get("Bash")!.inputJSONSchema },
    });
    expect(toolNames(result)).toEqual([...CORE, "ToolSearch", "ExecuteExtraTool"]);
  });

  test.each([
    ["a gateway", { baseUrl: "https://gw.example" }, "proxy", "third_party_base_url"],
    ["haiku", { model: "claude-haiku-4-5" }, "proxy", "model_unsupported"],
    ["another provider", { provider: "other" }, "proxy", "non_anthropic_provider"],
  ] as const)("auto on %s → %s", (_case, overrides, delivery, reason) => {
    const result = assembleRequest(input(pool, {}, overrides));
    expect(result.delivery).toEqual({ delivery, reason });
    expect(sessionDelivery(settings(overrides))).toEqual({ delivery, reason });
  });
});

describe("assembleRequest: modes", () => {
  const pool = samplePool();

  test("DISABLE_EXPERIMENTAL_BETAS: standard, no beta field, no beta header — even with discoveries", () => {
    const result = assembleRequest(input(pool, { messages: references("WebFetch") }, { disableExperimentalBetas: true, toolSearch: "true" }));
    expect(result.mode.reason).toBe("kill_switch");
    expect(result.delivery).toEqual({ delivery: "standard", reason: "not_deferring" });
    expect(result.betas).toEqual([]);
    expect(JSON.stringify(result.tools)).not.toContain("defer_loading");
    expect(toolNames(result)).toEqual(pool.tools.map((tool) => tool.name));
  });

  test.each([
    ["false", "standard_mode", false],
    ["auto:100", "standard_mode", false],
    ["true", "tst_enabled", true],
    ["auto:0", "tst_enabled", true],
    ["auto", "auto_below_threshold", false],
  ] as const)("toolSearch %p → %s", (value, reason, deferring) => {
    const result = assembleRequest(input(pool, {}, { toolSearch: value }));
    expect(result.mode.reason).toBe(reason);
    expect(result.deferring).toBe(deferring);
    expect(result.tools.length).toBe(deferring ? 5 : 10);
  });

  test("tst-auto defers once the deferred tools pass the share of a (session-given) window", () => {
    const result = assembleRequest(input(pool, {}, { toolSearch: "auto:10", contextWindow: 2_000 }));
    expect(result.mode.reason).toBe("auto_above_threshold");
    expect(result.mode.auto?.threshold).toBe(200);
    expect(toolNames(result)).toEqual([...CORE, "ToolSearch"]);
  });

  test("a custom token counter is used for the threshold and the count", () => {
    const counter = { label: "fixed", count: () => 1_000_000 };
    const result = assembleRequest(input(pool, {}, { toolSearch: "auto", tokenCounter: counter }));
    expect(result.mode.reason).toBe("auto_above_threshold");
    expect(result.counts.toolTokenCounter).toBe("fixed");
    expect(result.counts.toolTokens).toBe(1_000_000);
  });

  test("an unreadable setting falls back to tst and warns", () => {
    const result = assembleRequest(input(pool, {}, { toolSearch: "sometimes" }));
    expect(result.mode.reason).toBe("tst_enabled");
    expect(result.warnings).toEqual(['tool search setting "sometimes" is not one of true, false, auto, auto:0…auto:100; using true']);
  });

  test("nothing to defer: no ToolSearch — unless a server is still connecting", () => {
    const corePool = samplePool().tools.filter((tool) => !tool.isMcp && !tool.shouldDefer);
    const none = assembleRequest({ ...input(samplePool()), tools: corePool });
    expect(none.mode.reason).toBe("no_deferred_tools");
    expect(toolNames(none)).toEqual(["Bash", "Read", "Write"]);
    const pending = assembleRequest({ ...input(samplePool()), tools: corePool, pendingServers: ["github"] });
    expect(toolNames(pending)).toEqual(["Bash", "Read", "Write", "ToolSearch"]);
    expect(pending.announcement).toBeNull();
  });
});

describe("assembleRequest: the pool as given", () => {
  test("disabled tools are left out", () => {
    const off = buildTool({ name: "Off", description: "off", inputSchema: z.strictObject({}), isEnabled: () => false, call: async () => textResult("") });
    const pool = samplePool({ builtins: [off] });
    expect(toolNames(assembleRequest(input(pool, {}, { delivery: "standard" })))).not.toContain("Off");
  });

  test("a pool tool named like a meta-tool gives way to the session's", () => {
    const impostor = builtin("ToolSearch", { description: "not the real one" });
    const pool = samplePool({ builtins: [impostor] });
    const result = assembleRequest(input(pool));
    expect(toolNames(result).filter((name) => name === "ToolSearch")).toHaveLength(1);
    expect(JSON.stringify(result.tools)).not.toContain("not the real one");
  });

  test("a discovered tool that left the pool stays discovered but is not sent", () => {
    const result = assembleRequest(input(samplePool(), { messages: references("mcp__gone__tool") }));
    expect(result.discovered).toEqual(["mcp__gone__tool"]);
    expect(toolNames(result)).not.toContain("mcp__gone__tool");
  });
});

describe("assembleRequest: restart safety and schema stability", () => {
  const messages = [
    ...references("mcp__github__create_issue"),
    ...anthropicCall("ToolSearch", { query: "slack" }, `Found 1 tool(s).\n\n${formatDiscoveredLine(["mcp__slack__post_message"])}`),
  ];

  test.each(["native", "proxy", "standard"] as const)("%s: same transcript + same pool ⇒ the same bytes, with or without a cache", (delivery) => {
    const first = assembleRequest(input(samplePool(), { messages }, { delivery }));
    const restarted = assembleRequest(input(samplePool(), { messages }, { delivery }));
    const cached = assembleRequest(input(samplePool(), { messages, schemaCache: new Map() }, { delivery }));
    expect(JSON.stringify(restarted)).toBe(JSON.stringify(first));
    expect(JSON.stringify(cached)).toBe(JSON.stringify(first));
  });

  test("a description change keeps the session's bytes, reaches new sessions, and is announced once by delta", () => {
    const cache = new Map<string, string>();
    const original = samplePool();
    const before = assembleRequest(input(original, { schemaCache: cache }, { announcements: "delta" }));
    const transcript: unknown[] = [{ role: "user", content: before.announcement!.text }];

    const changedPool = samplePool({ builtins: [] });
    const readChanged = builtin("Read", { readOnly: true, aliases: ["FileRead"], description: "Read a file, now with line numbers." });
    const updated = { ...changedPool, tools: changedPool.tools.map((tool) => (tool.name === "Read" ? readChanged : tool)) };

    const after = assembleRequest(input(updated, { schemaCache: cache, messages: transcript }, { announcements: "delta" }));
    expect(JSON.stringify(after.tools)).toBe(JSON.stringify(before.tools));
    expect(after.announcement?.changed.map((change) => change.name)).toEqual(["Read"]);
    expect(after.announcement?.added).toEqual([]);

    transcript.push({ role: "user", content: after.announcement!.text });
    const again = assembleRequest(input(updated, { schemaCache: cache, messages: transcript }, { announcements: "delta" }));
    expect(again.announcement).toBeNull();
    expect(JSON.stringify(again.tools)).toBe(JSON.stringify(before.tools));

    const newSession = assembleRequest(input(updated, { schemaCache: new Map() }, { announcements: "delta" }));
    expect(JSON.stringify(newSession.tools)).toContain("now with line numbers");
  });
});

describe("assembleRequest: delta announcements over a session", () => {
  test("added on first use, servers joining and leaving, a tool becoming core", () => {
    const transcript: unknown[] = [];
    const step = (pool: Pool) => {
      const result = assembleRequest(input(pool, { messages: transcript }, { announcements: "delta" }));
      if (result.announcement) transcript.push({ role: "user", content: [{ type: "text", text: result.announcement.text }] });
      return result.announcement;
    };
    expect(step(samplePool())).toMatchObject({ added: DEFERRED, removed: [], persist: true });
    expect(step(samplePool())).toBeNull();

    const withLinear = samplePool({ mcpTools: [mcp("linear", "create_issue")] });
    expect(step(withLinear)).toMatchObject({ added: ["mcp__linear__create_issue"], removed: [] });

    const withoutJira = samplePool({ mcpTools: [mcp("linear", "create_issue")] });
    const jiraGone = { ...withoutJira, tools: withoutJira.tools.filter((tool) => !tool.name.startsWith("mcp__jira")) };
    expect(step(jiraGone)).toMatchObject({ added: [], removed: ["mcp__jira__create-ticket"] });

    // WebFetch becomes core (alwaysLoad): it is still there, so it is not "no longer available".
    const webFetchCore = builtin("WebFetch", { shouldDefer: true, alwaysLoad: true });
    const becameCore = { ...jiraGone, tools: jiraGone.tools.map((tool) => (tool.name === "WebFetch" ? webFetchCore : tool)) };
    expect(step(becameCore)).toBeNull();

    // The kill switch turns deferral off: nothing is deferred, nothing left the pool, nothing to say.
    expect(assembleRequest(input(becameCore, { messages: transcript }, { announcements: "delta", disableExperimentalBetas: true })).announcement).toBeNull();
  });

  test("list style never persists and is sent while deferring only", () => {
    const pool = samplePool();
    expect(assembleRequest(input(pool)).announcement?.persist).toBe(false);
    expect(assembleRequest(input(pool, {}, { toolSearch: "false" })).announcement).toBeNull();
  });
});

describe("assembleRequest: wiring", () => {
  test("a session's settings are assemble settings as they stand (compile-time)", () => {
    const fromSession = (session: SessionSettings): AssembleSettings => session;
    expect(typeof fromSession).toBe("function");
  });
});
