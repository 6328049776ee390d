/** Shared pieces of the MCP pool tests: fixture specs, a waiting helper, tool contexts, process checks. */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { silentLogger } from "../../src/runtime/logger.ts";
import { McpPool, type McpPoolOptions } from "../../src/mcp/mcp-pool.ts";
import type { ServerSpec, StdioServerSpec } from "../../src/mcp/server-spec.ts";
import type { ToolContext } from "../../src/tool/tool.ts";

export const FIXTURE_SERVER = join(import.meta.dir, "..", "fixtures", "mcp", "fixture-server.ts");
export const HTTP_FIXTURE_SERVER = join(import.meta.dir, "..", "fixtures", "mcp", "http-fixture-server.ts");
export const REPO_ROOT = join(import.meta.dir, "..", "..");

export function tempDir(prefix = "mcp-"): string {
  return mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT ?? tmpdir(), prefix));
}

export function fixtureSpec(name: string, env: Record<string, string> = {}, overrides: Partial<StdioServerSpec> = {}): StdioServerSpec {
  return {
    name,
    transport: "stdio",
    command: process.execPath,
    args: [FIXTURE_SERVER],
    env,
    startup: "eager",
    timeoutMs: 10_000,
    disabled: false,
    alwaysLoad: [],
    origin: "test",
    ...overrides,
  };
}

/** Short backoff so supervision tests take milliseconds, not minutes. */
export const FAST_BACKOFF = { initialMs: 20, maxMs: 100, jitter: 0, parkAfter: 5, stableMs: 60_000 };

export function testPool(servers: readonly ServerSpec[], options: Partial<McpPoolOptions> = {}): McpPool & AsyncDisposable {
  const pool = new McpPool({ servers, logger: silentLogger, cachePath: null, backoff: FAST_BACKOFF, graceMs: 500, ...options });
  return Object.assign(pool, { [Symbol.asyncDispose]: () => pool.stop() });
}

// The one wait (test/helpers/wait.ts), under the name these tests import it by.
export { waitFor } from "../helpers/wait.ts";

export function toolContext(overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    signal: new AbortController().signal,
    sessionId: "test",
    workspaceRoots: [process.cwd()],
    cwd: process.cwd(),
    sessionState: new Map(),
    ...overrides,
  };
}

/** Alive and not a zombie (a reaped-later zombie holds no resources and runs nothing). */
export function isAlive(pid: number): boolean {
  const stat = join("/proc", String(pid), "stat");
  if (!existsSync(stat)) return false;
  try {
    const state = readFileSync(stat, "utf8").split(") ")[1]?.[0];
    return state !== undefined && state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/** Pids in process group `pgid` that are alive. */
export function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of new Bun.Glob("[0-9]*").scanSync({ cwd: "/proc", onlyFiles: false })) {
    try {
      const fields = readFileSync(join("/proc", entry, "stat"), "utf8").split(") ")[1]?.split(" ");
      if (fields && Number(fields[2]) === pgid && fields[0] !== "Z") members.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return members;
}

/** Starts the HTTP fixture server and resolves with its MCP URL; dispose to stop it. */
export async function startHttpFixture(): Promise<{ url: string; base: string; sseUrl: string } & AsyncDisposable> {
  const child = Bun.spawn([process.execPath, HTTP_FIXTURE_SERVER], { stdout: "pipe", stderr: "inherit" });
  const reader = child.stdout.getReader();
  let text = "";
  while (!/SSE_PORT=\d+\n/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`HTTP fixture exited before printing its port: ${text}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const port = Number(/^PORT=(\d+)/m.exec(text)![1]);
  const ssePort = Number(/^SSE_PORT=(\d+)/m.exec(text)![1]);
  const base = `http://127.0.0.1:${port}`;
  return {
    url: `${base}/mcp`,
    base,
    sseUrl: `http://127.0.0.1:${ssePort}/sse`,
    async [Symbol.asyncDispose]() {
      child.kill("SIGKILL");
      await child.exited;
    },
  };
}

/** A clock that moves only when told: backoff is tested without waiting for it. */
export class ManualTimers {
  #now = 0;
  #nextId = 0;
  readonly #pending = new Map<number, { at: number; callback: () => void }>();
  random = () => 0;

  now = () => this.#now;

  setTimeout = (callback: () => void, ms: number) => {
    const id = this.#nextId++;
    this.#pending.set(id, { at: this.#now + ms, callback });
    return { id };
  };

  clearTimeout = (handle: { readonly id: unknown }) => {
    this.#pending.delete(handle.id as number);
  };

  /** Moves the clock to the earliest pending timer and fires it; returns the delay, or undefined if none. */
  fireNext(): number | undefined {
    const next = [...this.#pending].sort(([, a], [, b]) => a.at - b.at)[0];
    if (!next) return undefined;
    const [id, timer] = next;
    const waited = timer.at - this.#now;
    this.#now = timer.at;
    this.#pending.delete(id);
    timer.callback();
    return waited;
  }

  advance(ms: number): void {
    this.#now += ms;
  }

  get pendingCount(): number {
    return this.#pending.size;
  }
}
