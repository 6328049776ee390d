/**
 * What a running `toolpool mcp --http` bridge tells `toolpool status`: a small JSON file per bridge
 * process beside the daemon's socket (a 0700 directory), replaced atomically on each change and
 * removed at stop. The bridge is a separate process from the daemon, so the daemon cannot count
 * its evictions; a file left by a bridge that died is ignored (its pid is gone).
 */
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export interface BridgeStats {
  pid: number;
  url: string;
  sessions: number;
  /** Stateless (2026-07-28) callers with a daemon link of their own. */
  callers?: number;
  evictions: number;
  startedAt: string;
}

const PREFIX = "http-bridge-";
/** Bounds what status reads: a directory full of files must not stall the command. */
const MAX_FILES = 64;
const MAX_FILE_BYTES = 4_096;

export function bridgeStatsPath(socketPath: string, pid: number = process.pid): string {
  return join(dirname(socketPath), `${PREFIX}${pid}.json`);
}

export function writeBridgeStats(path: string, stats: BridgeStats): void {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify(stats)}\n`, { mode: 0o600 });
    renameSync(temporary, path);
  } catch {
    // Stats are a convenience for `status`: a full disk must not take the bridge down.
    rmSync(temporary, { force: true });
  }
}

export function removeBridgeStats(path: string): void {
  rmSync(path, { force: true });
}

/** The stats of every live bridge next to this socket. */
export function readBridgeStats(socketPath: string, alive: (pid: number) => boolean = isAlive): BridgeStats[] {
  let names: string[];
  try {
    names = readdirSync(dirname(socketPath)).filter((name) => name.startsWith(PREFIX) && name.endsWith(".json"));
  } catch {
    return [];
  }
  const found: BridgeStats[] = [];
  for (const name of names.slice(0, MAX_FILES)) {
    try {
      const text = readFileSync(join(dirname(socketPath), name), "utf8");
      if (text.length > MAX_FILE_BYTES) continue;
      const stats = JSON.parse(text) as BridgeStats;
      if (Number.isInteger(stats.pid) && typeof stats.url === "string" && alive(stats.pid)) found.push(stats);
    } catch {
      // Unreadable or half-written: skip it.
    }
  }
  return found.sort((a, b) => a.pid - b.pid);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
