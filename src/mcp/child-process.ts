/**
 * Spawning stdio servers, each in its own process group (detached: the child calls setsid, so its
 * pid is the group id), and stopping a whole group. A server that forks helpers — `npx` wrapping
 * node, a shell wrapping python — leaves no grandchild behind when it is stopped or when it dies.
 * `spawn` is an interface so tests (and other runtimes) can supply their own. A helper that left
 * the group (setsid) is found through /proc by its parent link and ended by pid and start time.
 */
import { descendantsOf, processFacts, startTimeOf, type ProcessFacts } from "../runtime/proc-table.ts";

export interface ChildExit {
  code: number | null;
  signal: string | null;
}

export interface ChildHandle {
  readonly pid: number;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  readonly exited: Promise<ChildExit>;
  /** Resolves when the bytes are handed to the pipe (backpressure is honoured). */
  write(data: string): Promise<void>;
  endInput(): void;
}

export interface SpawnRequest {
  /** The server's name in the config (what the crash-cleanup record and its log line call it). */
  name?: string;
  command: string;
  args: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  cwd?: string;
}

export type SpawnProcess = (request: SpawnRequest) => ChildHandle;

export const spawnInProcessGroup: SpawnProcess = (request) => {
  const child = Bun.spawn([request.command, ...request.args], {
    env: request.env,
    ...(request.cwd !== undefined && { cwd: request.cwd }),
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
    detached: true,
  });
  const exited = child.exited.then((code): ChildExit => {
    const signal = child.signalCode;
    return signal === null || signal === undefined ? { code, signal: null } : { code: null, signal: String(signal) };
  });
  return {
    pid: child.pid,
    stdout: child.stdout,
    stderr: child.stderr,
    exited,
    async write(data) {
      child.stdin.write(data);
      await child.stdin.flush();
    },
    endInput() {
      try {
        void child.stdin.end();
      } catch {
        // Already closed: the process is gone.
      }
    },
  };
};

/** Sends `signal` to every process in the group led by `pid`; false when no such group exists. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

export function describeExit(exit: ChildExit): string {
  if (exit.signal) return `killed by ${exit.signal}`;
  return `exited with code ${exit.code ?? "unknown"}`;
}

/** Descendants of our child `pid` outside its process group (setsid, setpgid): a group kill misses them. */
export function strayDescendants(pid: number): ProcessFacts[] {
  // Only for a real child of ours: a test double's made-up pid may be someone else's process.
  if (processFacts(pid)?.ppid !== process.pid) return [];
  return descendantsOf(pid).filter((entry) => entry.pgid !== pid);
}

/** SIGKILLs each stray (and the group it leads) that is still the same process (pid and start time). */
export function killStrays(strays: readonly ProcessFacts[]): void {
  for (const stray of strays) {
    if (startTimeOf(stray.pid) !== stray.startTime) continue;
    if (stray.pgid === stray.pid) signalGroup(stray.pid, "SIGKILL");
    try {
      process.kill(stray.pid, "SIGKILL");
    } catch {
      // Gone already.
    }
  }
}
