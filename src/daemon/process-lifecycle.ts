/**
 * No process outlives the daemon. When the daemon is the whole process (`toolpool serve`, not a
 * daemon inside a test runner), it
 *   - becomes a child subreaper on Linux, so a server's helper that calls setsid and whose server
 *     then dies is re-parented to the daemon, not to init, and is still ours to end;
 *   - ends, at start, the server groups an earlier daemon left when it was killed with SIGKILL
 *     (recorded in the state dir by pid and start time; see mcp/process-registry.ts);
 *   - collects the orphans it inherits as they exit (orphan-reaper.ts), so no zombies pile up;
 *   - ends, at stop, every descendant still alive once the servers have been stopped.
 * Where prctl or /proc is missing each step is skipped with a debug line: nothing is guessed.
 */
import type { Logger } from "../runtime/logger.ts";
import { openLibc } from "../runtime/libc.ts";
import { startOrphanReaper } from "./orphan-reaper.ts";
import { descendantsOf, startTimeOf } from "../runtime/proc-table.ts";
import { defaultRegistryDir, ProcessRegistry } from "../mcp/process-registry.ts";

/** Between SIGTERM to leftover descendants at stop and SIGKILL to those still there. */
const DESCENDANT_GRACE_MS = 500;
/** Looks after the SIGKILL for processes started while the others were stopping. */
const MAX_STOP_ROUNDS = 5;

export interface ProcessLifecycle {
  readonly registry: ProcessRegistry;
  readonly subreaper: boolean;
  /** Ends what is left below the daemon; resolves within the grace period. */
  stop(): Promise<void>;
}

export function startProcessLifecycle(logger: Logger, env: NodeJS.ProcessEnv): ProcessLifecycle {
  const libc = process.platform === "linux" ? openLibc() : undefined;
  const subreaper = libc?.becomeChildSubreaper() ?? false;
  if (!subreaper) logger.debug("not a child subreaper here; setsid helpers of a server that died on its own may outlive the daemon");
  // Orphans are ours once we are their subreaper: collect them as they exit.
  const orphans = subreaper && libc ? startOrphanReaper(libc, logger) : undefined;
  const registry = new ProcessRegistry(defaultRegistryDir(env), logger);
  const reaped = registry.reapLeftovers();
  if (reaped > 0) logger.warn("ended processes a previous daemon left running", { processes: reaped });
  return {
    registry,
    subreaper,
    async stop() {
      orphans?.stop();
      const left = descendantsOf(process.pid);
      if (left.length > 0) {
        logger.info("ending processes left below the daemon", { pids: left.map((entry) => entry.pid) });
        signalAll(left, "SIGTERM");
        const deadline = Date.now() + DESCENDANT_GRACE_MS;
        while (Date.now() < deadline && left.some((entry) => startTimeOf(entry.pid) === entry.startTime)) await Bun.sleep(20);
        signalAll(left, "SIGKILL");
        // A process that answered SIGTERM by starting another (a trap that runs `setsid x &`) made
        // it after the first look: look again until nothing is left, a few times at most.
        for (let round = 0; round < MAX_STOP_ROUNDS; round++) {
          const late = descendantsOf(process.pid);
          if (late.length === 0) break;
          signalAll(late, "SIGKILL");
          await Bun.sleep(20);
        }
      }
      registry.close();
    },
  };
}

function signalAll(processes: readonly { pid: number; startTime: number }[], signal: NodeJS.Signals): void {
  for (const entry of processes) {
    if (startTimeOf(entry.pid) !== entry.startTime) continue;
    try {
      process.kill(entry.pid, signal);
    } catch {
      // Gone already.
    }
  }
}
