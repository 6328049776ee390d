/**
 * Commands run in their own process group (spawned detached, so the child calls setsid and its pid
 * is the group id). Stopping a command signals the whole group: a `sleep 600 &` the command left
 * behind dies with it instead of outliving the call. Processes that left the group are found
 * through /proc at the moment of stopping: those still below the command (`setsid sleep 600 &`),
 * and those that also left its tree (`(setsid x &)`, `setsid -f x`) by the call's mark in their
 * environment. Each is signalled by pid, checked by its start time so a reused pid is never hit.
 * A process that clears its environment and detaches is found by neither.
 */
import { readFileSync } from "node:fs";
import { allProcesses, descendantsOf, startTimeOf, type ProcessFacts } from "../runtime/proc-table.ts";

/** The environment variable that marks every process of one command (its value is the call's id). */
export const CALL_MARK_VARIABLE = "TOOLPOOL_BASH_CALL";

export interface GroupKillOptions {
  /** Time between SIGTERM and SIGKILL, for processes that clean up or ignore SIGTERM. */
  graceMs: number;
  /** The value of CALL_MARK_VARIABLE the command was started with. */
  mark?: string;
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
export function terminateGroup(pid: number, { graceMs, mark }: GroupKillOptions): void {
  const table = allProcesses();
  const below = [...descendantsOf(pid, table), ...(mark === undefined ? [] : markedProcesses(table, mark, pid))];
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

/** Processes whose environment carries the call's mark (other than `leader`, signalled as a group). */
function markedProcesses(table: readonly ProcessFacts[], mark: string, leader: number): ProcessFacts[] {
  const needle = `\0${CALL_MARK_VARIABLE}=${mark}\0`;
  return table.filter((entry) => {
    if (entry.zombie || entry.pid === leader || entry.pid === process.pid) return false;
    try {
      return `\0${readFileSync(`/proc/${entry.pid}/environ`, "latin1")}`.includes(needle);
    } catch {
      return false;
    }
  });
}
