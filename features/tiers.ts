/** Every compile-time flag, with what it gates. Mirrors the `Registry` union in features.d.ts. */
export const FEATURES = {
  PROACTIVE: "the Sleep tool",
  PREFETCH: "between-turn prefetch of likely deferred tools",
  AGENT_TRIGGERS: "the CronCreate, CronList and CronDelete tools",
  AGENT_TRIGGERS_REMOTE: "the RemoteTrigger tool",
} as const;

export type FeatureName = keyof typeof FEATURES;

/** The built-in tools each flag gates: a tier built without the flag contains none of their code. */
export const GATED_TOOLS: Record<FeatureName, readonly string[]> = {
  PROACTIVE: ["Sleep"],
  PREFETCH: [],
  AGENT_TRIGGERS: ["CronCreate", "CronList", "CronDelete"],
  AGENT_TRIGGERS_REMOTE: ["RemoteTrigger"],
};

/** Product tiers: each is one binary, built with exactly these flags. */
export const TIERS = {
  lite: [],
  standard: ["PROACTIVE", "PREFETCH"],
  pro: ["PROACTIVE", "PREFETCH", "AGENT_TRIGGERS", "AGENT_TRIGGERS_REMOTE"],
} as const satisfies Record<string, readonly FeatureName[]>;

export type TierName = keyof typeof TIERS;

export function isTierName(name: string): name is TierName {
  return Object.hasOwn(TIERS, name);
}
