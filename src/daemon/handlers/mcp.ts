/**
 * The daemon as an MCP server on its socket: initialize, ping, tools/list, tools/call, and for
 * clients of 2026-07-28 (whose requests name that revision in `_meta`) server/discover,
 * subscriptions/listen and the revision's result fields. A plain MCP client sees the tools of its
 * connection's session; `tools/call` runs them through the same pipeline as `toolpool/call`.
 */
import { RpcError } from "../../protocol/jsonrpc.ts";
import { decodeCursor, pageOf } from "./byte-pages.ts";
import { cancelledParams, MCP_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "../../protocol/methods.ts";
import { Method } from "../../protocol/method-names.ts";
import type { Dispatcher } from "../dispatcher.ts";
import type { SessionBinding } from "../state.ts";
import type { ToolPoolCore } from "../../core/tool-pool-core.ts";
import { LIST_TTL_MS, META_SERVER_INFO, META_SUBSCRIPTION_ID, STATELESS_REVISION, SUPPORTED_REVISIONS, unsupportedRevision } from "../../protocol/mcp-revisions.ts";

/** What the MCP face uses of the core: the session's one MCP view, its lookup, and the pipeline. */
export type McpCore = Pick<ToolPoolCore, "info" | "mcpTools" | "callForMcp">;

/**
 * tools/list page size: big enough for most pools in one page. A page also ends at MAX_PAGE_BYTES
 * of JSON (byte-pages.ts): by count alone, 30 tools of 250K output schemas made one page over the
 * line a client reads, and the host saw no tools.
 */
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

  /** What a 2026-07-28 result carries; nothing for a 2025 client; a revision not spoken is refused. */
  const revisionFields = (revision: string | undefined) => {
    if (revision === undefined) return {};
    if (revision !== STATELESS_REVISION) {
      const refused = unsupportedRevision(revision);
      throw new RpcError(refused.code, refused.message, refused.data);
    }
    return { resultType: "complete" as const, _meta: { [META_SERVER_INFO]: { name: "toolpool", version: core.info.version } } };
  };
  const cachingHints = (revision: string | undefined) => (revision === undefined ? {} : { ttlMs: LIST_TTL_MS, cacheScope: "private" as const });

  dispatcher.register(Method.ServerDiscover, (_params, { revision }) => ({
    supportedVersions: [...SUPPORTED_REVISIONS],
    capabilities: { tools: { listChanged: true } },
    instructions: `toolpool ${core.info.tier} daemon: call toolpool/session to configure deferral, or use the tools directly.`,
    ...cachingHints(revision ?? STATELESS_REVISION),
    ...revisionFields(revision ?? STATELESS_REVISION),
  }));

  // Open until the client cancels it or goes: list changes reach the connection tagged with this id.
  dispatcher.register(Method.SubscriptionsListen, async (params, { connection, requestId, signal, revision }) => {
    const fields = revisionFields(revision ?? STATELESS_REVISION);
    const accepted = params.notifications.toolsListChanged === true ? { toolsListChanged: true } : {};
    connection.send({ jsonrpc: "2.0", method: Method.SubscriptionsAcknowledged, params: { notifications: accepted, _meta: { [META_SUBSCRIPTION_ID]: requestId } } });
    if (accepted.toolsListChanged) connection.listens.add(requestId);
    try {
      if (!signal.aborted) await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
    } finally {
      connection.listens.delete(requestId);
    }
    return { ...fields, _meta: { ...fields._meta, [META_SUBSCRIPTION_ID]: requestId } };
  });

  dispatcher.register(
    Method.ToolsList,
    (params, { connection, revision }) => {
      const fields = { ...revisionFields(revision), ...cachingHints(revision) };
      // The session's own view: core tools, plus ToolSearch and ExecuteExtraTool when it defers.
      const tools = core.mcpTools(wire.sessionFor(connection, undefined));
      const start = params.cursor === undefined ? 0 : decodeCursor(params.cursor, tools.length);
      const page = pageOf(tools, start, TOOLS_PAGE_SIZE);
      const next = start + page.length;
      return next < tools.length ? { tools: page, nextCursor: String(next), ...fields } : { tools: page, ...fields };
    },
  );

  dispatcher.register(Method.ToolsCall, async (params, { connection, signal, sendProgress, questions, revision }) => {
    const fields = revisionFields(revision);
    const result = await core.callForMcp(wire.sessionFor(connection, undefined), params.name, params.arguments ?? {}, signal, sendProgress, questions);
    return { ...result, ...fields };
  });
}
