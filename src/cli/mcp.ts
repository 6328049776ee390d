/**
 * `toolpool mcp [--http HOST:PORT]`: toolpool as one MCP server for any MCP host, bridged to the
 * running daemon (started in the background when none runs). stdio by default; `--http` serves
 * Streamable HTTP on loopback instead.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { buildInfo } from "../build-info.ts";
import { DaemonBridge } from "../bridge/daemon-bridge.ts";
import { connectOrStartDaemon } from "../bridge/daemon-launcher.ts";
import { bridgeStatsPath, removeBridgeStats, writeBridgeStats } from "../bridge/bridge-stats.ts";
import { BRIDGE_TOKEN_FILE, bridgeToken } from "../bridge/bridge-token.ts";
import { startHttpBridge } from "../bridge/http-bridge.ts";
import { ListenAddressError, parseListenAddress } from "../bridge/listen-address.ts";
import { runStdioBridge } from "../bridge/stdio-bridge.ts";
import { ToolpoolClient } from "../client/client.ts";
import { type DaemonLocation, locateDaemon } from "../client/socket-discovery.ts";
import { ExitCode, UsageError } from "./exit-codes.ts";

export interface McpCommandOptions {
  socket?: string;
  config?: string;
  /** `HOST:PORT` on loopback: serve Streamable HTTP instead of stdio. */
  http?: string;
  /** Workspace roots for the bridge's sessions (default: the daemon's config). */
  roots?: readonly string[];
  /** The tool profile of the bridge's sessions (`--profile`, else $TOOLPOOL_PROFILE). */
  profile?: string;
  out: (text: string) => void;
  err: (text: string) => void;
}

export async function mcpCommand(options: McpCommandOptions): Promise<number> {
  const version = buildInfo().version;
  let socketPath = (await locateDaemon({ flag: options.socket })).socketPath;
  let started: string | undefined;
  // Found again at each (re)connect: the daemon may have been restarted elsewhere meanwhile.
  const connect = async () => {
    const location = await locateDaemon({ flag: options.socket });
    socketPath = location.socketPath;
    if (location.answering) return ToolpoolClient.connect(location.socketPath);
    const configPath = options.config ? resolve(options.config) : launchConfig(location, process.env);
    return connectOrStartDaemon({
      socketPath: location.socketPath,
      ...(configPath && { configPath }),
      onSpawn: (pid, logPath) => {
        started =
          `no daemon was running, so this bridge started a daemon in the background (pid ${pid ?? "?"}, socket ${location.socketPath}, ` +
          `${configPath ? `config ${configPath}` : "the default config path"}; its log: ${logPath}). ` +
          `If you expected your own daemon's MCP servers, start it first (toolpool serve, or toolpool service install).`;
        options.err(`toolpool mcp: ${started}`);
        started = `toolpool: ${started}`;
      },
    });
  };
  const session = {
    ...(options.roots?.length && { workspaceRoots: options.roots.map((root) => resolve(root)) }),
    ...(options.profile && { profile: options.profile }),
  };
  const createBridge = (extra: { concurrentCalls?: boolean } = {}) => new DaemonBridge({ connect, session: { ...session, ...extra } });

  if (options.http === undefined) {
    try {
      await runStdioBridge({ bridge: createBridge(), createStatelessBridge: () => createBridge({ concurrentCalls: true }), version, log: options.err, notice: () => started });
      return ExitCode.Ok;
    } catch (error) {
      options.err(`toolpool mcp: ${(error as Error).message}`);
      return ExitCode.Failed;
    }
  }

  let address;
  try {
    address = parseListenAddress(options.http);
  } catch (error) {
    if (error instanceof ListenAddressError) throw new UsageError(error.message);
    throw error;
  }
  try {
    // Start (or find) the daemon now, so a broken setup fails here rather than on the first request.
    (await connect()).close();
  } catch (error) {
    options.err(`toolpool mcp: ${(error as Error).message}`);
    return ExitCode.Failed;
  }
  const statsPath = bridgeStatsPath(socketPath);
  const startedAt = new Date().toISOString();
  const publish = () => writeBridgeStats(statsPath, { pid: process.pid, url: bridge.url, sessions: bridge.sessionCount(), callers: bridge.callerCount(), evictions: bridge.evictions(), startedAt });
  const bridge = startHttpBridge({ address, token: bridgeToken(), createBridge, version, log: options.err, onEvict: () => publish() });
  publish();
  const refresh = setInterval(publish, 5_000);
  refresh.unref();
  options.out(`toolpool mcp: serving MCP (Streamable HTTP) on ${bridge.url} — loopback only, and only with the token in that URL (or ${bridge.baseUrl}?token=<token> for clients that keep only /mcp, or ${bridge.baseUrl} with it as Authorization: Bearer; it is kept in the state dir's ${BRIDGE_TOKEN_FILE}); Ctrl-C stops`);
  const stopped = Promise.withResolvers<void>();
  process.once("SIGINT", () => stopped.resolve());
  process.once("SIGTERM", () => stopped.resolve());
  await stopped.promise;
  clearInterval(refresh);
  removeBridgeStats(statsPath);
  await bridge.stop();
  return ExitCode.Ok;
}

/**
 * The config a daemon started by the bridge reads when none was named: the daemon's own lookup
 * ($TOOLPOOL_CONFIG, $XDG_CONFIG_HOME/…) when our environment has those; else the config the
 * user's last daemon recorded, so a host that passes only HOME and PATH does not get a daemon
 * without the user's servers.
 */
export function launchConfig(location: DaemonLocation, env: NodeJS.ProcessEnv): string | undefined {
  if (env.TOOLPOOL_CONFIG || env.XDG_CONFIG_HOME) return undefined;
  const recorded = location.record?.config;
  return recorded && existsSync(recorded) ? recorded : undefined;
}
