/** The config's `sandbox` key as settings: defaults filled in (a bare mode string is read as `{ mode }`). */
import type { Config } from "../config/schema.ts";
import { DEFAULT_SANDBOX_SETTINGS, type SandboxSettings } from "./command-sandbox.ts";

export function sandboxSettings(config: Pick<Config, "sandbox">): SandboxSettings {
  const value = config.sandbox;
  if (value === undefined) return DEFAULT_SANDBOX_SETTINGS;
  return { mode: value.mode, network: value.network };
}
