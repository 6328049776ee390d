/**
 * The daemon as an MCP server on its socket: initialize, ping, tools/list, tools/call. A plain MCP
 * client sees the tools of its connection's session; `tools/call` runs them through the same
 * pipeline as `toolpool/call`.
 */
import { ErrorCode, RpcError } from "../../protocol/jsonrpc.ts";
import {
  cancelledParams,
  emptyParams,
  MCP_PROTOCOL_VERSION,
  mcpToolsCallParams,
  mcpToolsListParams,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "../../protocol/methods.ts";
import { Method } from "../../protocol/method-names.ts";
import { z } from "zod";
import { method, type Dispatcher } from "../dispatcher.ts";
import type { DaemonState } from "../state.ts";
import { assembleForSession } from "../assemble-tools.ts";
import { sessionLookup } from "../session-tools.ts";
import { outsideProfile } from "../../pool/profile.ts";

const initializeParams = z.looseObject({
  protocolVersion: z.string(),
  capabilities: z.record(z.string(), z.unknown()).default({}),
  clientInfo: z.looseObject({ name: z.string(), version: z.string().optional() }).optional(),
});

/** tools/list page size: big enough for most pools in one page, small enough to bound a line. */
const TOOLS_PAGE_SIZE = 500;

export function registerMcpMethods(dispatcher: Dispatcher, state: DaemonState): void {
  dispatcher.register(
    Method.Initialize,
    method(initializeParams, (params, { connection }) => {
      connection.clientName = params.clientInfo?.name ?? "";
      const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(params.protocolVersion)
        ? params.protocolVersion
        : MCP_PROTOCOL_VERSION;
      return {
        protocolVersion,
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: "toolpool", version: state.info.version },
        instructions: `toolpool ${state.info.tier} daemon: call toolpool/session to configure deferral, or use the tools directly.`,
      };
    }),
  );
  dispatcher.onNotification(Method.Initialized, (_params, connection) => {
    connection.initialized = true;
  });
  dispatcher.register(Method.Ping, method(emptyParams, () => ({})));
  dispatcher.onNotification(Method.Cancelled, (params, connection) => {
    const parsed = cancelledParams.safeParse(params);
    if (!parsed.success) return;
    connection.inFlight.get(parsed.data.requestId)?.abort(new Error(parsed.data.reason ?? "cancelled by the client"));
  });

  dispatcher.register(
    Method.ToolsList,
    method(mcpToolsListParams, (params, { connection }) => {
      // The session's own view: core tools, plus ToolSearch and ExecuteExtraTool when it defers.
      const session = state.sessionFor(connection, undefined);
      const lookup = sessionLookup(session, state.sessionToolDeps());
      const assembled = assembleForSession(state, state.sessionToolDeps(), session, [], undefined, false);
      const names = assembled.tools.map((wire) => ("function" in wire ? wire.function.name : wire.name));
      const tools = names.map((name) => lookup(name)).filter((tool) => tool !== undefined);
      const start = params.cursor === undefined ? 0 : decodeCursor(params.cursor);
      const page = tools.slice(start, start + TOOLS_PAGE_SIZE).map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputJSONSchema,
        annotations: {
          readOnlyHint: tool.isReadOnly({}),
          destructiveHint: tool.isDestructive({}),
          openWorldHint: tool.isOpenWorld({}),
        },
      }));
      const next = start + TOOLS_PAGE_SIZE;
      return next < tools.length ? { tools: page, nextCursor: String(next) } : { tools: page };
    }),
  );

  dispatcher.register(
    Method.ToolsCall,
    method(mcpToolsCallParams, async (params, { connection, signal, sendProgress }) => {
      const session = state.sessionFor(connection, undefined);
      if (!sessionLookup(session, state.sessionToolDeps())(params.name)) {
        throw new RpcError(ErrorCode.InvalidParams, outsideProfile(state.pool(), session.settings.profile, params.name) ?? `Unknown tool: ${params.name}`);
      }
      const result = await state.runTool(session, params.name, params.arguments ?? {}, signal, sendProgress);
      return {
        content: result.content,
        isError: result.isError,
        ...(result.structuredContent && { structuredContent: result.structuredContent }),
      };
    }),
  );
}

function decodeCursor(cursor: string): number {
  const value = Number(cursor);
  if (!Number.isInteger(value) || value < 0) throw new RpcError(ErrorCode.InvalidParams, `Invalid params: unknown cursor ${JSON.stringify(cursor)}`);
  return value;
}
