/**
 * What this binary is: tier, version and compiled features. build.ts defines the three globals;
 * when running from source (tests, `bun run src/main.ts`) they fall back to the flags the runtime
 * was started with, read through `feature()` so the answer matches the code that actually runs.
 */
import { feature } from "bun:bundle";
import packageJson from "../package.json" with { type: "json" };

declare const TOOLPOOL_TIER: string | undefined;
declare const TOOLPOOL_VERSION: string | undefined;
declare const TOOLPOOL_FEATURES: readonly string[] | undefined;

export interface BuildInfo {
  tier: string;
  version: string;
  features: readonly string[];
  compiled: boolean;
}

export function buildInfo(): BuildInfo {
  if (typeof TOOLPOOL_TIER === "string") {
    return {
      tier: TOOLPOOL_TIER,
      version: TOOLPOOL_VERSION ?? packageJson.version,
      features: TOOLPOOL_FEATURES ?? [],
      compiled: true,
    };
  }
  const features: string[] = [];
  if (feature("PROACTIVE")) features.push("PROACTIVE");
  if (feature("PREFETCH")) features.push("PREFETCH");
  if (feature("AGENT_TRIGGERS")) features.push("AGENT_TRIGGERS");
  if (feature("AGENT_TRIGGERS_REMOTE")) features.push("AGENT_TRIGGERS_REMOTE");
  return { tier: "source", version: packageJson.version, features, compiled: false };
}
