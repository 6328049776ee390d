/**
 * Evaluating every flag through the layers with the GrowthBook SDK, highest layer first. Per flag:
 * a layer that does not define the flag, or whose rules yield null for these attributes, passes to
 * the next; a value of the wrong type is logged (once per payload) and passes too; the embedded
 * default is the floor. A flag whose compile-time feature is absent is pinned to its default.
 */
import { GrowthBookClient } from "@growthbook/growthbook";
import type { Logger } from "../daemon/logger.ts";
import type { Evaluation } from "./evaluation-cache.ts";
import { FLAG_KEYS, FLAG_SPECS, type FlagKey, defaultFlagValues, isFlagCompiled, normalizeFlagValue } from "./flag-definitions.ts";
import type { Payload } from "./payload.ts";
import type { PayloadLayer } from "./payload-layer.ts";
import type { FlagAttributes, FlagSource } from "./runtime-flags.ts";

export class LayeredEvaluator {
  readonly #features: ReadonlySet<string>;
  readonly #logger: Logger;
  /** One SDK client per payload: a payload change makes a new client, the old one is dropped with it. */
  readonly #clients = new WeakMap<Payload, GrowthBookClient>();
  /** What was already logged about a payload; a new payload starts with a clean slate. */
  readonly #logged = new WeakMap<Payload, Set<string>>();

  constructor(features: ReadonlySet<string>, logger: Logger) {
    this.#features = features;
    this.#logger = logger;
  }

  /** `layers` highest first; `attributes` already merged (global under session). */
  evaluate(layers: readonly PayloadLayer[], attributes: FlagAttributes): Evaluation {
    const values: Record<string, unknown> = { ...defaultFlagValues() };
    const sources = Object.fromEntries(FLAG_KEYS.map((key) => [key, "default"])) as Record<FlagKey, FlagSource>;
    const user = { attributes };
    for (const key of FLAG_KEYS) {
      const compiled = isFlagCompiled(key, this.#features);
      for (const layer of layers) {
        const payload = layer.payload;
        if (payload === null || !Object.hasOwn(payload.response.features ?? {}, key)) continue;
        if (!compiled) {
          this.#once(payload, `gated:${key}`, () =>
            this.#logger.info("flag ignored: this tier was compiled without its feature", { flag: key, requires: FLAG_SPECS[key].requires, source: layer.name }),
          );
          break;
        }
        const raw: unknown = this.#client(payload).evalFeature(key, user).value;
        if (raw === null || raw === undefined) continue;
        const normalized = normalizeFlagValue(key, raw);
        if (!normalized.ok) {
          this.#once(payload, `type:${key}:${normalized.reason}`, () =>
            this.#logger.warn("flag value of the wrong type ignored; using the next source", { flag: key, source: layer.name, reason: normalized.reason }),
          );
          continue;
        }
        if (normalized.clamped) {
          this.#once(payload, `clamp:${key}:${JSON.stringify(raw)}`, () =>
            this.#logger.warn("flag value out of bounds; clamped", { flag: key, source: layer.name, value: raw, clampedTo: normalized.value }),
          );
        }
        values[key] = normalized.value;
        sources[key] = layer.source;
        break;
      }
    }
    return { values: Object.freeze(values) as unknown as Evaluation["values"], sources: Object.freeze(sources) };
  }

  #client(payload: Payload): GrowthBookClient {
    let client = this.#clients.get(payload);
    if (client === undefined) {
      // initSync without `pollingInterval` or `streaming` starts no background sync: fetching is ours.
      client = new GrowthBookClient().initSync({ payload: payload.response });
      this.#clients.set(payload, client);
    }
    return client;
  }

  #once(payload: Payload, key: string, log: () => void): void {
    let seen = this.#logged.get(payload);
    if (seen === undefined) {
      seen = new Set();
      this.#logged.set(payload, seen);
    }
    if (seen.has(key)) return;
    seen.add(key);
    log();
  }
}
