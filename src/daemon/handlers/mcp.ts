/**
 * The daemon as an MCP server on its socket: initialize, ping, tools/list, tools/call. A plain MCP
 * client sees the tools of its connection's session; `tools/call` runs them through the same
 * pipeline as `toolpool/call`.
 */
import { ErrorCode, RpcError } from "../../protocol/jsonrpc.ts";
import { cancelledParams, MCP_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "../../protocol/methods.ts";
import { Method } from "../../protocol/method-names.ts";
import type { Dispatcher } from "../dispatcher.ts";
import type { SessionBinding } from "../state.ts";
import type { ToolPoolCore } from "../../core/tool-pool-core.ts";

/** What the MCP face uses of the core: the session's one MCP view, its lookup, and the pipeline. */
export type McpCore = Pick<ToolPoolCore, "info" | "mcpTools" | "callForMcp">;

/** tools/list page size: big enough for most pools in one page, small enough to bound a line. */
const TOOLS_PAGE_SIZE = 500;

export function registerMcpMethods(dispatcher: Dispatcher, core: McpCore, wire: SessionBinding): void {
  dispatcher.register(
    Method.Initialize,
    (params, { connection }) => {
      connection.clientName = params.clientInfo?.name ?? "";
      const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(params.protocolVersion)
        ? params.protocolVersion
        : MCP_PROTOCOL_VERSION;
      return {
        protocolVersion,
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: "toolpool", version: core.info.version },
        instructions: `toolpool ${core.info.tier} daemon: call toolpool/session to configure deferral, or use the tools directly.`,
      };
    },
  );
  dispatcher.onNotification(Method.Initialized, (_params, connection) => {
    connection.initialized = true;
  });
  dispatcher.register(Method.Ping, () => ({}));
  dispatcher.onNotification(Method.Cancelled, (params, connection) => {
    const parsed = cancelledParams.safeParse(params);
    if (!parsed.success) return;
    connection.inFlight.get(parsed.data.requestId)?.abort(new Error(parsed.data.reason ?? "cancelled by the client"));
  });

  dispatcher.register(
    Method.ToolsList,
    (params, { connection }) => {
      // The session's own view: core tools, plus ToolSearch and ExecuteExtraTool when it defers.
      const tools = core.mcpTools(wire.sessionFor(connection, undefined));
      const start = params.cursor === undefined ? 0 : decodeCursor(params.cursor);
      const page = tools.slice(start, start + TOOLS_PAGE_SIZE);
      const next = start + TOOLS_PAGE_SIZE;
      return next < tools.length ? { tools: page, nextCursor: String(next) } : { tools: page };
    },
  );

  dispatcher.register(Method.ToolsCall, (params, { connection, signal, sendProgress }) =>
    core.callForMcp(wire.sessionFor(connection, undefined), params.name, params.arguments ?? {}, signal, sendProgress),
  );
}

function decodeCursor(cursor: string): number {
  const value = Number(cursor);
  if (!Number.isInteger(value) || value < 0) throw new RpcError(ErrorCode.InvalidParams, `Invalid params: unknown cursor ${JSON.stringify(cursor)}`);
  return value;
}
