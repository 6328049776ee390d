/**
 * Evaluating a flag through the layers with the GrowthBook SDK, highest layer first. A layer that
 * does not define the flag, or whose rules yield null for these attributes, passes to the
 * next; a value of the wrong type is logged (once per payload) and passes too; the embedded
 * default is the floor. A flag whose compile-time feature is absent is pinned to its default.
 */
import { GrowthBookClient, type UserContext } from "@growthbook/growthbook";
import type { Logger } from "../runtime/logger.ts";
import type { EvaluatedFlag } from "./evaluation-cache.ts";
import { FLAG_SPECS, type FlagKey, isFlagCompiled, normalizeFlagValue } from "./flag-definitions.ts";
import type { Payload } from "./payload.ts";
import type { PayloadLayer } from "./payload-layer.ts";

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

  /** One flag through `layers` (highest first) for `user` (global attributes merged under the session's). */
  evaluate(key: FlagKey, layers: readonly PayloadLayer[], user: UserContext): EvaluatedFlag {
    const fallback: EvaluatedFlag = { value: FLAG_SPECS[key].defaultValue, source: "default" };
    const compiled = isFlagCompiled(key, this.#features);
    for (const layer of layers) {
      const payload = layer.payload;
      if (payload === null || !Object.hasOwn(payload.response.features ?? {}, key)) continue;
      if (!compiled) {
        this.#once(payload, `gated:${key}`, () =>
          this.#logger.info("flag ignored: this tier was compiled without its feature", { flag: key, requires: FLAG_SPECS[key].requires, source: layer.name }),
        );
        return fallback;
      }
      let raw: unknown;
      try {
        raw = this.#client(payload).evalFeature(key, user).value;
      } catch (error) {
        // The payload check is structural; a rule the SDK cannot evaluate (`$or: null`, a non-array
        // `filters`) throws here, on every read. It costs this flag in this layer, not the caller.
        this.#once(payload, `throw:${key}`, () =>
          this.#logger.warn("flag could not be evaluated; using the next source", { flag: key, source: layer.name, error: (error as Error).message }),
        );
        continue;
      }
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
      return { value: normalized.value, source: layer.source };
    }
    return fallback;
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
