import { describe, expect, test } from "bun:test";
import { defaultFlagValues } from "../../src/flags/flag-definitions.ts";
import { StaticFlags } from "../../src/flags/static-flags.ts";
import { runFlagsContract } from "./contract.ts";
import { recordingLogger } from "./helpers.ts";

runFlagsContract({
  name: "StaticFlags",
  source: "static",
  async create({ features, values, logger }) {
    const flags = new StaticFlags({ features, values, logger });
    return {
      flags,
      apply: async (next) => flags.set(next),
      [Symbol.asyncDispose]: () => flags.close(),
    };
  },
});

describe("StaticFlags", () => {
  test("set() replaces every override and is silent when nothing changed", async () => {
    await using flags = new StaticFlags({ features: ["PREFETCH"], values: { prefetch_max_results: 4 } });
    let calls = 0;
    flags.onChange(() => calls++);
    flags.set({ prefetch_max_results: 4 });
    expect(calls).toBe(0);
    flags.set({ search_default_max_results: 9 });
    expect(calls).toBe(1);
    expect(flags.values()).toEqual({ ...defaultFlagValues(), search_default_max_results: 9 });
  });

  test("unknown keys are logged and ignored; describe() has no payloads", async () => {
    const logger = recordingLogger();
    await using flags = new StaticFlags({ features: [], values: { nonsense: 1 } as never, logger, attributes: { tier: "lite" } });
    expect(flags.values()).toEqual(defaultFlagValues());
    expect(logger.find("warn", "unknown flag").map((entry) => entry.fields.flag)).toEqual(["nonsense"]);
    const report = flags.describe({ model: "m" });
    expect({ implementation: report.implementation, attributes: report.attributes, payloads: report.payloads }).toEqual({
      implementation: "static",
      attributes: { tier: "lite", model: "m" },
      payloads: [],
    });
  });

  test("a listener that throws is logged and does not stop the others", () => {
    const logger = recordingLogger();
    const flags = new StaticFlags({ features: [], logger });
    let reached = false;
    flags.onChange(() => {
      throw new Error("listener bug");
    });
    flags.onChange(() => {
      reached = true;
    });
    flags.set({ disabled_tools: ["Bash"] });
    expect(reached).toBe(true);
    expect(logger.find("error", "listener failed").map((entry) => entry.fields.error)).toEqual(["listener bug"]);
  });
});
