/**
 * Commands run in their own process group (spawned detached, so the child calls setsid and its pid
 * is the group id). Stopping a command signals the whole group: a `sleep 600 &` the command left
 * behind dies with it instead of outliving the call. Processes below the command that left the
 * group (`setsid sleep 600 &`) are found through /proc, at the moment of stopping, and signalled
 * one by one (each checked by its start time, so a reused pid is never hit).
 */
import { descendantsOf, startTimeOf, type ProcessFacts } from "../runtime/proc-table.ts";

export interface GroupKillOptions {
  /** Time between SIGTERM and SIGKILL, for processes that clean up or ignore SIGTERM. */
  graceMs: number;
}

/** Sends `signal` to every process in the group led by `pid`; false when the group is gone. */
export function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * SIGTERM to the group now, SIGKILL to whatever is left after the grace period. The SIGKILL timer
 * is unref'd: it must not keep a daemon (or a test run) alive.
 */
export function terminateGroup(pid: number, { graceMs }: GroupKillOptions): void {
  const below = descendantsOf(pid);
  const grouped = signalGroup(pid, "SIGTERM");
  signalEach(below, "SIGTERM");
  if (!grouped && below.length === 0) return;
  const timer = setTimeout(() => {
    signalGroup(pid, "SIGKILL");
    signalEach(below, "SIGKILL");
  }, graceMs);
  timer.unref();
}

function signalEach(processes: readonly ProcessFacts[], signal: NodeJS.Signals): void {
  for (const entry of processes) {
    if (startTimeOf(entry.pid) !== entry.startTime) continue;
    try {
      process.kill(entry.pid, signal);
    } catch {
      // Gone already.
    }
  }
}
