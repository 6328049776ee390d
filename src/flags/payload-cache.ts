/**
 * The API host's last good payload on disk (`<stateDir>/flags-cache.json`), so a start without
 * network serves the last values it saw. The entry names a hash of the URL it came from: after the
 * config points at another host or client key, an old entry is not served as if it were theirs.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { MAX_PAYLOAD_BYTES, type Payload, parsePayload } from "./payload.ts";

export const FLAGS_CACHE_FILE = "flags-cache.json";


const entrySchema = z.object({
  version: z.literal(1),
  urlHash: z.string(),
  fetchedAt: z.number(),
  payload: z.unknown(),
});

export interface CachedPayload {
  payload: Payload;
  fetchedAt: number;
}

export type CacheRead = { ok: true; entry: CachedPayload } | { ok: false; reason: string; missing: boolean };

export class PayloadCache {
  readonly path: string;
  readonly #stateDir: string;
  readonly #urlHash: string;

  constructor(stateDir: string, url: string) {
    this.#stateDir = stateDir;
    this.path = join(stateDir, FLAGS_CACHE_FILE);
    this.#urlHash = new Bun.CryptoHasher("sha256").update(url).digest("hex");
  }

  read(): CacheRead {
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
      return { ok: false, reason: missing ? "no cached payload" : `cannot read: ${(error as Error).message}`, missing };
    }
    if (text.length > MAX_PAYLOAD_BYTES * 2) return { ok: false, reason: "cache file too large", missing: false };
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return { ok: false, reason: "cache file is not valid JSON", missing: false };
    }
    const entry = entrySchema.safeParse(raw);
    if (!entry.success) return { ok: false, reason: "cache file has an unknown shape", missing: false };
    if (entry.data.urlHash !== this.#urlHash) return { ok: false, reason: "cached payload is from another API host or client key", missing: true };
    const payload = parsePayload(entry.data.payload);
    if (!payload.ok) return { ok: false, reason: `cached payload is invalid: ${payload.reason}`, missing: false };
    return { ok: true, entry: { payload: payload.payload, fetchedAt: entry.data.fetchedAt } };
  }

  /** Written to a temp file and renamed, so a crash mid-write never leaves a torn cache. */
  write(payload: Payload, fetchedAt: number): void {
    mkdirSync(this.#stateDir, { recursive: true, mode: 0o700 });
    const temp = `${this.path}.${process.pid}.tmp`;
    const entry = { version: 1, urlHash: this.#urlHash, fetchedAt, payload: payload.response };
    writeFileSync(temp, JSON.stringify(entry), { mode: 0o600 });
    renameSync(temp, this.path);
  }
}
