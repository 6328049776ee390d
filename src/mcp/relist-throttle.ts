/**
 * How often one server's tool list is fetched again after `notifications/tools/list_changed`: a few
 * at once (a server that changes twice in a row is listed twice, at once), then at most one per
 * interval. Notifications that arrive while a listing waits are folded into it (the supervisor's
 * loop lists once more, not once per notification), so a server announcing a change 1,000 times a
 * second costs one listing a second, not a thousand.
 */
import { RELIST_BURST, RELIST_INTERVAL_MS } from "./limits.ts";
import type { Timers } from "./timers.ts";

export class RelistThrottle {
  #tokens: number;
  #refilledAt: number;

  constructor(
    private readonly timers: Timers,
    private readonly burst: number = RELIST_BURST,
    private readonly intervalMs: number = RELIST_INTERVAL_MS,
  ) {
    this.#tokens = burst;
    this.#refilledAt = timers.now();
  }

  /** Milliseconds to wait before the next listing may start (0: now); takes its token. */
  take(): number {
    const now = this.timers.now();
    const earned = Math.floor((now - this.#refilledAt) / this.intervalMs);
    if (earned > 0) {
      this.#tokens = Math.min(this.burst, this.#tokens + earned);
      this.#refilledAt += earned * this.intervalMs;
    }
    if (this.#tokens > 0) {
      this.#tokens--;
      return 0;
    }
    // The next token comes one interval after the last refill; it is spent by this listing.
    this.#refilledAt += this.intervalMs;
    return Math.max(0, this.#refilledAt - now);
  }
}
