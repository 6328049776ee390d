/**
 * The GrowthBook API host: `GET ${apiHost}/api/features/${clientKey}`, then again every poll
 * interval. Construction never waits for the network: the disk cache (if any) is in force at once,
 * tagged `cached`, and the first fetch runs in the background with a timeout, like every fetch after
 * it. A failed or invalid fetch is logged (once per distinct problem) and the payload in force stays.
 */
import type { Logger } from "../runtime/logger.ts";
import { MAX_PAYLOAD_BYTES, type Payload, parsePayloadText } from "./payload.ts";
import type { PayloadCache } from "./payload-cache.ts";
import { type LayerUpdated, type PayloadLayer, RepeatGuard } from "./payload-layer.ts";
import type { PayloadReport } from "./runtime-flags.ts";

export type Fetch = (url: string, init: { signal: AbortSignal; headers: Record<string, string> }) => Promise<Response>;

export interface RemoteSourceOptions {
  apiHost: string;
  clientKey: string;
  pollIntervalMs: number;
  timeoutMs: number;
  cache: PayloadCache;
  fetch: Fetch;
  now: () => number;
  logger: Logger;
  onUpdate: LayerUpdated;
}

export function featuresUrl(apiHost: string, clientKey: string): string {
  return `${apiHost.replace(/\/+$/, "")}/api/features/${encodeURIComponent(clientKey)}`;
}

export class RemoteSource implements PayloadLayer {
  readonly name = "remote";
  #source: "remote" | "cached" = "cached";
  #payload: Payload | null = null;
  #loadedAt: number | null = null;
  #lastError: string | null = null;
  #closed = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #inFlight: AbortController | undefined;
  readonly #firstAttempt: Promise<void>;
  /** The poll running now, so close() can wait for it to wind down. */
  #running: Promise<void>;
  readonly #problems = new RepeatGuard();
  readonly #options: RemoteSourceOptions;
  readonly #url: string;

  constructor(options: RemoteSourceOptions) {
    this.#options = options;
    this.#url = featuresUrl(options.apiHost, options.clientKey);
    this.#loadCache();
    this.#firstAttempt = this.#poll();
    this.#running = this.#firstAttempt;
  }

  get source(): "remote" | "cached" {
    return this.#source;
  }

  get payload(): Payload | null {
    return this.#payload;
  }

  get loadedAt(): number | null {
    return this.#loadedAt;
  }

  report(): PayloadReport {
    const loaded = this.#payload !== null;
    return {
      source: "remote",
      // The client key is not secret (GrowthBook ships it to browsers), but a report need not repeat it whole.
      location: featuresUrl(this.#options.apiHost, `${this.#options.clientKey.slice(0, 8)}…`),
      state: loaded ? (this.#source === "cached" ? "cached" : "loaded") : this.#lastError ? "failed" : "waiting",
      ageMs: this.#loadedAt === null ? null : this.#options.now() - this.#loadedAt,
      features: this.#payload?.featureCount ?? 0,
      lastError: this.#lastError,
    };
  }

  settled(): Promise<void> {
    return this.#firstAttempt;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#inFlight?.abort(new Error("flags closed"));
    await this.#running;
  }

  #loadCache(): void {
    const read = this.#options.cache.read();
    if (!read.ok) {
      if (!read.missing) this.#options.logger.warn("flags cache ignored", { path: this.#options.cache.path, reason: read.reason });
      return;
    }
    this.#payload = read.entry.payload;
    this.#loadedAt = read.entry.fetchedAt;
    this.#source = "cached";
  }

  async #poll(): Promise<void> {
    await this.#fetchOnce();
    if (this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#running = this.#poll();
    }, this.#options.pollIntervalMs);
  }

  async #fetchOnce(): Promise<void> {
    const { fetch, timeoutMs, now, logger, onUpdate, cache } = this.#options;
    const controller = new AbortController();
    this.#inFlight = controller;
    const timer = setTimeout(() => controller.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    let text: string;
    try {
      const response = await fetch(this.#url, { signal: controller.signal, headers: { accept: "application/json" } });
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`HTTP ${response.status}`);
      }
      text = await readBounded(response);
    } catch (error) {
      // On our own timeout the fetch rejects with a generic abort error; the reason we gave says more.
      const cause = controller.signal.aborted ? (controller.signal.reason as Error) : (error as Error);
      if (!this.#closed) this.#problem(`fetch failed: ${cause.message}`);
      return;
    } finally {
      clearTimeout(timer);
      this.#inFlight = undefined;
    }
    if (this.#closed) return;
    const parsed = parsePayloadText(text);
    if (!parsed.ok) return this.#problem(parsed.reason);
    const changed = parsed.payload.text !== this.#payload?.text;
    const wasCached = this.#source === "cached" || this.#payload === null;
    this.#payload = parsed.payload;
    this.#loadedAt = now();
    this.#source = "remote";
    this.#lastError = null;
    this.#problems.reset();
    try {
      cache.write(parsed.payload, this.#loadedAt);
    } catch (error) {
      logger.warn("flags cache not written", { path: cache.path, error: (error as Error).message });
    }
    if (!changed && !wasCached) return;
    logger.info("flags payload fetched", { features: parsed.payload.featureCount, changed });
    onUpdate(changed);
  }

  #problem(reason: string): void {
    this.#lastError = reason;
    if (!this.#problems.shouldReport(reason)) return;
    const kept = this.#payload ? (this.#source === "cached" ? "serving the cached payload" : "keeping the last good payload") : "using lower sources";
    this.#options.logger.warn(`flags API host: ${reason}; ${kept}`, { url: this.report().location });
  }
}

/** Reads a response body, refusing one larger than a payload can be before it is all in memory. */
async function readBounded(response: Response): Promise<string> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > MAX_PAYLOAD_BYTES) {
    await response.body?.cancel();
    throw new Error(`response is ${declared} bytes; the limit is ${MAX_PAYLOAD_BYTES}`);
  }
  if (!response.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > MAX_PAYLOAD_BYTES) throw new Error(`response exceeds ${MAX_PAYLOAD_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
