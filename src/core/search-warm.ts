/**
 * Starts the search index's catch-up in the background once the pool has settled, so the first
 * search after a pool change (a daemon's start with cached catalogs, a server of thousands of tools
 * connecting) finds the index built instead of paying for the build (search-sync.ts).
 *
 * - Settled: the catch-up starts `settleMs` after the last pool change, so a burst of changes (the
 *   servers of a start connecting one after another) starts one build, of the newest pool. A pool
 *   that never stops changing still starts one `maxWaitMs` after the first change of the burst.
 * - Low priority: the catch-up is SearchSync's own, in slices that give the thread back between
 *   them; a search that comes meanwhile waits for it as it would for one it started itself.
 * - Only where searches will come: a pool of fewer than `minDeferred` deferred tools (a daemon of
 *   built-ins, a server or two) is left to build at its first search, as before — a few
 *   milliseconds — so a daemon that may never search holds no index it never asked for.
 */
import { isDeferredTool } from "../deferral/is-deferred.ts";
import { systemTimerClock, type TimerClock } from "../runtime/clock.ts";
import type { Tool } from "../tool/tool.ts";

/** Quiet time after the last pool change before the background catch-up starts. */
export const DEFAULT_SETTLE_MS = 250;
/** The longest a burst of changes puts the catch-up off, measured from its first change. */
export const DEFAULT_MAX_WAIT_MS = 2_000;
/** Below this many deferred tools the first search builds the index (it takes milliseconds). */
export const DEFAULT_MIN_DEFERRED = 200;

export interface SearchWarmOptions {
  settleMs: number;
  maxWaitMs: number;
  minDeferred: number;
  /** Its timers never keep a stopping daemon alive (runtime/clock.ts). */
  clock: TimerClock;
}

export interface SearchWarmTarget {
  /** Whether the index reflects the pool already (nothing to start). */
  readonly current: boolean;
  /** Starts the catch-up (or joins the running one); settles once it reflects the pool. */
  ready(): Promise<void>;
}

export interface SearchWarmEvents {
  /** The background catch-up starts, over a pool of this many tools (that many deferred at least). */
  onStart?: (facts: { pool: number; deferred: number }) => void;
  /** It failed (SearchSync builds afresh at the next catch-up; nothing waits on this one). */
  onError: (error: unknown) => void;
}

function checked(options: Partial<SearchWarmOptions>): SearchWarmOptions {
  const merged = { settleMs: DEFAULT_SETTLE_MS, maxWaitMs: DEFAULT_MAX_WAIT_MS, minDeferred: DEFAULT_MIN_DEFERRED, clock: systemTimerClock, ...options };
  for (const key of ["settleMs", "maxWaitMs", "minDeferred"] as const) {
    const value = merged[key];
    if (!(Number.isFinite(value) && value >= 0)) throw new Error(`SearchWarm: ${key} must be a finite number ≥ 0, got ${value}`);
  }
  if (merged.maxWaitMs < merged.settleMs) throw new Error(`SearchWarm: maxWaitMs (${merged.maxWaitMs}) must be at least settleMs (${merged.settleMs})`);
  return merged;
}

/** The deferred tools among `tools`, counted up to `limit` (the pool is not walked past it). */
export function deferredAtLeast(tools: readonly Tool[], limit: number): number {
  let count = 0;
  for (const tool of tools) {
    if (count >= limit) break;
    if (isDeferredTool(tool)) count++;
  }
  return count;
}

export class SearchWarm {
  readonly #target: SearchWarmTarget;
  readonly #events: SearchWarmEvents;
  readonly #options: SearchWarmOptions;
  #timer: unknown;
  /** When the burst of changes the armed timer waits out began. */
  #burstStart: number | undefined;
  #facts = { pool: 0, deferred: 0 };
  #closed = false;
  /** Background catch-ups started (tests and the debug log read it). */
  started = 0;

  constructor(target: SearchWarmTarget, events: SearchWarmEvents, options: Partial<SearchWarmOptions> = {}) {
    this.#target = target;
    this.#events = events;
    this.#options = checked(options);
  }

  /** After every pool change (the index synced with `tools` already). */
  poolChanged(tools: readonly Tool[]): void {
    if (this.#closed) return;
    const deferred = deferredAtLeast(tools, Math.max(1, this.#options.minDeferred));
    if (deferred < this.#options.minDeferred || deferred === 0) {
      // Too small to be worth an index nobody asked for: the first search builds it.
      this.#disarm();
      return;
    }
    this.#facts = { pool: tools.length, deferred };
    const now = this.#options.clock.now();
    this.#burstStart ??= now;
    const left = this.#burstStart + this.#options.maxWaitMs - now;
    if (this.#timer !== undefined) this.#options.clock.clearTimeout(this.#timer);
    this.#timer = this.#options.clock.setTimeout(() => this.#fire(), Math.max(0, Math.min(this.#options.settleMs, left)));
  }

  /** Whether a background catch-up is waiting for the pool to settle. */
  get armed(): boolean {
    return this.#timer !== undefined;
  }

  /** The daemon stops: no catch-up starts from here on. */
  close(): void {
    this.#closed = true;
    this.#disarm();
  }

  #disarm(): void {
    if (this.#timer !== undefined) this.#options.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#burstStart = undefined;
  }

  #fire(): void {
    this.#timer = undefined;
    this.#burstStart = undefined;
    if (this.#closed || this.#target.current) return;
    this.started++;
    this.#events.onStart?.(this.#facts);
    this.#target.ready().catch((error: unknown) => this.#events.onError(error));
  }
}
