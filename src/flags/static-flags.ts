/**
 * Flags fixed by the caller: the embedded defaults, optionally overridden (tests, offline use, or a
 * daemon with no flag sources configured). Values go through the same type check, clamping and
 * compile-time gating as GrowthBook's, so both implementations pass one contract suite.
 */
import { type Logger, silentLogger } from "../runtime/logger.ts";
import { ChangeListeners } from "./change-listeners.ts";
import type { Evaluation } from "./evaluation-cache.ts";
import {
  FLAG_KEYS,
  FLAG_SPECS,
  type FlagKey,
  type FlagValues,
  defaultFlagValues,
  isFlagCompiled,
  isFlagKey,
  normalizeFlagValue,
} from "./flag-definitions.ts";
import { buildReport } from "./flags-report.ts";
import type { FlagAttributes, FlagSource, FlagsReport, RuntimeFlags } from "./runtime-flags.ts";

/** Overrides as a caller may give them: checked at run time, so a wrong type is possible (and falls back). */
export type FlagOverrides = { readonly [K in FlagKey]?: unknown };

export interface StaticFlagsOptions {
  /** The compiled feature list (`buildInfo().features`); flags needing an absent feature stay at default. */
  features: readonly string[];
  values?: FlagOverrides;
  /** Global attributes, only echoed by `describe()` (static values do not vary by attribute). */
  attributes?: FlagAttributes;
  logger?: Logger;
}

export class StaticFlags implements RuntimeFlags {
  readonly #features: ReadonlySet<string>;
  readonly #attributes: FlagAttributes;
  readonly #logger: Logger;
  readonly #listeners: ChangeListeners;
  #evaluation: Evaluation;

  constructor(options: StaticFlagsOptions) {
    this.#features = new Set(options.features);
    this.#attributes = options.attributes ?? {};
    this.#logger = options.logger ?? silentLogger;
    this.#listeners = new ChangeListeners(this.#logger);
    this.#evaluation = this.#evaluate(options.values ?? {});
  }

  /** Replaces every override; listeners hear of it when a value actually changed. */
  set(values: FlagOverrides): void {
    const next = this.#evaluate(values);
    const changed = FLAG_KEYS.some((key) => !Bun.deepEquals(next.values[key], this.#evaluation.values[key]));
    this.#evaluation = next;
    if (changed) this.#listeners.emit();
  }

  // Static values do not vary by attributes, so one evaluation serves every reader.
  get<K extends FlagKey>(key: K, _attributes?: FlagAttributes): FlagValues[K] {
    return this.#evaluation.values[key];
  }

  values(_attributes?: FlagAttributes): Readonly<FlagValues> {
    return this.#evaluation.values;
  }

  describe(attributes?: FlagAttributes): FlagsReport {
    const evaluation = this.#evaluation;
    return buildReport({
      implementation: "static",
      attributes: { ...this.#attributes, ...attributes },
      evaluation,
      features: this.#features,
      ageOf: () => null,
      payloads: [],
    });
  }

  onChange(listener: () => void): () => void {
    return this.#listeners.add(listener);
  }

  settled(): Promise<void> {
    return Promise.resolve();
  }

  async close(): Promise<void> {
    this.#listeners.clear();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #evaluate(overrides: FlagOverrides): Evaluation {
    const values: Record<string, unknown> = { ...defaultFlagValues() };
    const sources = Object.fromEntries(FLAG_KEYS.map((key) => [key, "default"])) as Record<FlagKey, FlagSource>;
    for (const [key, raw] of Object.entries(overrides)) {
      if (raw === undefined) continue;
      if (!isFlagKey(key)) {
        this.#logger.warn("unknown flag ignored", { flag: key });
        continue;
      }
      if (!isFlagCompiled(key, this.#features)) {
        this.#logger.info("flag ignored: this tier was compiled without its feature", { flag: key, requires: FLAG_SPECS[key].requires });
        continue;
      }
      const normalized = normalizeFlagValue(key, raw);
      if (!normalized.ok) {
        this.#logger.warn("flag value of the wrong type ignored; using the default", { flag: key, reason: normalized.reason });
        continue;
      }
      values[key] = normalized.value;
      sources[key] = "static";
    }
    return { values: Object.freeze(values) as unknown as FlagValues, sources: Object.freeze(sources) };
  }
}
