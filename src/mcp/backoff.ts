/**
 * When a crashed or unreachable server is tried again: exponential backoff with jitter, from
 * BACKOFF_INITIAL_MS doubling to BACKOFF_MAX_MS, and parking after PARK_AFTER_FAILURES rapid
 * failures in a row. A connection that stayed up STABLE_CONNECTION_MS was healthy: its failure
 * starts the count over, so a server that crashes once a day is never parked.
 */
import {
  BACKOFF_INITIAL_MS,
  BACKOFF_JITTER,
  BACKOFF_MAX_MS,
  PARK_AFTER_FAILURES,
  STABLE_CONNECTION_MS,
} from "./limits.ts";

export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
  /** Share of each delay that is random: 0.5 means a delay lands in [base/2, base]. */
  jitter: number;
  parkAfter: number;
  stableMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = {
  initialMs: BACKOFF_INITIAL_MS,
  maxMs: BACKOFF_MAX_MS,
  jitter: BACKOFF_JITTER,
  parkAfter: PARK_AFTER_FAILURES,
  stableMs: STABLE_CONNECTION_MS,
};

/** The wait before retry number `failures` (1 = after the first failure). */
export function backoffDelay(failures: number, policy: BackoffPolicy, random: () => number): number {
  const exponent = Math.min(Math.max(failures - 1, 0), 30);
  const base = Math.min(policy.maxMs, policy.initialMs * 2 ** exponent);
  return Math.round(base * (1 - policy.jitter * random()));
}

export type FailureVerdict = { action: "retry"; delayMs: number; failures: number } | { action: "park"; failures: number };

/** Counts rapid failures in a row and decides: retry after a delay, or park. */
export class FailureTracker {
  #failures = 0;

  constructor(
    private readonly policy: BackoffPolicy,
    private readonly random: () => number,
  ) {}

  get failures(): number {
    return this.#failures;
  }

  /** `upForMs`: how long the connection lived before failing; undefined when it never came up. */
  record(upForMs: number | undefined): FailureVerdict {
    this.#failures = upForMs !== undefined && upForMs >= this.policy.stableMs ? 1 : this.#failures + 1;
    if (this.#failures >= this.policy.parkAfter) return { action: "park", failures: this.#failures };
    return { action: "retry", delayMs: backoffDelay(this.#failures, this.policy, this.random), failures: this.#failures };
  }

  reset(): void {
    this.#failures = 0;
  }
}
