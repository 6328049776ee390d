/**
 * The per-request decision: is anything deferred this time, and why. Tried in order — the kill
 * switch, the configured mode, tst-auto's measurement, and finally whether there is anything to
 * defer at all (no deferred tool and no MCP server still connecting makes ToolSearch pointless).
 */
import { checkAutoThreshold, type AutoThresholdCheck, type ToolTokenCounter } from "./auto-threshold.ts";
import type { ModeSetting, ToolSearchMode } from "./mode-setting.ts";

export type ModeReason =
  | "kill_switch"
  | "standard_mode"
  | "tst_enabled"
  | "auto_above_threshold"
  | "auto_below_threshold"
  | "no_deferred_tools";

export interface ModeDecision {
  /** The configured mode (standard when the kill switch is on). */
  mode: ToolSearchMode;
  /** Whether this request defers anything. */
  deferring: boolean;
  reason: ModeReason;
  /** tst-auto only: the measurement behind the decision. */
  auto?: AutoThresholdCheck;
}

export interface ModeInput {
  setting: ModeSetting;
  /** DISABLE_EXPERIMENTAL_BETAS: forces standard. */
  killSwitch: boolean;
  /** How many pool tools `isDeferredTool` defers. */
  deferredCount: number;
  /** Their definitions as one serialized JSON array, for tst-auto; produced lazily, only when needed. */
  serializeDeferred: () => string;
  contextWindow: number;
  counter?: ToolTokenCounter;
  /** MCP servers still connecting: their tools will be deferred, so ToolSearch must stay. */
  pendingServers: number;
}

export function decideMode(input: ModeInput): ModeDecision {
  if (input.killSwitch) return { mode: "standard", deferring: false, reason: "kill_switch" };
  const { mode } = input.setting;
  if (mode === "standard") return { mode, deferring: false, reason: "standard_mode" };
  const nothingToDefer = input.deferredCount === 0 && input.pendingServers === 0;
  if (mode === "tst") {
    return nothingToDefer
      ? { mode, deferring: false, reason: "no_deferred_tools" }
      : { mode, deferring: true, reason: "tst_enabled" };
  }
  const auto = checkAutoThreshold({
    serializedDeferredTools: input.deferredCount === 0 ? "[]" : input.serializeDeferred(),
    contextWindow: input.contextWindow,
    percent: input.setting.autoPercent,
    ...(input.counter && { counter: input.counter }),
  });
  if (!auto.above) return { mode, deferring: false, reason: "auto_below_threshold", auto };
  return { mode, deferring: true, reason: "auto_above_threshold", auto };
}
