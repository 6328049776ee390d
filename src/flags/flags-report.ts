/** Turning an evaluation into the report `toolpool flags` and `toolpool/flags` show. */
import type { Evaluation } from "./evaluation-cache.ts";
import { FLAG_KEYS, FLAG_SPECS, isFlagCompiled } from "./flag-definitions.ts";
import type { FlagAttributes, FlagReport, FlagSource, FlagsReport, PayloadReport } from "./runtime-flags.ts";

export interface ReportInput {
  implementation: FlagsReport["implementation"];
  attributes: FlagAttributes;
  evaluation: Evaluation;
  features: ReadonlySet<string>;
  /** Age in ms of the payload behind a source; null for `default` and `static`. */
  ageOf: (source: FlagSource) => number | null;
  payloads: PayloadReport[];
}

export function buildReport(input: ReportInput): FlagsReport {
  const flags = FLAG_KEYS.map((key): FlagReport => {
    const spec = FLAG_SPECS[key];
    const source = input.evaluation.sources[key];
    return {
      key,
      type: spec.type,
      description: spec.description,
      value: input.evaluation.values[key],
      defaultValue: spec.defaultValue,
      source,
      ageMs: input.ageOf(source),
      requires: spec.requires ?? null,
      compiled: isFlagCompiled(key, input.features),
    };
  });
  return { implementation: input.implementation, attributes: input.attributes, flags, payloads: input.payloads };
}
