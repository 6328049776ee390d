/**
 * A child subreaper inherits every orphan below it — the `(cmd &)` of a Bash call, a server's
 * helper whose server died — and must collect each one when it exits, or the zombies pile up until
 * the daemon stops (and count against the user's process limit). Bun collects only the processes
 * it spawned, promptly, from its event loop; so a zombie child still there at the next look, a
 * couple of seconds later, is one nobody else will collect, and is collected here.
 */
import type { Libc } from "../runtime/libc.ts";
import type { Logger } from "../runtime/logger.ts";
import { zombieChildren } from "../runtime/proc-table.ts";

export const REAP_INTERVAL_MS = 2_000;

export interface OrphanReaper {
  /** One look: collects the zombies seen at the previous look and still there. */
  sweep(): number;
  stop(): void;
}

export function startOrphanReaper(libc: Pick<Libc, "reap">, logger: Logger, intervalMs = REAP_INTERVAL_MS): OrphanReaper {
  let seen = new Set<number>();
  let reaped = 0;
  const sweep = () => {
    const now = zombieChildren(process.pid);
    const collected = new Set(now.filter((pid) => seen.has(pid) && libc.reap(pid)));
    seen = new Set(now.filter((pid) => !collected.has(pid)));
    reaped += collected.size;
    if (collected.size > 0) logger.debug("collected exited orphans", { processes: collected.size, total: reaped });
    return collected.size;
  };
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  return { sweep, stop: () => clearInterval(timer) };
}
