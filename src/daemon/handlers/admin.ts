/**
 * `toolpool/status`, `toolpool/tools`, `toolpool/servers` (+ `/logs`, `/restart`), `toolpool/flags`
 * and `toolpool/shutdown`: looking at the daemon, its MCP servers, and stopping it.
 */
import type { StatusResult } from "../../protocol/methods.ts";
import { Method } from "../../protocol/method-names.ts";
import type { Dispatcher } from "../dispatcher.ts";
import type { SessionBinding, WireFacts } from "../state.ts";
import type { ToolPoolCore } from "../../core/tool-pool-core.ts";
import { decodeCursor, pageOf } from "./byte-pages.ts";

/** What the admin methods use of the core. */
export type AdminCore = Pick<ToolPoolCore, "status" | "tools" | "servers" | "describeFlags" | "sessions">;

export function registerAdminMethods(dispatcher: Dispatcher, core: AdminCore, wire: SessionBinding & WireFacts): void {
  dispatcher.register(Method.Status, (params, { connection }): StatusResult => {
    if (params.sessionId) wire.sessionFor(connection, params.sessionId);
    const memory = process.memoryUsage();
    const { sessions, tools, guard, arrayLimit, calls, mcpServers } = core.status();
    return {
      version: wire.info.version,
      tier: wire.info.tier,
      features: [...wire.info.features],
      compiled: wire.info.compiled,
      pid: process.pid,
      socket: wire.socketPath,
      uptimeMs: Date.now() - wire.startedAt,
      sessions,
      connections: wire.connections.size,
      tools,
      ...(guard && { guard }),
      ...(arrayLimit && { arrayLimit }),
      calls,
      memory: { rssBytes: memory.rss, heapUsedBytes: memory.heapUsed },
      mcpServers,
      ...(wire.sandbox && { sandbox: wire.sandbox.state() }),
    };
  });
  dispatcher.register(Method.Tools, (params, { connection }) => {
    if (params.sessionId) wire.sessionFor(connection, params.sessionId);
    // Paged by bytes: one server of 5,000 tools with 2 KB descriptions answered 11 MB, a line no client reads.
    const all = core.tools(params.profile);
    const start = params.cursor === undefined ? 0 : decodeCursor(params.cursor, all.tools.length);
    const tools = pageOf(all.tools, start);
    const next = start + tools.length;
    return { tools, collisions: start === 0 ? all.collisions : [], ...(next < all.tools.length && { nextCursor: String(next) }) };
  });
  dispatcher.register(Method.Servers, (params, { connection }) => {
    if (params.sessionId) wire.sessionFor(connection, params.sessionId);
    return { servers: core.servers.list() };
  });
  dispatcher.register(Method.ServerLogs, ({ name }) => core.servers.logs(name));
  dispatcher.register(Method.ServerRestart, ({ name }) => core.servers.restart(name));
  dispatcher.register(Method.Flags, (params, { connection }) => {
    const named = params.sessionId ?? connection.sessionId;
    return core.describeFlags(named ? core.sessions.get(named) : undefined);
  });
  dispatcher.register(Method.Shutdown, () => {
    // Answer first, then stop: the caller should hear that its request was taken.
    setImmediate(() => wire.requestShutdown("toolpool/shutdown"));
    return { stopping: true };
  });
}

/** The tool-count guard's doing, when it did anything (status says why those tools are deferred). */
function guardStatus(guarded: readonly string[] | undefined, maxToolsInArray: number): Pick<StatusResult, "guard"> {
  return guarded && guarded.length > 0 ? { guard: { maxToolsInArray, deferred: [...guarded] } } : {};
}
