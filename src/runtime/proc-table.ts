/**
 * What /proc says about processes (Linux): a process's start time (so a pid is never mistaken for
 * the process that once had it), its parent and group, and a daemon's living descendants. Elsewhere
 * every answer is "unknown" and callers do nothing they cannot prove safe.
 */
import { readdirSync, readFileSync } from "node:fs";

export interface ProcessFacts {
  pid: number;
  ppid: number;
  pgid: number;
  /** Clock ticks after boot (field 22 of /proc/PID/stat): with the pid, names one process for good. */
  startTime: number;
  zombie: boolean;
}

export function processFacts(pid: number): ProcessFacts | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name may hold spaces and parentheses: the fields start after the last ")".
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { pid, ppid: Number(fields[1]), pgid: Number(fields[2]), startTime: Number(fields[19]), zombie: fields[0] === "Z" };
  } catch {
    return undefined;
  }
}

/** The start time of `pid`, or undefined when it is gone (or /proc is not there). */
export function startTimeOf(pid: number): number | undefined {
  const facts = processFacts(pid);
  return facts && !facts.zombie ? facts.startTime : undefined;
}

/** Every process (a scan of /proc: used at start-up and shutdown only). */
export function allProcesses(): ProcessFacts[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const facts: ProcessFacts[] = [];
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 0x30 || entry.charCodeAt(0) > 0x39) continue;
    const found = processFacts(Number(entry));
    if (found) facts.push(found);
  }
  return facts;
}

/** Living descendants of `root`, children before their own children. */
export function descendantsOf(root: number, table: readonly ProcessFacts[] = allProcesses()): ProcessFacts[] {
  const byParent = new Map<number, ProcessFacts[]>();
  for (const entry of table) {
    if (entry.zombie) continue;
    const siblings = byParent.get(entry.ppid) ?? [];
    siblings.push(entry);
    byParent.set(entry.ppid, siblings);
  }
  const found: ProcessFacts[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of byParent.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

/** Clock ticks since boot, the unit of `startTime` (USER_HZ is 100 on every Linux that ships). */
export function uptimeTicks(): number {
  try {
    return Math.floor(Number.parseFloat(readFileSync("/proc/uptime", "utf8")) * 100);
  } catch {
    return 0;
  }
}

/**
 * Children of `pid` that have exited and wait to be collected. Read from the kernel's per-thread
 * child lists (`/proc/PID/task/TID/children`) when it keeps them, else from a scan of /proc.
 */
export function zombieChildren(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children = new Set<number>();
  let listed = false;
  for (const task of tasks) {
    try {
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" ")) if (child.trim()) children.add(Number(child));
      listed = true;
    } catch {
      // Not kept by this kernel: fall back below.
    }
  }
  if (!listed) return allProcesses().filter((entry) => entry.ppid === pid && entry.zombie).map((entry) => entry.pid);
  return [...children].filter((child) => processFacts(child)?.zombie === true);
}
