import { describe, expect, test } from "bun:test";
import {
  FLAG_KEYS,
  FLAG_SPECS,
  MAX_LIST_FLAG_ENTRIES,
  MCP_CALL_TIMEOUT_HARD_CAP_MS,
  defaultFlagValues,
  isFlagCompiled,
  normalizeFlagValue,
} from "../../src/flags/flag-definitions.ts";

describe("flag definitions", () => {
  test("keys, types, defaults and gates are exactly the issue's", () => {
    expect(FLAG_KEYS.map((key) => [key, FLAG_SPECS[key].type, FLAG_SPECS[key].defaultValue, FLAG_SPECS[key].requires ?? null])).toEqual([
      ["tool_search_unsupported_models", "string[]", ["haiku"], null],
      ["tool_search_auto_percent", "number", 10, null],
      ["deferred_tools_delta", "boolean", false, null],
      ["prefetch_enabled", "boolean", true, "PREFETCH"],
      ["prefetch_max_results", "number", 3, "PREFETCH"],
      ["search_default_max_results", "number", 5, null],
      ["search_compact_answers", "boolean", false, null],
      ["disabled_tools", "string[]", [], null],
      ["mcp_call_timeout_ms", "number", 60_000, null],
      ["usage_recording", "boolean", true, null],
      ["usage_learning", "boolean", true, null],
      ["usage_promoted_tools", "number", 3, null],
    ]);
    expect(MCP_CALL_TIMEOUT_HARD_CAP_MS).toBe(600_000);
  });

  test("defaults are frozen, so no reader can change them for the others", () => {
    const values = defaultFlagValues();
    expect(Object.isFrozen(values.tool_search_unsupported_models)).toBe(true);
    expect(Object.isFrozen(values.disabled_tools)).toBe(true);
  });

  test.each([
    ["deferred_tools_delta", "true", "expected a boolean, got string"],
    ["deferred_tools_delta", 1, "expected a boolean, got number"],
    ["tool_search_auto_percent", "10", "expected a finite number, got string"],
    ["tool_search_auto_percent", null, "expected a finite number, got null"],
    ["mcp_call_timeout_ms", Number.POSITIVE_INFINITY, "expected a finite number, got Infinity"],
    ["disabled_tools", "Bash", "expected an array of strings, got string"],
    ["disabled_tools", { Bash: true }, "expected an array of strings, got object"],
    ["disabled_tools", ["Bash", 3], "expected an array of strings, entry 1 is number"],
    ["tool_search_unsupported_models", [["haiku"]], "expected an array of strings, entry 0 is an array"],
  ] as const)("%s = %p is refused: %s", (key, raw, reason) => {
    expect(normalizeFlagValue(key, raw)).toEqual({ ok: false, reason });
  });

  test("a list longer than the bound is refused", () => {
    const long = Array.from({ length: MAX_LIST_FLAG_ENTRIES + 1 }, (_, index) => `Tool${index}`);
    expect(normalizeFlagValue("disabled_tools", long)).toEqual({ ok: false, reason: `expected at most ${MAX_LIST_FLAG_ENTRIES} entries, got ${long.length}` });
  });

  test.each([
    ["prefetch_max_results", 2.4, 2, false],
    ["prefetch_max_results", 2.5, 3, false],
    ["mcp_call_timeout_ms", 600_001, 600_000, true],
    ["tool_search_auto_percent", 100, 100, false],
    ["deferred_tools_delta", true, true, false],
    ["disabled_tools", [], [], false],
  ] as const)("%s = %p is accepted as %p (clamped: %p)", (key, raw, value, clamped) => {
    expect(normalizeFlagValue(key, raw)).toEqual({ ok: true, value, clamped });
  });

  test("gating follows the compiled feature list", () => {
    expect(FLAG_KEYS.filter((key) => !isFlagCompiled(key, new Set()))).toEqual(["prefetch_enabled", "prefetch_max_results"]);
    expect(FLAG_KEYS.filter((key) => !isFlagCompiled(key, new Set(["PREFETCH"])))).toEqual([]);
  });
});
