/**
 * The one place that picks a flags implementation from the config's `flags` section: GrowthBook when
 * a features file or an API host is configured, else the static embedded defaults (no SDK, no timers).
 */
import { isAbsolute, resolve } from "node:path";
import type { Config } from "../config/schema.ts";
import type { Logger } from "../runtime/logger.ts";
import type { GrowthBookFlagsOptions } from "./growthbook-flags.ts";
import type { FlagAttributes, RuntimeFlags } from "./runtime-flags.ts";
import { StaticFlags } from "./static-flags.ts";

export type FlagsConfig = NonNullable<Config["flags"]>;

/** A configured poll faster than this is raised to it: a typo must not turn into a request loop on the API host. */
export const MIN_POLL_INTERVAL_MS = 1_000;

export interface CreateFlagsOptions {
  /** `buildInfo().features`. */
  features: readonly string[];
  /** `globalFlagAttributes(buildInfo())`. */
  attributes: FlagAttributes;
  logger: Logger;
  /** A relative `flags.file` is taken from here: the config file's directory (else the daemon's cwd). */
  configDir?: string;
  stateDir?: string;
  /** Test seams, passed through to GrowthBookFlags. */
  overrides?: Pick<GrowthBookFlagsOptions, "fetch" | "now" | "watchFile" | "requestTimeoutMs">;
}

export function createRuntimeFlags(config: FlagsConfig | undefined, options: CreateFlagsOptions): RuntimeFlags {
  const file = config?.file ? resolveFile(config.file, options.configDir) : undefined;
  if (!file && !config?.apiHost && !config?.clientKey) {
    return new StaticFlags({ features: options.features, attributes: options.attributes, logger: options.logger });
  }
  // The GrowthBook SDK is loaded only when a file or an API host is configured.
  const { GrowthBookFlags } = require("./growthbook-flags.ts") as typeof import("./growthbook-flags.ts");
  return new GrowthBookFlags({
    ...options.overrides,
    features: options.features,
    attributes: options.attributes,
    logger: options.logger,
    file,
    apiHost: config?.apiHost,
    clientKey: config?.clientKey,
    pollIntervalMs: pollInterval(config?.pollIntervalMs, options.logger),
    stateDir: options.stateDir,
  });
}

/** Whether a reloaded config needs the flags rebuilt (close the old instance, create a new one). */
export function flagsConfigChanged(before: FlagsConfig | undefined, after: FlagsConfig | undefined): boolean {
  return !Bun.deepEquals(before ?? {}, after ?? {});
}

function pollInterval(configured: number | undefined, logger: Logger): number | undefined {
  if (configured === undefined || configured >= MIN_POLL_INTERVAL_MS) return configured;
  logger.warn("flags.pollIntervalMs raised to the minimum", { configured, used: MIN_POLL_INTERVAL_MS });
  return MIN_POLL_INTERVAL_MS;
}

function resolveFile(file: string, configDir: string | undefined): string {
  return isAbsolute(file) ? file : resolve(configDir ?? process.cwd(), file);
}
