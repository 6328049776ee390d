import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { silentLogger } from "../../src/runtime/logger.ts";
import { MIN_POLL_INTERVAL_MS, createRuntimeFlags, flagsConfigChanged } from "../../src/flags/create-flags.ts";
import { payloadOf, recordingLogger, refusedApiHost, tempDir } from "./helpers.ts";

const base = { features: ["PREFETCH"], attributes: { tier: "standard" }, logger: silentLogger };

describe("createRuntimeFlags", () => {
  test("no flags section, or an empty one → static embedded defaults", async () => {
    for (const config of [undefined, {}]) {
      await using flags = createRuntimeFlags(config, base);
      expect(flags.describe().implementation).toBe("static");
    }
  });

  test("a relative features file is taken from the config's directory", async () => {
    const configDir = tempDir();
    writeFileSync(join(configDir, "features.json"), JSON.stringify(payloadOf({ disabled_tools: ["Bash"] })));
    await using flags = createRuntimeFlags({ file: "features.json" }, { ...base, configDir, stateDir: configDir });
    const report = flags.describe();
    expect([report.implementation, report.payloads[0]?.location, flags.get("disabled_tools")]).toEqual([
      "growthbook",
      join(configDir, "features.json"),
      ["Bash"],
    ]);
  });

  test("a poll interval below the minimum is raised, with a warning", async () => {
    const logger = recordingLogger();
    const apiHost = await refusedApiHost();
    await using flags = createRuntimeFlags(
      { apiHost, clientKey: "sdk-x", pollIntervalMs: 5 },
      { ...base, logger, stateDir: tempDir() },
    );
    await flags.settled();
    expect(logger.find("warn", "raised to the minimum").map((entry) => entry.fields)).toEqual([{ configured: 5, used: MIN_POLL_INTERVAL_MS }]);
  });

  test("flagsConfigChanged compares by value", () => {
    expect(flagsConfigChanged(undefined, {})).toBe(false);
    expect(flagsConfigChanged({ file: "a.json" }, { file: "a.json" })).toBe(false);
    expect(flagsConfigChanged({ file: "a.json" }, { file: "b.json" })).toBe(true);
    expect(flagsConfigChanged(undefined, { apiHost: "http://127.0.0.1:1", clientKey: "k" })).toBe(true);
  });
});
