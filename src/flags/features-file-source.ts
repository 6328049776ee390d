/**
 * The local features file (`flags.file`), in GrowthBook's payload format. Read once at construction
 * (a local read, so the first flag read already sees it), then watched: a change applies as soon as
 * the watcher reports it. A bad or vanished file is logged with the reason and the last good payload
 * stays in force; to clear the file's values, write `{"features": {}}`.
 */
import type { Logger } from "../runtime/logger.ts";
import type { Closeable, WatchFile } from "./file-watcher.ts";
import { MAX_PAYLOAD_BYTES, type Payload, parsePayloadText } from "./payload.ts";
import { readRegularFileSync, type BoundedRead } from "../runtime/bounded-file.ts";
import { type LayerUpdated, type PayloadLayer, RepeatGuard } from "./payload-layer.ts";
import type { PayloadReport } from "./runtime-flags.ts";

export interface FeaturesFileOptions {
  path: string;
  logger: Logger;
  now: () => number;
  watchFile: WatchFile;
  onUpdate: LayerUpdated;
}

export class FeaturesFileSource implements PayloadLayer {
  readonly name = "file";
  readonly source = "file";
  #payload: Payload | null = null;
  #loadedAt: number | null = null;
  #lastError: string | null = null;
  readonly #options: FeaturesFileOptions;
  readonly #problems = new RepeatGuard();
  #watcher: Closeable | null;

  constructor(options: FeaturesFileOptions) {
    this.#options = options;
    this.#reload();
    this.#watcher = options.watchFile(options.path, () => this.#reload());
  }

  get payload(): Payload | null {
    return this.#payload;
  }

  get loadedAt(): number | null {
    return this.#loadedAt;
  }

  report(): PayloadReport {
    return {
      source: "file",
      location: this.#options.path,
      state: this.#payload ? "loaded" : this.#lastError ? "failed" : "waiting",
      ageMs: this.#loadedAt === null ? null : this.#options.now() - this.#loadedAt,
      features: this.#payload?.featureCount ?? 0,
      lastError: this.#lastError,
    };
  }

  settled(): Promise<void> {
    return Promise.resolve();
  }

  async close(): Promise<void> {
    this.#watcher?.close();
    this.#watcher = null;
  }

  #reload(): void {
    const { path, logger, now, onUpdate } = this.#options;
    const read = readBounded(path);
    if (!read.ok) return this.#problem(read.reason, read.missing);
    const parsed = parsePayloadText(read.text);
    if (!parsed.ok) return this.#problem(parsed.reason, false);
    this.#lastError = null;
    this.#problems.reset();
    if (parsed.payload.text === this.#payload?.text) return;
    this.#payload = parsed.payload;
    this.#loadedAt = now();
    logger.info("flags features file loaded", { path, features: parsed.payload.featureCount });
    onUpdate(true);
  }

  #problem(reason: string, missing: boolean): void {
    const { path, logger } = this.#options;
    this.#lastError = reason;
    if (!this.#problems.shouldReport(reason)) return;
    if (this.#payload === null) {
      // A file that is not there yet is a normal state (it may be written later), not a fault.
      if (missing) logger.info("flags features file not found; watching for it", { path });
      else logger.warn("flags features file ignored", { path, reason });
      return;
    }
    logger.warn("flags features file ignored; keeping the last good payload", { path, reason });
  }
}

function readBounded(path: string): BoundedRead {
  // Checked and read on one non-blocking descriptor: a FIFO or device (even one swapped in after a
  // check by name) would otherwise block this synchronous read, and the whole daemon.
  return readRegularFileSync(path, MAX_PAYLOAD_BYTES);
}
