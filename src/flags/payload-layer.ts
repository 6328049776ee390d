/**
 * One payload source above the embedded defaults: the features file, or the API host (whose disk
 * cache stands in until a fetch succeeds). Higher layers win, flag by flag.
 */
import type { Payload } from "./payload.ts";
import type { FlagSource, PayloadReport } from "./runtime-flags.ts";

export interface PayloadLayer {
  readonly name: "file" | "remote";
  /** What values from this layer report as their source: `file`, `remote`, or `cached`. */
  readonly source: Exclude<FlagSource, "default" | "static">;
  /** The last good payload, or null when none has loaded yet. */
  readonly payload: Payload | null;
  /** Epoch ms when the payload in force was read or fetched (for a cached one: when it was fetched). */
  readonly loadedAt: number | null;
  report(): PayloadReport;
  /** Resolves once the source has been tried once (a first fetch has succeeded or failed). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** Told after a layer's payload or metadata changed; `payloadChanged` is false when only the source or age moved. */
export type LayerUpdated = (payloadChanged: boolean) => void;

/** Says a problem once, until it changes or goes away: a poll every few seconds must not flood the log. */
export class RepeatGuard {
  #last: string | null = null;

  /** True when `message` differs from the last one reported. */
  shouldReport(message: string): boolean {
    if (message === this.#last) return false;
    this.#last = message;
    return true;
  }

  reset(): void {
    this.#last = null;
  }
}
