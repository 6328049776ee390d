/**
 * The one contract every RuntimeFlags implementation passes (STYLE habit 6). Each implementation
 * supplies a factory that builds an instance and a way to apply values through its own source:
 * `set()` for static, a features file for GrowthBook.
 */
import { describe, expect, test } from "bun:test";
import {
  FLAG_KEYS,
  FLAG_SPECS,
  MCP_CALL_TIMEOUT_FLOOR_MS,
  MCP_CALL_TIMEOUT_HARD_CAP_MS,
  defaultFlagValues,
} from "../../src/flags/flag-definitions.ts";
import type { FlagReport, FlagSource, RuntimeFlags } from "../../src/flags/runtime-flags.ts";
import type { FlagOverrides } from "../../src/flags/static-flags.ts";
import { type RecordingLogger, nextChange, recordingLogger } from "./helpers.ts";

export interface ContractSubject extends AsyncDisposable {
  flags: RuntimeFlags;
  /** Puts these values in force through the implementation's own source; resolves once they are. */
  apply(values: FlagOverrides): Promise<void>;
}

export interface ContractSetup {
  features: readonly string[];
  values: FlagOverrides;
  logger: RecordingLogger;
}

export interface ContractImplementation {
  name: string;
  /** The source applied values report. */
  source: FlagSource;
  create(setup: ContractSetup): Promise<ContractSubject>;
}

const ALL_FEATURES = ["PROACTIVE", "PREFETCH", "AGENT_TRIGGERS", "AGENT_TRIGGERS_REMOTE"];

function defaultReport(features: ReadonlySet<string>): Omit<FlagReport, "description">[] {
  return FLAG_KEYS.map((key) => ({
    key,
    type: FLAG_SPECS[key].type,
    value: FLAG_SPECS[key].defaultValue,
    defaultValue: FLAG_SPECS[key].defaultValue,
    source: "default",
    ageMs: null,
    requires: FLAG_SPECS[key].requires ?? null,
    compiled: FLAG_SPECS[key].requires === undefined || features.has(FLAG_SPECS[key].requires),
  }));
}

function withoutDescriptions(flags: readonly FlagReport[]): Omit<FlagReport, "description">[] {
  return flags.map(({ description: _description, ...rest }) => rest);
}

export function runFlagsContract(implementation: ContractImplementation): void {
  const make = (values: FlagOverrides = {}, features: readonly string[] = ALL_FEATURES) => {
    const logger = recordingLogger();
    return implementation.create({ features, values, logger }).then((subject) => ({ subject, logger }));
  };

  describe(`RuntimeFlags contract: ${implementation.name}`, () => {
    test("with nothing set, every flag is its embedded default, reported as `default`", async () => {
      const { subject } = await make();
      await using _ = subject;
      expect(subject.flags.values()).toEqual(defaultFlagValues());
      for (const key of FLAG_KEYS) expect(subject.flags.get(key)).toEqual(FLAG_SPECS[key].defaultValue);
      expect(withoutDescriptions(subject.flags.describe().flags)).toEqual(defaultReport(new Set(ALL_FEATURES)));
    });

    test("values set through the source are served, with that source named", async () => {
      const values = {
        tool_search_unsupported_models: ["haiku", "mini"],
        tool_search_auto_percent: 25,
        deferred_tools_delta: true,
        prefetch_enabled: false,
        prefetch_max_results: 5,
        search_default_max_results: 8,
        search_compact_answers: true,
        disabled_tools: ["Bash"],
        mcp_call_timeout_ms: 30_000,
        usage_recording: false,
        usage_learning: false,
        usage_promoted_tools: 0,
      };
      const { subject } = await make(values);
      await using _ = subject;
      expect(subject.flags.values()).toEqual(values);
      const report = subject.flags.describe();
      expect(report.flags.map((flag) => [flag.key, flag.source])).toEqual(FLAG_KEYS.map((key) => [key, implementation.source]));
    });

    test("a value of the wrong type falls back to the default and is logged once", async () => {
      const { subject, logger } = await make({ disabled_tools: "Bash", deferred_tools_delta: "yes", search_default_max_results: 7 });
      await using _ = subject;
      for (const attributes of [undefined, { model: "a" }, { model: "b" }]) {
        expect(subject.flags.get("disabled_tools", attributes)).toEqual([]);
        expect(subject.flags.get("deferred_tools_delta", attributes)).toBe(false);
        expect(subject.flags.get("search_default_max_results", attributes)).toBe(7);
      }
      const sources = Object.fromEntries(subject.flags.describe().flags.map((flag) => [flag.key, flag.source]));
      expect([sources.disabled_tools, sources.deferred_tools_delta, sources.search_default_max_results]).toEqual(["default", "default", implementation.source]);
      const warned = logger.find("warn", "wrong type").map((entry) => entry.fields.flag);
      expect(warned.sort()).toEqual(["deferred_tools_delta", "disabled_tools"]);
    });

    test.each([
      ["mcp_call_timeout_ms", 10_000_000, MCP_CALL_TIMEOUT_HARD_CAP_MS],
      ["mcp_call_timeout_ms", 5, MCP_CALL_TIMEOUT_FLOOR_MS],
      ["mcp_call_timeout_ms", 1_234.6, 1_235],
      ["tool_search_auto_percent", 150, 100],
      ["tool_search_auto_percent", -5, 0],
      ["tool_search_auto_percent", 12.5, 12.5],
      ["prefetch_max_results", 0, 1],
      ["prefetch_max_results", 11, 10],
      ["search_default_max_results", 51, 50],
      ["search_default_max_results", 0, 1],
    ] as const)("%s = %p is clamped to %p", async (key, raw, expected) => {
      const { subject } = await make({ [key]: raw });
      await using _ = subject;
      expect(subject.flags.get(key)).toBe(expected);
    });

    test("a flag for a feature this tier was compiled without is ignored", async () => {
      const { subject, logger } = await make({ prefetch_enabled: false, prefetch_max_results: 7, disabled_tools: ["Bash"] }, []);
      await using _ = subject;
      expect(subject.flags.get("prefetch_enabled")).toBe(true);
      expect(subject.flags.get("prefetch_max_results")).toBe(3);
      expect(subject.flags.get("disabled_tools")).toEqual(["Bash"]);
      const prefetch = subject.flags.describe().flags.filter((flag) => flag.requires === "PREFETCH");
      expect(prefetch.map(({ key, source, compiled }) => ({ key, source, compiled }))).toEqual([
        { key: "prefetch_enabled", source: "default", compiled: false },
        { key: "prefetch_max_results", source: "default", compiled: false },
      ]);
      expect(logger.find("info", "compiled without").map((entry) => entry.fields.flag).sort()).toEqual(["prefetch_enabled", "prefetch_max_results"]);
    });

    test("onChange fires when values change, and not after unsubscribing", async () => {
      const { subject } = await make();
      await using _ = subject;
      let calls = 0;
      const unsubscribe = subject.flags.onChange(() => calls++);
      const changed = nextChange(subject.flags);
      await subject.apply({ disabled_tools: ["Write"] });
      await changed;
      expect(subject.flags.get("disabled_tools")).toEqual(["Write"]);
      expect(calls).toBe(1);
      unsubscribe();
      const again = nextChange(subject.flags);
      await subject.apply({ disabled_tools: ["Edit"] });
      await again;
      expect(subject.flags.get("disabled_tools")).toEqual(["Edit"]);
      expect(calls).toBe(1);
    });

    test("reads are cached per attributes object and frozen", async () => {
      const { subject } = await make({ disabled_tools: ["Bash"] });
      await using _ = subject;
      const session = Object.freeze({ model: "claude-opus" });
      const first = subject.flags.values(session);
      expect(subject.flags.values(session)).toBe(first);
      expect(Object.isFrozen(first)).toBe(true);
      expect(Object.isFrozen(first.disabled_tools)).toBe(true);
      expect(subject.flags.get("disabled_tools", session)).toBe(first.disabled_tools);
      await subject.apply({ disabled_tools: ["Read"] });
      expect(subject.flags.values(session)).not.toBe(first);
      expect(subject.flags.get("disabled_tools", session)).toEqual(["Read"]);
    });

    test("settled() resolves and close() is idempotent", async () => {
      const { subject } = await make();
      await subject.flags.settled();
      await subject.flags.close();
      await subject.flags.close();
      await subject[Symbol.asyncDispose]();
    });
  });
}
