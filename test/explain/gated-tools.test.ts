/** features/tiers.ts GATED_TOOLS, which explain's "compiled" decision reads, matches the tools each flag really adds. */
import { afterAll, expect, test } from "bun:test";
import { FEATURES, GATED_TOOLS, type FeatureName } from "../../features/tiers.ts";
import { buildInfo } from "../../src/build-info.ts";
import { createCronTools } from "../../src/builtin/cron-tools.ts";
import { builtinTools } from "../../src/builtin/list.ts";
import { createRemoteTriggerTool } from "../../src/builtin/remote-trigger.ts";
import { sleepTool } from "../../src/builtin/sleep.ts";
import { makeStateDir, openService } from "../cron/fixture.ts";
import { ManualClock } from "../cron/manual-clock.ts";

const stateDir = makeStateDir();
const cron = openService(stateDir.path, new ManualClock("2026-01-01T00:00:00Z"));
afterAll(() => {
  cron.close();
  stateDir[Symbol.dispose]();
});
const triggers = () => ({});

test("every gated tool name is the name its module builds, and this run's builtins add exactly the gated names of its flags", () => {
  const built: Record<FeatureName, string[]> = {
    PROACTIVE: [sleepTool.name],
    PREFETCH: [],
    AGENT_TRIGGERS: createCronTools(cron.scheduler).map((tool) => tool.name),
    AGENT_TRIGGERS_REMOTE: [createRemoteTriggerTool({ triggers }).name],
  };
  expect(Object.keys(GATED_TOOLS).sort()).toEqual(Object.keys(FEATURES).sort());
  for (const feature of Object.keys(FEATURES) as FeatureName[]) expect([...GATED_TOOLS[feature]].sort()).toEqual(built[feature].sort());
  const all = builtinTools({ cronScheduler: cron.scheduler, remoteTriggers: triggers }).map((tool) => tool.name);
  const ungated = builtinTools().filter((tool) => !Object.values(GATED_TOOLS).flat().includes(tool.name)).map((tool) => tool.name);
  const enabled = buildInfo().features as FeatureName[];
  expect(all.filter((name) => !ungated.includes(name)).sort()).toEqual(enabled.flatMap((feature) => GATED_TOOLS[feature]).sort());
});
