/**
 * `toolpool/status`, `toolpool/tools`, `toolpool/servers` (+ `/logs`, `/restart`) and
 * `toolpool/shutdown`: looking at the daemon, its MCP servers, and stopping it.
 */
import {
  noParams,
  serverNameParams,
  type ServerLogsResult,
  type ServerRestartResult,
  type ServersResult,
  type StatusResult,
  type ToolsResult,
} from "../../protocol/methods.ts";
import { ErrorCode, RpcError } from "../../protocol/jsonrpc.ts";
import { Method } from "../../protocol/method-names.ts";
import { method, type Dispatcher } from "../dispatcher.ts";
import type { DaemonState } from "../state.ts";
import { isDeferredTool } from "../../deferral/is-deferred.ts";
import { z } from "zod";
import { applyProfile, ProfileError, resolveProfile } from "../../pool/profile.ts";

const toolsParams = z.strictObject({ profile: z.string().min(1).max(64).optional() });

function namedProfile(state: DaemonState, name: string) {
  try {
    return resolveProfile(name, state.config());
  } catch (error) {
    if (!(error instanceof ProfileError)) throw error;
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params: field "profile": ${error.message}`);
  }
}

const flagsParams = z.strictObject({ sessionId: z.string().min(1).max(128).optional() });

export function registerAdminMethods(dispatcher: Dispatcher, state: DaemonState): void {
  dispatcher.register(
    Method.Status,
    method(noParams, (): StatusResult => {
      const tools = state.pool().tools;
      const mcp = tools.filter((tool) => tool.isMcp).length;
      const memory = process.memoryUsage();
      return {
        version: state.info.version,
        tier: state.info.tier,
        features: [...state.info.features],
        compiled: state.info.compiled,
        pid: process.pid,
        socket: state.socketPath,
        uptimeMs: Date.now() - state.startedAt,
        sessions: state.sessions.counts(),
        connections: state.connections.size,
        tools: { total: tools.length, builtin: tools.length - mcp, mcp },
        calls: { total: state.stats.callsTotal, inFlight: state.stats.callsInFlight },
        memory: { rssBytes: memory.rss, heapUsedBytes: memory.heapUsed },
        mcpServers: countStates(state.mcp()?.servers() ?? []),
      };
    }),
  );

  dispatcher.register(
    Method.Tools,
    method(toolsParams, ({ profile }): ToolsResult => {
      const pool = profile === undefined ? state.pool() : applyProfile(state.pool(), namedProfile(state, profile));
      return {
        tools: pool.tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          source: tool.isMcp ? "mcp" : "builtin",
          ...(tool.mcpInfo && { server: tool.mcpInfo.server }),
          deferred: isDeferredTool(tool),
          enabled: tool.isEnabled(),
          readOnly: tool.isReadOnly({}),
          concurrencySafe: tool.isConcurrencySafe({}),
          destructive: tool.isDestructive({}),
          openWorld: tool.isOpenWorld({}),
          alwaysLoad: tool.alwaysLoad,
          ...state.mcp()?.toolFlags(tool),
        })),
        collisions: pool.collisions.map((collision) => ({ ...collision, dropped: [...collision.dropped] })),
      };
    }),
  );

  dispatcher.register(
    Method.Servers,
    method(noParams, (): ServersResult => ({ servers: state.mcp()?.servers() ?? [] })),
  );

  dispatcher.register(
    Method.ServerLogs,
    method(serverNameParams, ({ name }): ServerLogsResult => {
      const lines = state.mcp()?.logs(name);
      if (!lines) throw unknownServer(name);
      return { name, lines };
    }),
  );

  dispatcher.register(
    Method.ServerRestart,
    method(serverNameParams, async ({ name }): Promise<ServerRestartResult> => {
      const pool = state.mcp();
      if (!pool?.server(name)) throw unknownServer(name);
      try {
        return { server: await pool.restart(name) };
      } catch (error) {
        // A disabled or removed server cannot be restarted: the request, not the daemon, is at fault.
        throw new RpcError(ErrorCode.InvalidParams, `Invalid params: ${(error as Error).message}`);
      }
    }),
  );

  dispatcher.register(
    Method.Flags,
    method(flagsParams, (params, { connection }) => {
      const session = params.sessionId ? state.sessions.get(params.sessionId) : connection.sessionId ? state.sessions.get(connection.sessionId) : undefined;
      return state.flags().describe(session ? state.flagAttributes(session) : undefined);
    }),
  );

  dispatcher.register(
    Method.Shutdown,
    method(noParams, () => {
      // Answer first, then stop: the caller should hear that its request was taken.
      setImmediate(() => state.requestShutdown("toolpool/shutdown"));
      return { stopping: true };
    }),
  );
}

function unknownServer(name: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, `Invalid params: no MCP server named ${JSON.stringify(name)} is configured`);
}

function countStates(servers: readonly { state: string }[]): Record<string, number> {
  const counts: Record<string, number> = { total: servers.length };
  for (const server of servers) counts[server.state] = (counts[server.state] ?? 0) + 1;
  return counts;
}
