/** Test helpers for flags: a recording logger, condition waits, temp dirs and a loopback payload server. */
import { mkdtempSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LogLevel, Logger } from "../../src/runtime/logger.ts";

export interface LogEntry {
  level: LogLevel;
  message: string;
  fields: Record<string, unknown>;
}

export interface RecordingLogger extends Logger {
  readonly entries: LogEntry[];
  /** Entries at `level` whose message contains `text`. */
  find(level: LogLevel, text: string): LogEntry[];
}

export function recordingLogger(): RecordingLogger {
  const entries: LogEntry[] = [];
  const record = (level: LogLevel) => (message: string, fields: Record<string, unknown> = {}) => {
    entries.push({ level, message, fields });
  };
  return {
    entries,
    debug: record("debug"),
    info: record("info"),
    warn: record("warn"),
    error: record("error"),
    setLevel: () => {},
    find: (level, text) => entries.filter((entry) => entry.level === level && entry.message.includes(text)),
  };
}

// The one wait (test/helpers/wait.ts), under the name these tests import it by.
export { waitFor } from "../helpers/wait.ts";

/** Resolves on the next change notification. */
export function nextChange(flags: { onChange(listener: () => void): () => void }): Promise<void> {
  return new Promise((resolve) => {
    const unsubscribe = flags.onChange(() => {
      unsubscribe();
      resolve();
    });
  });
}

export function tempDir(prefix = "flags-"): string {
  return mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT ?? "/tmp", prefix));
}

/** Writes like an editor that saves atomically: a temp file renamed over the target. */
export function writeAtomically(path: string, value: unknown): void {
  const temp = `${path}.tmp-${process.pid}`;
  writeFileSync(temp, typeof value === "string" ? value : JSON.stringify(value));
  renameSync(temp, path);
}

/** A GrowthBook payload where each flag has only a default value. */
export function payloadOf(values: Record<string, unknown>): { features: Record<string, { defaultValue: unknown }> } {
  return { features: Object.fromEntries(Object.entries(values).map(([key, value]) => [key, { defaultValue: value }])) };
}

export type ServerMode = "serve" | "hang" | "fail";

/** A stand-in GrowthBook API host on loopback: serves `payload` at `/api/features/<clientKey>`. */
export class PayloadServer implements AsyncDisposable {
  payload: unknown;
  mode: ServerMode = "serve";
  requests = 0;
  readonly clientKey = "sdk-test-key";
  readonly #server: ReturnType<typeof Bun.serve>;
  readonly #hanging = new Set<() => void>();

  constructor(payload: unknown) {
    this.payload = payload;
    this.#server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (request) => this.#answer(request),
    });
  }

  get apiHost(): string {
    return `http://127.0.0.1:${this.#server.port}`;
  }

  /** Lets held requests (and later ones) be answered with the current payload. */
  release(): void {
    this.mode = "serve";
    for (const release of this.#hanging) release();
    this.#hanging.clear();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.release();
    await this.#server.stop(true);
  }

  async #answer(request: Request): Promise<Response> {
    this.requests++;
    if (new URL(request.url).pathname !== `/api/features/${this.clientKey}`) return new Response("not found", { status: 404 });
    if (this.mode === "fail") return new Response("boom", { status: 500 });
    if (this.mode === "hang") {
      await new Promise<void>((resolve) => {
        this.#hanging.add(resolve);
        request.signal.addEventListener("abort", () => resolve());
      });
    }
    const body = typeof this.payload === "string" ? this.payload : JSON.stringify(this.payload);
    return new Response(body, { headers: { "content-type": "application/json" } });
  }
}

/** An address on loopback where nothing listens: a server is started, its port noted, and stopped. */
export async function refusedApiHost(): Promise<string> {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  const port = server.port;
  await server.stop(true);
  return `http://127.0.0.1:${port}`;
}
