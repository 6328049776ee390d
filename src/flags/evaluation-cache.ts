/**
 * Per-request flag reads must cost next to nothing (target ≤ 5 µs), while a GrowthBook evaluation
 * walks the rules of every layer (about 1 µs per flag per layer). So evaluations are cached per
 * attributes object and payload version: a read is a WeakMap lookup, a version compare and a
 * property read. Flags are evaluated lazily, one at a time, so a miss (the first read of a session
 * after a payload change, or a caller that builds a new attributes object per read) costs one flag's
 * evaluation, not all of them. Keep one attributes object per session to stay on the fast path.
 */
import { FLAG_KEYS, type FlagKey, type FlagValues } from "./flag-definitions.ts";
import type { FlagAttributes, FlagSource } from "./runtime-flags.ts";

export interface Evaluation {
  readonly values: Readonly<FlagValues>;
  readonly sources: Readonly<Record<FlagKey, FlagSource>>;
}

export interface EvaluatedFlag {
  value: FlagValues[FlagKey];
  source: FlagSource;
}

/** How one implementation evaluates: `prepare` runs once per attributes object and version, `evaluate` once per flag. */
export interface Evaluator<Context> {
  prepare(attributes: FlagAttributes | undefined): Context;
  evaluate(key: FlagKey, context: Context): EvaluatedFlag;
}

interface Entry<Context> {
  version: number;
  context: Context;
  values: Partial<Record<FlagKey, FlagValues[FlagKey]>>;
  sources: Partial<Record<FlagKey, FlagSource>>;
  complete: Evaluation | null;
}

/** Stands for "no attributes given" in the WeakMap, which takes only objects. */
const NO_ATTRIBUTES: FlagAttributes = Object.freeze({});

export class EvaluationCache<Context> {
  #version = 0;
  readonly #entries = new WeakMap<FlagAttributes, Entry<Context>>();
  readonly #evaluator: Evaluator<Context>;

  constructor(evaluator: Evaluator<Context>) {
    this.#evaluator = evaluator;
  }

  get<K extends FlagKey>(key: K, attributes: FlagAttributes | undefined): FlagValues[K] {
    const entry = this.#entry(attributes);
    if (entry.sources[key] !== undefined) return entry.values[key] as FlagValues[K];
    return this.#fill(entry, key).value as FlagValues[K];
  }

  /** Every flag, frozen; the same object until the version moves. */
  all(attributes: FlagAttributes | undefined): Evaluation {
    const entry = this.#entry(attributes);
    if (entry.complete !== null) return entry.complete;
    for (const key of FLAG_KEYS) if (entry.sources[key] === undefined) this.#fill(entry, key);
    entry.complete = {
      values: Object.freeze({ ...entry.values }) as Readonly<FlagValues>,
      sources: Object.freeze({ ...entry.sources }) as Readonly<Record<FlagKey, FlagSource>>,
    };
    return entry.complete;
  }

  /** Every cached evaluation is stale from now on (a payload changed). */
  invalidate(): void {
    this.#version++;
  }

  #entry(attributes: FlagAttributes = NO_ATTRIBUTES): Entry<Context> {
    const cached = this.#entries.get(attributes);
    if (cached !== undefined && cached.version === this.#version) return cached;
    const entry: Entry<Context> = {
      version: this.#version,
      context: this.#evaluator.prepare(attributes === NO_ATTRIBUTES ? undefined : attributes),
      values: {},
      sources: {},
      complete: null,
    };
    this.#entries.set(attributes, entry);
    return entry;
  }

  #fill(entry: Entry<Context>, key: FlagKey): EvaluatedFlag {
    const evaluated = this.#evaluator.evaluate(key, entry.context);
    entry.values[key] = evaluated.value;
    entry.sources[key] = evaluated.source;
    return evaluated;
  }
}
