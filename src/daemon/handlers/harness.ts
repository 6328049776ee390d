/**
 * The `toolpool/*` methods agent harnesses use: open or resume a session, assemble the next
 * request's tools array, run a tool_use, search.
 */
import { ErrorCode, RpcError } from "../../protocol/jsonrpc.ts";
import {
  assembleParams,
  callParams,
  sessionParams,
  type SessionResult,
} from "../../protocol/methods.ts";
import { Method } from "../../protocol/method-names.ts";
import { providerToolResult } from "../../core/format-result.ts";
import type { Dispatcher } from "../dispatcher.ts";
import type { SessionBinding } from "../state.ts";
import { scanTranscript } from "../../assembly/scan-transcript.ts";
import { renderCompactionBlock } from "../../assembly/compaction.ts";
import type { ToolPoolCore } from "../../core/tool-pool-core.ts";
import { sessionTools } from "../../core/session-tools.ts";
import { createStructuredOutputTool, OutputSchemaError } from "../../builtin/structured-output.ts";
import type { JsonSchemaCompiler } from "../../validate/ajv.ts";
import { searchParams } from "../../protocol/methods.ts";
import { isDeferredTool } from "../../deferral/is-deferred.ts";

/** What the harness methods use of the core. */
export type HarnessCore = Pick<ToolPoolCore, "openSession" | "sessionToolDeps" | "assemble" | "call" | "pool" | "search" | "pendingServers" | "logger" | "metrics" | "sessions" | "mcp">;

export function registerHarnessMethods(dispatcher: Dispatcher, core: HarnessCore, wire: SessionBinding): void {
  dispatcher.register(
    Method.Session,
    (params, { connection }): SessionResult => {
      // Refused before anything changes: a broken schema must not open (or alter) a session.
      if (params.outputSchema) checkOutputSchema(params.outputSchema, core.sessionToolDeps().compiler);
      const { session, resumed } = core.openSession(params, connection.id);
      // Before binding: the delivery that binding starts must already see it.
      connection.cronAcks = params.cronAcks ?? connection.cronAcks;
      wire.bind(connection, session);
      core.logger.info("session opened", { session: session.id, resumed, model: session.settings.model });
      return { sessionId: session.id, resumed, settings: { ...session.settings } };
    },
  );

  dispatcher.register(
    Method.Assemble,
    (params, { connection }) => {
      return core.assemble(wire.sessionFor(connection, params.sessionId), params.messages, params.system);
    },
  );

  dispatcher.register(
    Method.Call,
    async (params, { connection, signal, sendProgress, questions }) => {
      const session = wire.sessionFor(connection, params.sessionId);
      if (params.messages) session.discovered = scanTranscript(params.messages).discovered;
      const result = await core.call(session, params.name, params.input, signal, sendProgress, questions);
      const toolUseId = params.toolUseId ?? "";
      return {
        content: result.content,
        isError: result.isError,
        ...(result.structuredContent && { structuredContent: result.structuredContent }),
        toolResult: providerToolResult(result, session.settings.format, toolUseId),
      };
    },
  );

  dispatcher.register(
    Method.Compact,
    (params, { connection }) => {
      const session = wire.sessionFor(connection, params.sessionId);
      const scan = scanTranscript(params.messages, { system: params.system });
      // Tools the session found through its own searches count too: a bridge sends no transcript.
      const discovered = new Set([...scan.discovered, ...session.searched]);
      return { sessionId: session.id, block: renderCompactionBlock(discovered), discovered: [...discovered].sort() };
    },
  );

  dispatcher.register(
    Method.Search,
    (params) => {
      // A named session searches its own pool (its profile); without one, the whole pool.
      const session = params.sessionId === undefined ? undefined : core.sessions.get(params.sessionId);
      if (params.sessionId !== undefined && !session) throw unknownSession(params.sessionId);
      const pool = session ? sessionTools(session, core.sessionToolDeps()).view(core.pool()) : core.pool();
      const result = core.search.index.query(params.query, {
        ...(session && { filter: (name: string) => pool.get(name) !== undefined }),
        ...(params.maxResults !== undefined && { maxResults: params.maxResults }),
        pendingServers: core.pendingServers(),
      });
      core.metrics.search({ kind: result.kind, results: result.matches.length, source: "cli" });
      // A `select:` names tools outright: one outside the session's profile was not found.
      const outside = (result.found ?? []).filter((name) => pool.get(name) === undefined);
      return {
        ...result,
        ...(result.found && { found: result.found.filter((name) => pool.get(name) !== undefined) }),
        ...(outside.length > 0 && { missing: [...(result.missing ?? []), ...outside] }),
        matches: result.matches.filter((match) => pool.get(match.name) !== undefined).map((match) => {
          const tool = pool.get(match.name);
          return {
            ...match,
            description: tool?.description ?? "",
            deferred: tool ? isDeferredTool(tool) : false,
            ...(tool?.mcpInfo && { server: tool.mcpInfo.server }),
            // A server waiting for `toolpool auth login`: its cached tools are found, and say so.
            ...(tool && core.mcp()?.toolFlags(tool)?.needsAuth && { needsAuth: true }),
          };
        }),
      };
    },
  );
}

function checkOutputSchema(schema: Record<string, unknown>, compiler: JsonSchemaCompiler): void {
  try {
    createStructuredOutputTool(schema, compiler);
  } catch (error) {
    if (!(error instanceof OutputSchemaError)) throw error;
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params: field "outputSchema": ${error.message}`);
  }
}

export function unknownSession(id: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, `Invalid params: field "sessionId": no session ${JSON.stringify(id)}; open one with toolpool/session`);
}
