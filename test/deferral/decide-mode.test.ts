import { describe, expect, test } from "bun:test";
import { decideMode, type ModeInput } from "../../src/deferral/decide-mode.ts";
import { parseModeSetting } from "../../src/deferral/mode-setting.ts";

/** 10% of 100,000 tokens = 10,000 tokens = 25,000 characters at 2.5 a token. */
const base = (value: string | undefined, overrides: Partial<ModeInput> = {}): ModeInput => ({
  setting: parseModeSetting(value),
  killSwitch: false,
  deferredCount: 3,
  serializeDeferred: () => "x".repeat(25_000),
  contextWindow: 100_000,
  pendingServers: 0,
  ...overrides,
});

describe("decideMode: every reason", () => {
  test.each([
    ["kill switch beats everything", base("true", { killSwitch: true }), "standard", false, "kill_switch"],
    ["kill switch beats tst-auto", base("auto", { killSwitch: true }), "standard", false, "kill_switch"],
    ["false → standard", base("false"), "standard", false, "standard_mode"],
    ["auto:100 → standard", base("auto:100"), "standard", false, "standard_mode"],
    ["unset → tst", base(undefined), "tst", true, "tst_enabled"],
    ["true → tst", base("true"), "tst", true, "tst_enabled"],
    ["auto:0 → tst", base("auto:0"), "tst", true, "tst_enabled"],
    ["auto at exactly the threshold defers", base("auto"), "tst-auto", true, "auto_above_threshold"],
    ["auto just under the threshold does not", base("auto", { serializeDeferred: () => "x".repeat(24_997) }), "tst-auto", false, "auto_below_threshold"],
    ["auto:50 raises the line", base("auto:50"), "tst-auto", false, "auto_below_threshold"],
    ["a small window lowers it", base("auto", { contextWindow: 50_000 }), "tst-auto", true, "auto_above_threshold"],
    ["tst with nothing to defer", base("true", { deferredCount: 0 }), "tst", false, "no_deferred_tools"],
    ["tst with nothing yet but a server connecting", base("true", { deferredCount: 0, pendingServers: 1 }), "tst", true, "tst_enabled"],
    ["auto with nothing to defer is below", base("auto", { deferredCount: 0 }), "tst-auto", false, "auto_below_threshold"],
  ] as const)("%s", (_case, input, mode, deferring, reason) => {
    const decision = decideMode(input);
    expect({ mode: decision.mode, deferring: decision.deferring, reason: decision.reason }).toEqual({ mode, deferring, reason });
  });

  test("tst-auto reports its measurement", () => {
    expect(decideMode(base("auto")).auto).toEqual({ tokens: 10_000, threshold: 10_000, above: true, counter: "chars/2.5" });
  });

  test("the deferred tools are serialized only when tst-auto needs them", () => {
    let calls = 0;
    const serializeDeferred = () => {
      calls += 1;
      return "[]";
    };
    decideMode(base("true", { serializeDeferred }));
    decideMode(base("false", { serializeDeferred }));
    expect(calls).toBe(0);
    decideMode(base("auto", { serializeDeferred }));
    expect(calls).toBe(1);
  });

  test("a pluggable counter decides, with its overhead taken off", () => {
    const api = { label: "count_tokens API", overheadTokens: 500, count: () => 10_400 };
    expect(decideMode(base("auto", { counter: api })).reason).toBe("auto_below_threshold");
    expect(decideMode(base("auto", { counter: { ...api, count: () => 10_500 } })).reason).toBe("auto_above_threshold");
  });
});
