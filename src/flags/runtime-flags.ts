/**
 * The runtime-flag contract. Two implementations: `StaticFlags` (tests, offline, no flag sources
 * configured) and `GrowthBookFlags` (embedded defaults → features file → GrowthBook API host).
 * test/flags/contract.ts runs the same suite against both.
 */
import type { FeatureName } from "../../features/tiers.ts";
import type { FlagKey, FlagType, FlagValues } from "./flag-definitions.ts";

/**
 * Where a value came from. `static` is the static implementation's own overrides; `cached` is the
 * API host's payload read back from the state dir because no fetch has succeeded yet.
 */
export type FlagSource = "default" | "static" | "file" | "remote" | "cached";

export type FlagAttributeValue = string | number | boolean | readonly string[] | null;

/**
 * GrowthBook targeting attributes. The daemon sets `tier`, `version` and `id` (a stable user/host
 * id) once; a session adds `model`, `provider`, `clientName` and whatever attributes it passes.
 */
export type FlagAttributes = { readonly [name: string]: FlagAttributeValue | undefined };

export interface FlagReport {
  key: FlagKey;
  type: FlagType;
  description: string;
  value: FlagValues[FlagKey];
  defaultValue: FlagValues[FlagKey];
  source: FlagSource;
  /** Milliseconds since the payload that supplied the value was fetched or read; null for defaults. */
  ageMs: number | null;
  /** The compile-time feature the flag needs, if any. */
  requires: FeatureName | null;
  /** False when this tier lacks `requires`: the flag is pinned to its default. */
  compiled: boolean;
}

export type PayloadState = "waiting" | "loaded" | "cached" | "failed";

/** One payload source (the features file or the API host) as it stands now. */
export interface PayloadReport {
  source: "file" | "remote";
  /** The file path, or the URL fetched (the client key is part of it). */
  location: string;
  /** `waiting`: nothing loaded yet; `cached`: serving the disk copy; `failed`: nothing usable. */
  state: PayloadState;
  ageMs: number | null;
  /** How many features the payload in force defines (all keys, ours or not). */
  features: number;
  /** The last problem (unreadable, invalid, unreachable), kept until a good load replaces it. */
  lastError: string | null;
}

export interface FlagsReport {
  implementation: "static" | "growthbook";
  /** The attributes the values were evaluated with (global ones merged under the caller's). */
  attributes: FlagAttributes;
  flags: FlagReport[];
  payloads: PayloadReport[];
}

export interface RuntimeFlags extends AsyncDisposable {
  /**
   * The flag's value for these attributes. Cheap: evaluations are cached per attributes object and
   * payload version, so pass the same (unchanging) object for every read of one session.
   */
  get<K extends FlagKey>(key: K, attributes?: FlagAttributes): FlagValues[K];
  /** Every flag at once (the same cached evaluation; frozen). */
  values(attributes?: FlagAttributes): Readonly<FlagValues>;
  /** Every flag with its value, default, source and age, for `toolpool flags` and `toolpool/flags`. */
  describe(attributes?: FlagAttributes): FlagsReport;
  /** Called after the effective payload changed (file edit, poll); returns the unsubscribe. */
  onChange(listener: () => void): () => void;
  /** Resolves once each configured source has been tried once (the first fetch succeeded or failed). */
  settled(): Promise<void>;
  /** Stops watchers, timers and requests; nothing keeps the process alive afterwards. */
  close(): Promise<void>;
}
