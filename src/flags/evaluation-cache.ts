/**
 * Per-request flag reads must cost next to nothing (target ≤ 5 µs), while a GrowthBook evaluation
 * walks every rule of every layer. So a whole evaluation is cached per attributes object and payload
 * version: a read is a WeakMap lookup and a version compare. A session that builds a new attributes
 * object for every read defeats the cache (each read then evaluates in full), so keep one per session.
 */
import type { FlagKey, FlagValues } from "./flag-definitions.ts";
import type { FlagAttributes, FlagSource } from "./runtime-flags.ts";

export interface Evaluation {
  readonly values: Readonly<FlagValues>;
  readonly sources: Readonly<Record<FlagKey, FlagSource>>;
}

interface Entry {
  version: number;
  evaluation: Evaluation;
}

/** Stands for "no attributes given" in the WeakMap, which takes only objects. */
const NO_ATTRIBUTES: FlagAttributes = Object.freeze({});

export class EvaluationCache {
  #version = 0;
  readonly #entries = new WeakMap<FlagAttributes, Entry>();
  readonly #evaluate: (attributes: FlagAttributes) => Evaluation;

  constructor(evaluate: (attributes: FlagAttributes) => Evaluation) {
    this.#evaluate = evaluate;
  }

  get(attributes: FlagAttributes = NO_ATTRIBUTES): Evaluation {
    const entry = this.#entries.get(attributes);
    if (entry !== undefined && entry.version === this.#version) return entry.evaluation;
    const evaluation = this.#evaluate(attributes);
    this.#entries.set(attributes, { version: this.#version, evaluation });
    return evaluation;
  }

  /** Every cached evaluation is stale from now on (a payload changed). */
  invalidate(): void {
    this.#version++;
  }

  get version(): number {
    return this.#version;
  }
}
