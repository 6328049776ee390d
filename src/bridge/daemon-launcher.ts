/**
 * A connection to the daemon, starting one in the background when none is running: `toolpool mcp`
 * is launched by MCP hosts that know nothing of daemons, so the first bridge brings one up.
 *
 * The daemon is spawned detached (its own session and process group, stdin/stdout closed, stderr
 * appended to a log file) so it outlives the bridge and the host that started it. Two bridges
 * starting at once is fine: one daemon wins the socket lock, the other exits 4, and both bridges
 * connect to the winner.
 */
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, fchmodSync } from "node:fs";
import { dirname, join } from "node:path";
import { NotRunningError, ToolpoolClient } from "../client/client.ts";
import { selfCommand } from "../service/self-command.ts";
import { stateDir } from "../runtime/state-dir.ts";

/** How long a freshly spawned daemon may take to listen (cold start is ~100 ms; MCP servers do not block it). */
export const DAEMON_START_TIMEOUT_MS = 15_000;

export interface LaunchOptions {
  socketPath: string;
  /** Passed to `serve --config`. */
  configPath?: string;
  /** The argv prefix that runs toolpool; default: this binary (or bun + entry script from source). */
  command?: readonly string[];
  /** Where the background daemon's stderr (its JSON log) goes. */
  logPath?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** Told when a daemon had to be started (the bridge logs it on stderr). */
  onSpawn?: (pid: number | undefined, logPath: string) => void;
}

export class DaemonStartError extends Error {}

/** Connects to the daemon on the socket, starting one first if nobody answers. */
export async function connectOrStartDaemon(options: LaunchOptions): Promise<ToolpoolClient> {
  try {
    return await ToolpoolClient.connect(options.socketPath);
  } catch (error) {
    if (!(error instanceof NotRunningError)) throw error;
  }
  const env = options.env ?? process.env;
  const logPath = options.logPath ?? defaultDaemonLogPath(env);
  const exited = spawnDaemon(options, logPath, env);
  const deadline = Date.now() + (options.timeoutMs ?? DAEMON_START_TIMEOUT_MS);
  for (;;) {
    try {
      return await ToolpoolClient.connect(options.socketPath, 1_000);
    } catch (error) {
      if (!(error instanceof NotRunningError)) throw error;
    }
    const code = exited.code;
    // 4: another daemon took the socket first — keep trying to connect to that one.
    if (code !== undefined && code !== 4) {
      throw new DaemonStartError(`the background daemon exited with code ${code} before listening on ${options.socketPath}:\n${logTail(logPath)}`);
    }
    if (Date.now() > deadline) {
      throw new DaemonStartError(`no daemon answered on ${options.socketPath} within ${options.timeoutMs ?? DAEMON_START_TIMEOUT_MS} ms (log: ${logPath})`);
    }
    await Bun.sleep(25);
  }
}

/** `$XDG_STATE_HOME/toolpool/daemon.log`, else `~/.local/state/toolpool/daemon.log`. */
export function defaultDaemonLogPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(stateDir(env), "daemon.log");
}

function spawnDaemon(options: LaunchOptions, logPath: string, env: NodeJS.ProcessEnv): { code: number | undefined } {
  const [program, ...prefix] = options.command ?? selfCommand();
  const args = [...prefix, "serve", "--socket", options.socketPath, ...(options.configPath ? ["--config", options.configPath] : [])];
  mkdirSync(dirname(logPath), { recursive: true, mode: 0o700 });
  const logFd = openSync(logPath, "a", 0o600);
  // A log made by an older daemon (or by hand) may be wider: it says what the user works on.
  fchmodSync(logFd, 0o600);
  const state: { code: number | undefined } = { code: undefined };
  try {
    const child = spawn(program!, args, { detached: true, stdio: ["ignore", "ignore", logFd], env });
    child.once("exit", (code, signal) => {
      state.code = code ?? (signal ? 128 : 1);
    });
    child.once("error", () => {
      state.code = 127;
    });
    child.unref();
    options.onSpawn?.(child.pid, logPath);
  } finally {
    closeSync(logFd);
  }
  return state;
}

function logTail(path: string): string {
  try {
    const lines = readFileSync(path, "utf8").trimEnd().split("\n");
    return lines.slice(-10).join("\n");
  } catch {
    return "(no log)";
  }
}
