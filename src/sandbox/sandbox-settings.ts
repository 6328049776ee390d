/** The config's `sandbox` key as settings: a bare mode string or the full object, defaults filled in. */
import type { Config } from "../config/schema.ts";
import { DEFAULT_SANDBOX_SETTINGS, type SandboxSettings } from "./command-sandbox.ts";

export function sandboxSettings(config: Pick<Config, "sandbox">): SandboxSettings {
  const value = config.sandbox;
  if (value === undefined) return DEFAULT_SANDBOX_SETTINGS;
  if (typeof value === "string") return { ...DEFAULT_SANDBOX_SETTINGS, mode: value };
  return { mode: value.mode, network: value.network };
}
