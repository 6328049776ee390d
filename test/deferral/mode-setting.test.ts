import { describe, expect, test } from "bun:test";
import {
  DEFAULT_AUTO_PERCENT,
  experimentalBetasDisabled,
  parseModeSetting,
  pickModeValue,
} from "../../src/deferral/mode-setting.ts";

describe("ENABLE_TOOL_SEARCH values", () => {
  test.each([
    // [value, mode, autoPercent]
    [undefined, "tst", DEFAULT_AUTO_PERCENT],
    ["", "tst", DEFAULT_AUTO_PERCENT],
    ["true", "tst", DEFAULT_AUTO_PERCENT],
    ["TRUE", "tst", DEFAULT_AUTO_PERCENT],
    ["1", "tst", DEFAULT_AUTO_PERCENT],
    ["auto:0", "tst", 0],
    ["auto", "tst-auto", DEFAULT_AUTO_PERCENT],
    [" Auto ", "tst-auto", DEFAULT_AUTO_PERCENT],
    ["auto:1", "tst-auto", 1],
    ["auto:25", "tst-auto", 25],
    ["auto:99", "tst-auto", 99],
    ["false", "standard", DEFAULT_AUTO_PERCENT],
    ["0", "standard", DEFAULT_AUTO_PERCENT],
    ["auto:100", "standard", 100],
  ] as const)("%p → %s", (value, mode, percent) => {
    const setting = parseModeSetting(value);
    expect(setting).toEqual({ mode, autoPercent: percent, raw: value });
  });

  test("a bare auto takes the configured percentage", () => {
    expect(parseModeSetting("auto", 30)).toEqual({ mode: "tst-auto", autoPercent: 30, raw: "auto" });
    expect(parseModeSetting("auto:5", 30).autoPercent).toBe(5);
  });

  test.each(["auto:101", "auto:-1", "auto:", "auto:1.5", "sometimes", "auto:abc"])(
    "%p is invalid: falls back to tst and says why",
    (value) => {
      const setting = parseModeSetting(value);
      expect(setting.mode).toBe("tst");
      expect(setting.invalid).toContain(JSON.stringify(value));
    },
  );
});

describe("where the value comes from", () => {
  test.each([
    [{ session: "false", env: { ENABLE_TOOL_SEARCH: "auto" }, config: "true" }, "false", "session"],
    [{ env: { ENABLE_TOOL_SEARCH: "auto" }, config: "true" }, "true", "config"],
    [{ session: " ", env: { ENABLE_TOOL_SEARCH: "auto" }, config: "" }, "auto", "env"],
    [{ session: " ", env: { ENABLE_TOOL_SEARCH: "" }, config: "auto:5" }, "auto:5", "config"],
    [{ env: {} }, undefined, "default"],
    [{}, undefined, "default"],
  ] as const)("%j → %p from %s", (sources, value, source) => {
    expect(pickModeValue(sources)).toEqual({ value, source });
  });
});

describe("DISABLE_EXPERIMENTAL_BETAS", () => {
  test.each([
    [{}, false],
    [{ DISABLE_EXPERIMENTAL_BETAS: "1" }, true],
    [{ DISABLE_EXPERIMENTAL_BETAS: "true" }, true],
    [{ DISABLE_EXPERIMENTAL_BETAS: "0" }, false],
    [{ DISABLE_EXPERIMENTAL_BETAS: "" }, false],
    [{ CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS: "yes" }, true],
  ] as const)("%j → %p", (env, disabled) => {
    expect(experimentalBetasDisabled(env)).toBe(disabled);
  });
});
