/** A cron state dir per test, and a service on it driven by a manual clock in UTC. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openCronService, type CronService } from "../../src/cron/cron-service.ts";
import { ManualClock } from "./manual-clock.ts";

export interface StateDir extends Disposable {
  path: string;
}

export function makeStateDir(): StateDir {
  const path = mkdtempSync(join(process.env.TOOLPOOL_TEST_ROOT ?? tmpdir(), "cron-"));
  return { path, [Symbol.dispose]: () => rmSync(path, { recursive: true, force: true }) };
}

export interface OpenService extends CronService, Disposable {}

/** Opens the service (not started) on `stateDir`; disposing closes it, as a daemon stopping would. */
export function openService(stateDir: string, clock: ManualClock, errors: unknown[] = []): OpenService {
  const service = openCronService({ stateDir, clock, timezone: "UTC", onError: (error) => errors.push(error) });
  return { ...service, [Symbol.dispose]: service.close };
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
