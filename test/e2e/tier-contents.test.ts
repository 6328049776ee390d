/**
 * What each built binary contains: for every gated tool (and prefetch) a string that only its code
 * holds must be in the tiers whose flags include it and absent from the others; the ungated
 * deferred built-ins must be in every tier. Markers come from code, not from .txt descriptions
 * (the bundler may store non-ASCII text as UTF-16), and each is checked to still exist in its
 * source file, so a reworded message cannot make an absence check pass by accident.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TIERS, type FeatureName, type TierName } from "../../features/tiers.ts";
import { binaryPath, REPO_ROOT } from "../helpers/binary.ts";

interface Marker {
  what: string;
  /** The flag that gates it; undefined for code every tier has. */
  flag: FeatureName | undefined;
  source: string;
  text: string;
  /**
   * Code the daemon pulls in when it wires the feature (not the tool list): checked for absence
   * outside its flag's tiers only, until the daemon requires it inside its feature() branch.
   */
  absenceOnly?: true;
}

const MARKERS: readonly Marker[] = [
  { what: "Sleep", flag: "PROACTIVE", source: "src/builtin/sleep.ts", text: "Woke early after" },
  { what: "prefetch handlers", flag: "PREFETCH", source: "src/daemon/handlers/prefetch.ts", text: "turnStarted ignored" },
  { what: "prefetcher", flag: "PREFETCH", source: "src/prefetch/prefetcher.ts", text: "nothing_new" },
  { what: "CronCreate", flag: "AGENT_TRIGGERS", source: "src/builtin/cron-tools.ts", text: "client is notified with the prompt (or, if none is connected" },
  { what: "CronList", flag: "AGENT_TRIGGERS", source: "src/builtin/cron-tools.ts", text: "No cron jobs in this session. Create one with CronCreate." },
  { what: "CronDelete", flag: "AGENT_TRIGGERS", source: "src/builtin/cron-tools.ts", text: "this session will no longer receive its firings" },
  { what: "cron scheduler", flag: "AGENT_TRIGGERS", source: "src/cron/cron-scheduler.ts", text: "cron jobs, the limit. Delete one with CronDelete first." },
  { what: "cron store", flag: "AGENT_TRIGGERS", source: "src/cron/cron-store.ts", text: "has cron schema version" },
  { what: "cron expressions", flag: "AGENT_TRIGGERS", source: "src/cron/cron-expression.ts", text: "is not a valid 5-field cron expression" },
  { what: "RemoteTrigger", flag: "AGENT_TRIGGERS_REMOTE", source: "src/builtin/remote-trigger.ts", text: "is not a configured remote trigger" },
  { what: "WebFetch", flag: undefined, source: "src/builtin/web-fetch-guard.ts", text: "WebFetch only reaches public internet addresses" },
  { what: "NotebookEdit", flag: undefined, source: "src/builtin/notebook-document.ts", text: "NotebookEdit edits nbformat 4 notebooks only" },
  { what: "TodoWrite", flag: undefined, source: "src/builtin/todo-write.ts", text: "The task list is now empty." },
];

const tiers = Object.keys(TIERS) as TierName[];
const binaries = new Map<TierName, Buffer>();
const binary = (tier: TierName): Buffer => {
  let bytes = binaries.get(tier);
  if (!bytes) {
    bytes = readFileSync(binaryPath(tier));
    binaries.set(tier, bytes);
  }
  return bytes;
};

describe("tier contents of the built binaries", () => {
  test("every marker is ASCII and still in its source file", () => {
    const problems = MARKERS.flatMap(({ what, source, text }) => {
      const found = readFileSync(join(REPO_ROOT, source), "utf8").includes(text);
      const ascii = /^[\x20-\x7e]+$/.test(text);
      return found && ascii ? [] : [{ what, source, found, ascii }];
    });
    expect(problems).toEqual([]);
  });

  for (const tier of tiers) {
    test(`${tier} holds exactly the gated code of its flags (${TIERS[tier].join(", ") || "none"})`, () => {
      const flags = TIERS[tier] as readonly FeatureName[];
      const checked = MARKERS.filter(({ flag, absenceOnly }) => !absenceOnly || (flag !== undefined && !flags.includes(flag)));
      const actual = checked.map(({ what, text }) => ({ what, present: binary(tier).includes(Buffer.from(text)) }));
      const expected = checked.map(({ what, flag }) => ({ what, present: flag === undefined || flags.includes(flag) }));
      expect(actual).toEqual(expected);
    });
  }

  test("the tiers are the ones the product promises: lite has no gated code, standard adds Sleep and prefetch, pro has all", () => {
    expect(TIERS).toEqual({
      lite: [],
      standard: ["PROACTIVE", "PREFETCH"],
      pro: ["PROACTIVE", "PREFETCH", "AGENT_TRIGGERS", "AGENT_TRIGGERS_REMOTE"],
    });
  });
});
