import { describe, expect, test } from "bun:test";
import { DEFAULT_UNSUPPORTED_MODELS, supportsToolReference } from "../../src/deferral/model-gate.ts";

describe("model gate", () => {
  test("defaults to haiku", () => {
    expect(DEFAULT_UNSUPPORTED_MODELS).toEqual(["haiku"]);
  });

  test.each([
    ["claude-sonnet-4-5", undefined, true],
    ["claude-opus-4-1", undefined, true],
    ["claude-3-5-haiku-20241022", undefined, false],
    ["Claude-Haiku-4-5", undefined, false],
    ["claude-haiku-4-5", [], true],
    ["claude-sonnet-4-5", ["sonnet"], false],
    ["claude-opus-4-1", ["SONNET", "opus-4"], false],
    ["claude-opus-4-1", ["", "  "], true],
  ] as const)("%s with %j → %p", (model, list, supported) => {
    expect(supportsToolReference(model, list)).toBe(supported);
  });
});
