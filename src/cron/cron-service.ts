/**
 * The daemon's one entry into cron: opens the job database in the state dir and builds the
 * scheduler on it. Required only inside `if (feature("AGENT_TRIGGERS"))`, like everything in
 * `src/cron/`, so a tier without the flag carries none of it.
 */
import { existsSync, renameSync } from "node:fs";
import { join } from "node:path";
import { CRON_DATABASE_FILE } from "./cron-schema.ts";
import { CronStore } from "./cron-store.ts";
import type { TimerClock } from "../runtime/clock.ts";
import { CronScheduler } from "./cron-scheduler.ts";
import { stateDir } from "../runtime/state-dir.ts";

export interface CronServiceOptions {
  /** Where `cron.sqlite` lives; `defaultStateDir(env)` when absent. */
  stateDir?: string;
  env?: NodeJS.ProcessEnv;
  clock?: TimerClock;
  timezone?: string;
  onError?: (error: unknown) => void;
}

export interface CronService {
  readonly scheduler: CronScheduler;
  readonly databasePath: string;
  /** Stops the timer and closes the database (again is a no-op). */
  close(): void;
}


/** Opens the store and builds the scheduler; call `scheduler.start()` once the daemon listens. */
export function openCronService(options: CronServiceOptions = {}): CronService {
  const databasePath = join(options.stateDir ?? stateDir(options.env), CRON_DATABASE_FILE);
  const store = openStore(databasePath, options.onError);
  let scheduler: CronScheduler;
  try {
    scheduler = new CronScheduler({
      store,
      ...(options.clock && { clock: options.clock }),
      ...(options.timezone !== undefined && { timezone: options.timezone }),
      ...(options.onError && { onError: options.onError }),
    });
  } catch (error) {
    store.close();
    throw error;
  }
  let closed = false;
  return {
    scheduler,
    databasePath,
    close() {
      if (closed) return;
      closed = true;
      scheduler.stop();
      store.close();
    },
  };
}

/**
 * A database file SQLite cannot read (not a database, corrupt) would keep the whole daemon from
 * starting. It is moved aside — kept for recovery, never deleted — and cron starts empty, reported
 * through `onError`. A database from a newer schema is still refused: it is readable, just not by us.
 */
function openStore(path: string, onError: ((error: unknown) => void) | undefined): CronStore {
  try {
    return new CronStore(path);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== "SQLITE_NOTADB" && code !== "SQLITE_CORRUPT") throw error;
    const aside = `${path}.corrupt-${Date.now()}`;
    for (const suffix of ["", "-wal", "-shm"]) if (existsSync(path + suffix)) renameSync(path + suffix, aside + suffix);
    onError?.(new Error(`cron database ${path} cannot be read (${(error as Error).message}); moved it to ${aside} and started with no jobs`));
    return new CronStore(path);
  }
}
