import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultFlagValues } from "../../src/flags/flag-definitions.ts";
import { GrowthBookFlags } from "../../src/flags/growthbook-flags.ts";
import { runFlagsContract } from "./contract.ts";
import { nextChange, payloadOf, recordingLogger, tempDir, writeAtomically } from "./helpers.ts";

runFlagsContract({
  name: "GrowthBookFlags (features file)",
  source: "file",
  async create({ features, values, logger }) {
    const dir = tempDir();
    const file = join(dir, "features.json");
    writeFileSync(file, JSON.stringify(payloadOf(values)));
    const flags = new GrowthBookFlags({ features, file, logger, stateDir: dir });
    return {
      flags,
      async apply(next) {
        const changed = nextChange(flags);
        writeAtomically(file, payloadOf(next));
        await changed;
      },
      [Symbol.asyncDispose]: () => flags.close(),
    };
  },
});

/** Rules the way the GrowthBook UI writes them: first matching condition wins, else the default value. */
const targeted = {
  features: {
    tool_search_unsupported_models: {
      defaultValue: ["haiku"],
      rules: [{ id: "r1", condition: { model: { $regex: "^gpt-4o-mini" } }, force: ["haiku", "gpt-4o-mini"] }],
    },
    tool_search_auto_percent: {
      defaultValue: 15,
      rules: [
        { id: "r2", condition: { tier: "lite" }, force: 5 },
        { id: "r3", condition: { tier: "pro", version: { $vgte: "0.2.0" } }, force: 40 },
      ],
    },
    deferred_tools_delta: {
      defaultValue: false,
      rules: [{ id: "r4", condition: { clientName: { $in: ["claude-code", "opencode"] } }, force: true }],
    },
    disabled_tools: {
      defaultValue: [],
      rules: [{ id: "r5", condition: { provider: "openai", beta: true }, force: ["WebFetch"] }],
    },
  },
};

describe("GrowthBookFlags targeting", () => {
  const make = (attributes: Record<string, string>) => {
    const dir = tempDir();
    const file = join(dir, "features.json");
    writeFileSync(file, JSON.stringify(targeted));
    return new GrowthBookFlags({ features: ["PREFETCH"], file, stateDir: dir, attributes });
  };

  test("global attributes (tier, version) pick a rule", async () => {
    await using lite = make({ tier: "lite", version: "0.1.0", id: "host" });
    await using oldPro = make({ tier: "pro", version: "0.1.9", id: "host" });
    await using newPro = make({ tier: "pro", version: "0.10.0", id: "host" });
    expect([lite, oldPro, newPro].map((flags) => flags.get("tool_search_auto_percent"))).toEqual([5, 15, 40]);
  });

  test("session attributes (model, client name, provider, extras) pick a rule per session", async () => {
    await using flags = make({ tier: "standard", version: "0.1.0", id: "host" });
    const mini = { model: "gpt-4o-mini-2024", provider: "openai", clientName: "opencode", beta: true };
    const opus = { model: "claude-opus-4", provider: "anthropic", clientName: "harness" };
    expect(flags.values(mini)).toEqual({
      ...defaultFlagValues(),
      tool_search_unsupported_models: ["haiku", "gpt-4o-mini"],
      tool_search_auto_percent: 15,
      deferred_tools_delta: true,
      disabled_tools: ["WebFetch"],
    });
    expect(flags.values(opus)).toEqual({ ...defaultFlagValues(), tool_search_auto_percent: 15 });
    const report = flags.describe(mini);
    expect(report.attributes).toEqual({ tier: "standard", version: "0.1.0", id: "host", ...mini });
    expect(report.flags.find((flag) => flag.key === "disabled_tools")?.source).toBe("file");
  });

  test("a session attribute overrides a global one of the same name", async () => {
    await using flags = make({ tier: "pro", version: "0.1.0", id: "host" });
    expect(flags.get("tool_search_auto_percent", { tier: "lite" })).toBe(5);
  });

  test("a rule that forces a wrong type falls back only for the attributes it matches", async () => {
    const dir = tempDir();
    const file = join(dir, "features.json");
    writeFileSync(file, JSON.stringify({ features: { prefetch_max_results: { defaultValue: 6, rules: [{ condition: { model: "odd" }, force: "seven" }] } } }));
    const logger = recordingLogger();
    await using flags = new GrowthBookFlags({ features: ["PREFETCH"], file, stateDir: dir, logger });
    expect([flags.get("prefetch_max_results", { model: "odd" }), flags.get("prefetch_max_results", { model: "even" })]).toEqual([3, 6]);
    expect(logger.find("warn", "wrong type").map((entry) => entry.fields)).toEqual([
      { flag: "prefetch_max_results", source: "file", reason: "expected a finite number, got string" },
    ]);
  });

  test("features the daemon does not know are left alone", async () => {
    const dir = tempDir();
    const file = join(dir, "features.json");
    writeFileSync(file, JSON.stringify(payloadOf({ some_other_app_flag: true, disabled_tools: ["Glob"] })));
    await using flags = new GrowthBookFlags({ features: [], file, stateDir: dir });
    expect(flags.values()).toEqual({ ...defaultFlagValues(), disabled_tools: ["Glob"] });
    expect(flags.describe().payloads.map((payload) => payload.features)).toEqual([2]);
  });
});

describe("GrowthBookFlags and payloads the SDK cannot evaluate", () => {
  test("a rule that makes the SDK throw costs that flag in that layer, not every flag read", async () => {
    const dir = tempDir();
    const file = join(dir, "features.json");
    // Structurally a payload (loose rules), but `$or: null`, a non-array `filters` and a null `tracks`
    // entry make GrowthBook's evaluation throw.
    writeFileSync(
      file,
      JSON.stringify({
        features: {
          prefetch_max_results: { defaultValue: 6, rules: [{ condition: { $or: null }, force: 7 }] },
          search_default_max_results: { defaultValue: 9, rules: [{ variations: [1, 2], filters: 5, hashAttribute: "id", key: "k" }] },
          tool_search_auto_percent: { defaultValue: 20, rules: [{ force: 30, tracks: [null] }] },
          deferred_tools_delta: { defaultValue: true },
        },
      }),
    );
    const logger = recordingLogger();
    await using flags = new GrowthBookFlags({ features: ["PREFETCH"], file, stateDir: dir, logger, attributes: { id: "host" } });
    expect(flags.values({ model: "m" })).toEqual({ ...defaultFlagValues(), deferred_tools_delta: true });
    expect(flags.get("prefetch_max_results", { model: "other" })).toBe(3);
    expect(flags.describe().flags.find((flag) => flag.key === "prefetch_max_results")?.source).toBe("default");
    expect(logger.find("warn", "could not be evaluated").map((entry) => entry.fields.flag)).toEqual([
      "tool_search_auto_percent",
      "prefetch_max_results",
      "search_default_max_results",
    ]);
  });
});
