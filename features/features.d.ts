// The compile-time flags every `feature()` call may name. A misspelt flag is a type error.
// Keep this union, FEATURES in tiers.ts and the table in README.md in step.
declare module "bun:bundle" {
  interface Registry {
    features: "PROACTIVE" | "PREFETCH" | "AGENT_TRIGGERS" | "AGENT_TRIGGERS_REMOTE";
  }
}
export {};
