/** Starts an in-process daemon on a fresh socket for one test, and stops it at the end of scope. */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { builtinTools } from "../../src/builtin/list.ts";
import { parseConfig } from "../../src/config/load.ts";
import type { CronService } from "../../src/cron/cron-service.ts";
import { Daemon } from "../../src/daemon/daemon.ts";
import { silentLogger } from "../../src/runtime/logger.ts";
import type { Tool } from "../../src/tool/tool.ts";

export interface TestDaemon extends AsyncDisposable {
  daemon: Daemon;
  socketPath: string;
  dir: string;
}

let counter = 0;

/** The drain a test daemon's stop waits for calls in flight (the daemon's own is 5 s). */
export const TEST_DRAIN_TIMEOUT_MS = 1_000;

/** A short socket directory: Unix socket paths are limited to ~107 bytes. */
export function tempSocketDir(): string {
  return mkdtempSync(join("/tmp", `tp${process.pid % 10000}-${counter++}-`));
}

export async function startTestDaemon(
  /** `cron`: a service the daemon delivers (AGENT_TRIGGERS tiers) and closes when it stops. */
  /** `usageDatabasePath`: the usage history file; by default one of this test's own (no history leaks between tests). */
  /** `drainTimeoutMs`: how long the stop at the end waits for calls in flight (default 1 s, not the daemon's 5 s). */
  options: { builtins?: readonly Tool[]; config?: Record<string, unknown>; cron?: CronService; usageDatabasePath?: string; socketDir?: string; drainTimeoutMs?: number } = {},
): Promise<TestDaemon> {
  const dir = options.socketDir ?? tempSocketDir();
  const socketPath = join(dir, "d.sock");
  const daemon = new Daemon({
    socketPath,
    config: parseConfig(options.config ?? {}, "test"),
    configSource: { path: null, explicit: false },
    builtins: options.builtins ?? builtinTools(),
    logger: silentLogger,
    ...(options.cron && { cron: options.cron }),
    usageDatabasePath: options.usageDatabasePath ?? join(dir, "usage.sqlite"),
    // A test that stops its daemon with a call still running must not wait out the 5 s drain.
    drainTimeoutMs: options.drainTimeoutMs ?? TEST_DRAIN_TIMEOUT_MS,
  });
  await daemon.start();
  return {
    daemon,
    socketPath,
    dir,
    // The socket's directory goes too: runs left thousands of /tmp/tp* directories behind.
    [Symbol.asyncDispose]: async () => {
      await daemon.stop("test finished");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
