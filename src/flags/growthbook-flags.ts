/**
 * Runtime flags evaluated by the GrowthBook SDK (`GrowthBookClient`, the multi-user client: one
 * client per payload, attributes given per evaluation). Sources, later wins: embedded defaults →
 * the features file → the API host (its disk cache until a fetch succeeds). Construction reads only
 * local files; the network is reached in the background and its payload applies when it arrives.
 */
import type { UserContext } from "@growthbook/growthbook";
import { type Logger, silentLogger } from "../runtime/logger.ts";
import { ChangeListeners } from "./change-listeners.ts";
import { EvaluationCache } from "./evaluation-cache.ts";
import { FeaturesFileSource } from "./features-file-source.ts";
import { type WatchFile, createFileWatcher } from "./file-watcher.ts";
import type { FlagKey, FlagValues } from "./flag-definitions.ts";
import { buildReport } from "./flags-report.ts";
import { LayeredEvaluator } from "./layered-evaluation.ts";
import { stateDir } from "../runtime/state-dir.ts";
import { PayloadCache } from "./payload-cache.ts";
import type { PayloadLayer } from "./payload-layer.ts";
import { type Fetch, RemoteSource } from "./remote-source.ts";
import type { FlagAttributes, FlagSource, FlagsReport, RuntimeFlags } from "./runtime-flags.ts";

export const DEFAULT_POLL_INTERVAL_MS = 60_000;
/** Every fetch, the first included, gives up after this: a black-holed host must not stall a poll forever. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 5_000;

export interface GrowthBookFlagsOptions {
  /** The compiled feature list (`buildInfo().features`); flags needing an absent feature stay at default. */
  features: readonly string[];
  /** Global attributes (tier, version, id); a session's attributes are merged over them. */
  attributes?: FlagAttributes;
  /** `flags.file`: a features file in GrowthBook payload format, watched. */
  file?: string;
  /** `flags.apiHost` and `flags.clientKey`: both, or the API host is not used. */
  apiHost?: string;
  clientKey?: string;
  pollIntervalMs?: number;
  requestTimeoutMs?: number;
  /** Where `flags-cache.json` lives; `$XDG_STATE_HOME/toolpool` (~/.local/state) by default. */
  stateDir?: string;
  logger?: Logger;
  fetch?: Fetch;
  now?: () => number;
  watchFile?: WatchFile;
}

export class GrowthBookFlags implements RuntimeFlags {
  readonly #features: ReadonlySet<string>;
  readonly #attributes: FlagAttributes;
  readonly #now: () => number;
  readonly #listeners: ChangeListeners;
  readonly #evaluator: LayeredEvaluator;
  readonly #cache = new EvaluationCache<UserContext>({
    prepare: (attributes) => ({ attributes: this.#merged(attributes) }),
    evaluate: (key, user) => this.#evaluator.evaluate(key, this.#layers, user),
  });
  /** Highest precedence first. */
  readonly #layers: PayloadLayer[] = [];
  #closed: Promise<void> | undefined;

  constructor(options: GrowthBookFlagsOptions) {
    const logger = options.logger ?? silentLogger;
    this.#features = new Set(options.features);
    this.#attributes = Object.freeze({ ...options.attributes });
    this.#now = options.now ?? Date.now;
    this.#listeners = new ChangeListeners(logger);
    this.#evaluator = new LayeredEvaluator(this.#features, logger);
    const onUpdate = (payloadChanged: boolean) => {
      this.#cache.invalidate();
      if (payloadChanged) this.#listeners.emit();
    };
    if (options.apiHost && options.clientKey) {
      this.#layers.push(
        new RemoteSource({
          apiHost: options.apiHost,
          clientKey: options.clientKey,
          pollIntervalMs: options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
          timeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
          cache: new PayloadCache(options.stateDir ?? stateDir(), `${options.apiHost}\n${options.clientKey}`),
          fetch: options.fetch ?? fetch,
          now: this.#now,
          logger,
          onUpdate,
        }),
      );
    } else if (options.apiHost || options.clientKey) {
      logger.warn("flags API host not used: flags.apiHost and flags.clientKey are needed together");
    }
    if (options.file) {
      this.#layers.push(
        new FeaturesFileSource({ path: options.file, logger, now: this.#now, watchFile: options.watchFile ?? createFileWatcher(), onUpdate }),
      );
    }
  }

  get<K extends FlagKey>(key: K, attributes?: FlagAttributes): FlagValues[K] {
    return this.#cache.get(key, attributes);
  }

  values(attributes?: FlagAttributes): Readonly<FlagValues> {
    return this.#cache.all(attributes).values;
  }

  describe(attributes?: FlagAttributes): FlagsReport {
    const ages = new Map<FlagSource, number | null>();
    for (const layer of this.#layers) ages.set(layer.source, layer.loadedAt === null ? null : this.#now() - layer.loadedAt);
    return buildReport({
      implementation: "growthbook",
      attributes: this.#merged(attributes),
      evaluation: this.#cache.all(attributes),
      features: this.#features,
      ageOf: (source) => ages.get(source) ?? null,
      payloads: this.#layers.map((layer) => layer.report()).reverse(),
    });
  }

  onChange(listener: () => void): () => void {
    return this.#listeners.add(listener);
  }

  async settled(): Promise<void> {
    await Promise.all(this.#layers.map((layer) => layer.settled()));
  }

  close(): Promise<void> {
    this.#closed ??= (async () => {
      this.#listeners.clear();
      await Promise.all(this.#layers.map((layer) => layer.close()));
    })();
    return this.#closed;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #merged(attributes: FlagAttributes | undefined): FlagAttributes {
    return attributes === undefined ? this.#attributes : { ...this.#attributes, ...attributes };
  }
}
