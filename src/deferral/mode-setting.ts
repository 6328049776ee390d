/**
 * The tool-search mode as ENABLE_TOOL_SEARCH spells it (seed 003):
 *
 *   unset, `true`, `auto:0`   → tst       (always defer)
 *   `auto`, `auto:1`…`auto:99` → tst-auto  (defer once deferred tools pass N% of the context window)
 *   `false`, `auto:100`        → standard  (nothing deferred)
 *
 * The value may come from the session, the config file or the environment; the most specific wins.
 * `DISABLE_EXPERIMENTAL_BETAS` is a kill switch over all of them (see decide-mode.ts).
 */

export type ToolSearchMode = "tst" | "tst-auto" | "standard";

/** tst-auto's threshold when `auto` names no percentage (seed 000: 10%). */
export const DEFAULT_AUTO_PERCENT = 10;

export interface ModeSetting {
  mode: ToolSearchMode;
  /** For tst-auto: the share of the context window the deferred tools may fill before deferring. */
  autoPercent: number;
  /** The value as given, or undefined when nothing set it. */
  raw: string | undefined;
  /**
   * Set when the value could not be read; the mode then falls back to the default (tst) and the
   * caller should say so (a typo must not silently turn deferral off).
   */
  invalid?: string;
}

const TRUE_WORDS: ReadonlySet<string> = new Set(["true", "1", "yes", "on"]);
const FALSE_WORDS: ReadonlySet<string> = new Set(["false", "0", "no", "off"]);

/** Reads one ENABLE_TOOL_SEARCH-style value. `autoPercent` fills in for a bare `auto`. */
export function parseModeSetting(raw: string | undefined, autoPercent = DEFAULT_AUTO_PERCENT): ModeSetting {
  const value = raw?.trim().toLowerCase() ?? "";
  if (value === "" || TRUE_WORDS.has(value)) return { mode: "tst", autoPercent, raw };
  if (FALSE_WORDS.has(value)) return { mode: "standard", autoPercent, raw };
  if (value === "auto") return { mode: "tst-auto", autoPercent, raw };
  const match = /^auto:(\d{1,3})$/.exec(value);
  const percent = match ? Number(match[1]) : Number.NaN;
  if (!Number.isInteger(percent) || percent > 100) {
    return {
      mode: "tst",
      autoPercent,
      raw,
      invalid: `tool search setting ${JSON.stringify(raw)} is not one of true, false, auto, auto:0…auto:100; using true`,
    };
  }
  if (percent === 0) return { mode: "tst", autoPercent: 0, raw };
  if (percent === 100) return { mode: "standard", autoPercent: 100, raw };
  return { mode: "tst-auto", autoPercent: percent, raw };
}

export interface ModeSources {
  /** The session's own choice (e.g. `toolpool/session` params). */
  session?: string | undefined;
  /** The daemon's environment; ENABLE_TOOL_SEARCH is read from it. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The config file's value. */
  config?: string | undefined;
}

export type ModeSource = "session" | "env" | "config" | "default";

/**
 * Picks the value that decides: the session's, then the config file's, then ENABLE_TOOL_SEARCH
 * from the environment, then the default — the same order session settings resolve in
 * (src/session/settings.ts), so the two never disagree.
 */
export function pickModeValue(sources: ModeSources): { value: string | undefined; source: ModeSource } {
  if (nonEmpty(sources.session)) return { value: sources.session, source: "session" };
  if (nonEmpty(sources.config)) return { value: sources.config, source: "config" };
  const fromEnv = sources.env?.ENABLE_TOOL_SEARCH;
  if (nonEmpty(fromEnv)) return { value: fromEnv, source: "env" };
  return { value: undefined, source: "default" };
}

/** Whether DISABLE_EXPERIMENTAL_BETAS is set to a true-ish value in this environment. */
export function experimentalBetasDisabled(env: Readonly<Record<string, string | undefined>>): boolean {
  return isTruthy(env.DISABLE_EXPERIMENTAL_BETAS) || isTruthy(env.CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS);
}

export function isTruthy(value: string | undefined): boolean {
  return value !== undefined && TRUE_WORDS.has(value.trim().toLowerCase());
}

function nonEmpty(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== "";
}
