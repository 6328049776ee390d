/**
 * Every stdio server's process group, written down in the state dir while it runs, so that a daemon
 * killed with SIGKILL (no shutdown ran) still has its servers ended by the next one. A record is
 * the group leader's pid and start time: a leftover is killed only when both still match (a pid
 * alone may belong to someone else by now), with the members of its group that started after it.
 * A group whose leader has gone is left alone: nothing proves its number is still ours. Never by name.
 *
 * One file per daemon (`<pid>-<start>.json`); it is removed when the daemon stops cleanly.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join } from "node:path";
import type { Logger } from "../runtime/logger.ts";
import { allProcesses, processFacts, startTimeOf, uptimeTicks, type ProcessFacts } from "../runtime/proc-table.ts";
import type { SpawnProcess } from "./child-process.ts";

export interface GroupRecord {
  server: string;
  pid: number;
  startTime: number;
}

interface RegistryFile {
  daemon: { pid: number; startTime: number };
  /** Uptime in clock ticks when written: every listed leader was alive then (see reapLeftovers). */
  aliveAt: number;
  groups: GroupRecord[];
}

/** How often a daemon with servers running rewrites its record (its `aliveAt`). */
export const RECORD_HEARTBEAT_MS = 5_000;

/** `$XDG_STATE_HOME/toolpool/process-groups`, `~/.local/state` when XDG_STATE_HOME is unset. */
export function defaultRegistryDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_STATE_HOME || join(env.HOME || homedir(), ".local", "state");
  return join(base, "toolpool", "process-groups");
}

export class ProcessRegistry {
  readonly #groups = new Map<number, GroupRecord>();
  readonly #file: string | undefined;
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  #warned = false;

  constructor(
    private readonly dir: string,
    private readonly logger: Logger,
    private readonly self: { pid: number; startTime: number | undefined } = { pid: process.pid, startTime: startTimeOf(process.pid) },
  ) {
    // Without a start time for ourselves (no /proc) nothing could be proven later: record nothing.
    this.#file = self.startTime === undefined ? undefined : join(dir, `${self.pid}-${self.startTime}.json`);
  }

  add(server: string, pid: number): void {
    const startTime = startTimeOf(pid);
    if (startTime === undefined || !this.#file) return;
    this.#groups.set(pid, { server, pid, startTime });
    this.#write();
    if (!this.#heartbeat) {
      this.#heartbeat = setInterval(() => this.#write(), RECORD_HEARTBEAT_MS);
      this.#heartbeat.unref?.();
    }
  }

  remove(pid: number): void {
    if (this.#groups.delete(pid)) this.#write();
  }

  /** A clean stop: nothing of ours is left to reap. */
  close(): void {
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    this.#groups.clear();
    if (this.#file) rmSync(this.#file, { force: true });
  }

  /**
   * Ends what earlier daemons that died without stopping left running. Returns how many processes
   * were signalled. A record whose daemon is still alive (same pid and start time) is left alone.
   */
  reapLeftovers(given?: readonly ProcessFacts[]): number {
    let files: string[];
    try {
      files = readdirSync(this.dir).filter((name) => name.endsWith(".json"));
    } catch {
      return 0;
    }
    let signalled = 0;
    // /proc is scanned only when there is a record to judge: at most daemon starts there is none.
    let table = given;
    for (const name of files) {
      const path = join(this.dir, name);
      const record = readRecord(path);
      if (!record || path === this.#file) continue;
      table ??= allProcesses();
      const owner = table.find((entry) => entry.pid === record.daemon.pid && !entry.zombie);
      if (owner && owner.startTime === record.daemon.startTime) continue; // that daemon still runs
      for (const group of record.groups) {
        const leader = table.find((entry) => entry.pid === group.pid && !entry.zombie);
        const leaderMatches = leader !== undefined && leader.startTime === group.startTime;
        // A pid that now belongs to another process: the group number is no longer provably ours.
        if (leader && !leaderMatches) continue;
        // With the leader gone, a member is ours only if it started by `aliveAt`: the leader was alive
        // then, so the group had not emptied and its number could not have been given out again.
        const members = table.filter(
          (entry) =>
            !entry.zombie &&
            entry.pgid === group.pid &&
            entry.startTime >= group.startTime &&
            (leaderMatches || entry.startTime <= record.aliveAt),
        );
        if (members.length === 0) continue;
        this.logger.warn("ending a leftover MCP server of a daemon that died without stopping", {
          server: group.server,
          pid: group.pid,
          processes: members.map((entry) => entry.pid),
          daemonPid: record.daemon.pid,
        });
        for (const member of members) {
          try {
            process.kill(member.pid, "SIGKILL");
            signalled++;
          } catch {
            // Gone already.
          }
        }
      }
      rmSync(path, { force: true });
    }
    return signalled;
  }

  #write(): void {
    if (!this.#file || this.self.startTime === undefined) return;
    const body: RegistryFile = {
      daemon: { pid: this.self.pid, startTime: this.self.startTime },
      aliveAt: uptimeTicks(),
      groups: [...this.#groups.values()],
    };
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const draft = `${this.#file}.draft`;
      writeFileSync(draft, JSON.stringify(body), { mode: 0o600 });
      renameSync(draft, this.#file);
    } catch (error) {
      // Once: the heartbeat would repeat it every few seconds.
      if (this.#warned) return;
      this.#warned = true;
      this.logger.warn("cannot record MCP server process groups; a daemon killed with SIGKILL may leave them running", {
        dir: this.dir,
        error: (error as Error).message,
      });
    }
  }
}

function readRecord(path: string): RegistryFile | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as RegistryFile;
    if (typeof parsed?.daemon?.pid !== "number" || typeof parsed.aliveAt !== "number" || !Array.isArray(parsed.groups)) return undefined;
    return parsed;
  } catch {
    return undefined;
  }
}

/** Records each spawned server's group while it runs. Only real children of ours are recorded. */
export function recordingSpawn(spawn: SpawnProcess, registry: ProcessRegistry): SpawnProcess {
  return (request) => {
    const child = spawn(request);
    if (processFacts(child.pid)?.ppid === process.pid) {
      // By its config name: every npx- or node-started server would otherwise be "node".
      registry.add(request.name ?? basename(request.command), child.pid);
      void child.exited.then(() => registry.remove(child.pid));
    }
    return child;
  };
}
