/**
 * `toolpool/status`, `toolpool/tools`, `toolpool/servers` (+ `/logs`, `/restart`) and
 * `toolpool/shutdown`: looking at the daemon, its MCP servers, and stopping it.
 */
import {
  type ServerLogsResult,
  type ServerRestartResult,
  type ServersResult,
  type StatusResult,
  type ToolsResult,
} from "../../protocol/methods.ts";
import { ErrorCode, RpcError } from "../../protocol/jsonrpc.ts";
import { Method } from "../../protocol/method-names.ts";
import type { Dispatcher } from "../dispatcher.ts";
import type { SessionBinding, WireFacts } from "../state.ts";
import type { ToolPoolCore } from "../../core/tool-pool-core.ts";
import { isDeferredTool } from "../../deferral/is-deferred.ts";
import { applyProfile, ProfileError, resolveProfile } from "../../pool/profile.ts";
import type { Config } from "../../config/schema.ts";

function namedProfile(config: Config, name: string) {
  try {
    return resolveProfile(name, config);
  } catch (error) {
    if (!(error instanceof ProfileError)) throw error;
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params: field "profile": ${error.message}`);
  }
}

/** What the admin methods use of the core. */
export type AdminCore = Pick<ToolPoolCore, "pool" | "sessions" | "stats" | "mcp" | "flags" | "flagAttributes" | "config">;

export function registerAdminMethods(dispatcher: Dispatcher, core: AdminCore, wire: SessionBinding & WireFacts): void {
  dispatcher.register(
    Method.Status,
    (params, { connection }): StatusResult => {
      if (params.sessionId) wire.sessionFor(connection, params.sessionId);
      const tools = core.pool().tools;
      const mcp = tools.filter((tool) => tool.isMcp).length;
      const memory = process.memoryUsage();
      return {
        version: wire.info.version,
        tier: wire.info.tier,
        features: [...wire.info.features],
        compiled: wire.info.compiled,
        pid: process.pid,
        socket: wire.socketPath,
        uptimeMs: Date.now() - wire.startedAt,
        sessions: core.sessions.counts(),
        connections: wire.connections.size,
        tools: { total: tools.length, builtin: tools.length - mcp, mcp },
        ...guardStatus(core.pool().guarded, core.config().maxToolsInArray),
        calls: { total: core.stats.callsTotal, inFlight: core.stats.callsInFlight },
        memory: { rssBytes: memory.rss, heapUsedBytes: memory.heapUsed },
        mcpServers: countStates(core.mcp()?.servers() ?? []),
      };
    },
  );

  dispatcher.register(
    Method.Tools,
    (params, { connection }): ToolsResult => {
      if (params.sessionId) wire.sessionFor(connection, params.sessionId);
      const pool = params.profile === undefined ? core.pool() : applyProfile(core.pool(), namedProfile(core.config(), params.profile));
      return {
        tools: pool.tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          source: tool.isMcp ? "mcp" : "builtin",
          ...(tool.mcpInfo && { server: tool.mcpInfo.server }),
          deferred: isDeferredTool(tool),
          enabled: tool.isEnabled(),
          // What holds for every input; where it depends on the input, the cautious answer.
          readOnly: tool.hints.readOnlyHint === true,
          concurrencySafe: tool.isConcurrencySafe({}),
          destructive: tool.hints.destructiveHint ?? true,
          openWorld: tool.hints.openWorldHint ?? true,
          alwaysLoad: tool.alwaysLoad,
          ...core.mcp()?.toolFlags(tool),
        })),
        collisions: pool.collisions.map((collision) => ({ ...collision, dropped: [...collision.dropped] })),
      };
    },
  );

  dispatcher.register(
    Method.Servers,
    (params, { connection }): ServersResult => {
      if (params.sessionId) wire.sessionFor(connection, params.sessionId);
      return { servers: core.mcp()?.servers() ?? [] };
    },
  );

  dispatcher.register(
    Method.ServerLogs,
    ({ name }): ServerLogsResult => {
      const lines = core.mcp()?.logs(name);
      if (!lines) throw unknownServer(name);
      return { name, lines };
    },
  );

  dispatcher.register(
    Method.ServerRestart,
    async ({ name }): Promise<ServerRestartResult> => {
      const pool = core.mcp();
      if (!pool?.server(name)) throw unknownServer(name);
      try {
        return { server: await pool.restart(name) };
      } catch (error) {
        // A disabled or removed server cannot be restarted: the request, not the daemon, is at fault.
        throw new RpcError(ErrorCode.InvalidParams, `Invalid params: ${(error as Error).message}`);
      }
    },
  );

  dispatcher.register(
    Method.Flags,
    (params, { connection }) => {
      const session = params.sessionId ? core.sessions.get(params.sessionId) : connection.sessionId ? core.sessions.get(connection.sessionId) : undefined;
      return core.flags().describe(session ? core.flagAttributes(session) : undefined);
    },
  );

  dispatcher.register(
    Method.Shutdown,
    () => {
      // Answer first, then stop: the caller should hear that its request was taken.
      setImmediate(() => wire.requestShutdown("toolpool/shutdown"));
      return { stopping: true };
    },
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

/** The tool-count guard's doing, when it did anything (status says why those tools are deferred). */
function guardStatus(guarded: readonly string[] | undefined, maxToolsInArray: number): Pick<StatusResult, "guard"> {
  return guarded && guarded.length > 0 ? { guard: { maxToolsInArray, deferred: [...guarded] } } : {};
}
