/**
 * Every runtime flag: its key, type, embedded default, bounds and the compile-time feature it needs.
 * Hard safety limits are compile-time constants here; a flag may only tune inside them (SPEC §12).
 */
import type { FeatureName } from "../../features/tiers.ts";

/** The most an MCP call may be given, whatever a flag says (a hung server must not hold a call forever). */
export const MCP_CALL_TIMEOUT_HARD_CAP_MS = 600_000;
/** Below this a call cannot even finish an MCP round trip; a smaller flag value is a mistake. */
export const MCP_CALL_TIMEOUT_FLOOR_MS = 1_000;
/** A list flag longer than this is refused: no legitimate list is that long, and each entry is scanned per request. */
export const MAX_LIST_FLAG_ENTRIES = 1_000;

export interface FlagValues {
  tool_search_unsupported_models: readonly string[];
  tool_search_auto_percent: number;
  deferred_tools_delta: boolean;
  prefetch_enabled: boolean;
  prefetch_max_results: number;
  search_default_max_results: number;
  search_compact_answers: boolean;
  disabled_tools: readonly string[];
  mcp_call_timeout_ms: number;
  usage_recording: boolean;
  usage_learning: boolean;
  usage_promoted_tools: number;
}

export type FlagKey = keyof FlagValues;
export type FlagType = "boolean" | "number" | "string[]";

export interface FlagSpec {
  readonly type: FlagType;
  readonly defaultValue: boolean | number | readonly string[];
  readonly description: string;
  readonly min?: number;
  readonly max?: number;
  /** Rounded to a whole number (counts and milliseconds). */
  readonly integer?: boolean;
  /** Ignored unless this tier was compiled with the feature. */
  readonly requires?: FeatureName;
}

export const FLAG_SPECS: { readonly [K in FlagKey]: FlagSpec & { readonly defaultValue: FlagValues[K] } } = {
  tool_search_unsupported_models: {
    type: "string[]",
    defaultValue: Object.freeze(["haiku"]),
    description: "models (case-insensitive substrings) that do not get native tool references",
  },
  tool_search_auto_percent: {
    type: "number",
    defaultValue: 10,
    min: 0,
    max: 100,
    description: "tst-auto defers when deferred tools exceed this percent of the context window",
  },
  deferred_tools_delta: {
    type: "boolean",
    defaultValue: false,
    description: "announce deferred tools as deltas (true) or as the full list on every request (false)",
  },
  prefetch_enabled: {
    type: "boolean",
    defaultValue: true,
    requires: "PREFETCH",
    description: "between-turn prefetch of likely deferred tools",
  },
  prefetch_max_results: {
    type: "number",
    defaultValue: 3,
    min: 1,
    max: 10,
    integer: true,
    requires: "PREFETCH",
    description: "how many tools one prefetch suggests",
  },
  search_default_max_results: {
    type: "number",
    defaultValue: 5,
    min: 1,
    max: 50,
    integer: true,
    description: "ToolSearch max_results when the model gives none",
  },
  search_compact_answers: {
    type: "boolean",
    defaultValue: false,
    description: "ToolSearch answers keyword searches with one-line signatures, full schemas only for select: and a clear first match",
  },
  disabled_tools: {
    type: "string[]",
    defaultValue: Object.freeze([]),
    description: "kill switch: tool names that no session may see or call",
  },
  mcp_call_timeout_ms: {
    type: "number",
    defaultValue: 60_000,
    min: MCP_CALL_TIMEOUT_FLOOR_MS,
    max: MCP_CALL_TIMEOUT_HARD_CAP_MS,
    integer: true,
    description: `MCP tool call timeout in ms (at most ${MCP_CALL_TIMEOUT_HARD_CAP_MS}, a compile-time cap)`,
  },
  usage_recording: {
    type: "boolean",
    defaultValue: true,
    description: "record searches, calls and server events in the state dir's usage history (toolpool stats)",
  },
  usage_learning: {
    type: "boolean",
    defaultValue: true,
    description: "rank ToolSearch and prefetch with the workspace's usage history (read when a session opens)",
  },
  usage_promoted_tools: {
    type: "number",
    defaultValue: 3,
    min: 0,
    max: 10,
    integer: true,
    description: "the workspace's most used deferred tools loaded as core tools in its new sessions (0: none)",
  },
};

/** In declaration order, for reports. */
export const FLAG_KEYS = Object.keys(FLAG_SPECS) as FlagKey[];

export function isFlagKey(name: string): name is FlagKey {
  return Object.hasOwn(FLAG_SPECS, name);
}

export function defaultFlagValues(): FlagValues {
  const values: Record<string, unknown> = {};
  for (const key of FLAG_KEYS) values[key] = FLAG_SPECS[key].defaultValue;
  return values as unknown as FlagValues;
}

/** Whether a flag applies to a binary compiled with these features. */
export function isFlagCompiled(key: FlagKey, features: ReadonlySet<string>): boolean {
  const requires = FLAG_SPECS[key].requires;
  return requires === undefined || features.has(requires);
}

export type NormalizedFlag<T> =
  | { readonly ok: true; readonly value: T; readonly clamped: boolean }
  | { readonly ok: false; readonly reason: string };

/**
 * Checks a value from a file, the API host or a caller against the flag's type and bounds. A wrong
 * type is refused (the caller falls back to the next source); a number out of bounds is clamped.
 */
export function normalizeFlagValue<K extends FlagKey>(key: K, raw: unknown): NormalizedFlag<FlagValues[K]> {
  const spec: FlagSpec = FLAG_SPECS[key];
  const result = normalizeBySpec(spec, raw);
  return result as NormalizedFlag<FlagValues[K]>;
}

function normalizeBySpec(spec: FlagSpec, raw: unknown): NormalizedFlag<FlagValues[FlagKey]> {
  switch (spec.type) {
    case "boolean":
      return typeof raw === "boolean" ? { ok: true, value: raw, clamped: false } : refused("a boolean", raw);
    case "number":
      return normalizeNumber(spec, raw);
    case "string[]":
      return normalizeStrings(raw);
  }
}

function normalizeNumber(spec: FlagSpec, raw: unknown): NormalizedFlag<number> {
  if (typeof raw !== "number" || !Number.isFinite(raw)) return refused("a finite number", raw);
  const whole = spec.integer ? Math.round(raw) : raw;
  const value = Math.min(spec.max ?? Number.POSITIVE_INFINITY, Math.max(spec.min ?? Number.NEGATIVE_INFINITY, whole));
  return { ok: true, value, clamped: value !== whole };
}

function normalizeStrings(raw: unknown): NormalizedFlag<readonly string[]> {
  if (!Array.isArray(raw)) return refused("an array of strings", raw);
  const index = raw.findIndex((entry) => typeof entry !== "string");
  if (index !== -1) return { ok: false, reason: `expected an array of strings, entry ${index} is ${describeType(raw[index])}` };
  if (raw.length > MAX_LIST_FLAG_ENTRIES) {
    return { ok: false, reason: `expected at most ${MAX_LIST_FLAG_ENTRIES} entries, got ${raw.length}` };
  }
  // Frozen: the same array is handed to every reader of a cached evaluation.
  return { ok: true, value: Object.freeze([...raw]), clamped: false };
}

function refused(expected: string, raw: unknown): { ok: false; reason: string } {
  return { ok: false, reason: `expected ${expected}, got ${describeType(raw)}` };
}

function describeType(raw: unknown): string {
  if (raw === null) return "null";
  if (Array.isArray(raw)) return "an array";
  if (typeof raw === "number" && !Number.isFinite(raw)) return String(raw);
  return typeof raw;
}
