/**
 * Builds the daemon's usage service and hooks. Opens nothing: the database file is created on the
 * first write or read (usage-service.ts), so a daemon that is never used leaves no history behind.
 */
import { join } from "node:path";
import { isMetaToolName } from "../deferral/meta-tools.ts";
import type { Pool } from "../pool/assemble.ts";
import type { Logger } from "../runtime/logger.ts";
import { DaemonUsage, type UsageSessionView } from "./daemon-usage.ts";
import { USAGE_DATABASE_FILE } from "./usage-schema.ts";
import { UsageService } from "./usage-service.ts";
import { stateDir } from "../runtime/state-dir.ts";

export interface OpenUsageOptions<S extends UsageSessionView> {
  env: NodeJS.ProcessEnv;
  logger: Logger;
  pool: () => Pool;
  /** Default: `usage.sqlite` in the state dir. */
  databasePath?: string;
  recording: () => boolean;
  learning: (session: S) => boolean;
  promotedCount: (session: S) => number;
  now?: () => number;
}

/** `$XDG_STATE_HOME/toolpool/usage.sqlite`, else `~/.local/state/toolpool/usage.sqlite` (cron's state dir). */
export function defaultUsageDatabasePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(stateDir(env), USAGE_DATABASE_FILE);
}

export function openDaemonUsage<S extends UsageSessionView>(options: OpenUsageOptions<S>): DaemonUsage<S> {
  const service = new UsageService({
    databasePath: options.databasePath ?? defaultUsageDatabasePath(options.env),
    logger: options.logger,
    isMeta: isMetaToolName,
    recording: options.recording,
    ...(options.now && { now: options.now }),
  });
  return new DaemonUsage<S>({ service, pool: options.pool, learning: options.learning, promotedCount: options.promotedCount });
}
