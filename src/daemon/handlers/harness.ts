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
import { resolveSettings } from "../../session/settings.ts";
import type { Session } from "../../session/session.ts";
import { providerToolResult } from "../format-result.ts";
import { method, type Dispatcher } from "../dispatcher.ts";
import type { DaemonState } from "../state.ts";
import { assembleForSession } from "../assemble-tools.ts";
import { scanTranscript } from "../../assembly/scan-transcript.ts";
import { renderCompactionBlock } from "../../assembly/compaction.ts";
import { sessionTools } from "../session-tools.ts";
import { createStructuredOutputTool, OutputSchemaError } from "../../builtin/structured-output.ts";
import type { JsonSchemaCompiler } from "../../validate/ajv.ts";
import { searchParams } from "../../protocol/methods.ts";
import { isDeferredTool } from "../../deferral/is-deferred.ts";

export function registerHarnessMethods(dispatcher: Dispatcher, state: DaemonState): void {
  dispatcher.register(
    Method.Session,
    method(sessionParams, (params, { connection }): SessionResult => {
      // Refused before anything changes: a broken schema must not open (or alter) a session.
      if (params.outputSchema) checkOutputSchema(params.outputSchema, state.sessionToolDeps().compiler);
      const existing = params.sessionId ? state.sessions.get(params.sessionId) : undefined;
      let session: Session;
      if (existing) {
        existing.settings = resolveSettings(params, state.settingsDefaults(), existing.settings);
        session = existing;
      } else {
        // An unknown id is honoured, not refused: after a daemon restart the client resumes its
        // conversation under the same id and the transcript rebuilds the rest.
        session = state.sessions.create(resolveSettings(params, state.settingsDefaults()), params.sessionId);
      }
      const previous = connection.sessionId ? state.sessions.get(connection.sessionId) : undefined;
      if (previous !== session) {
        if (previous) state.sessions.detach(previous);
        state.sessions.attach(session);
        connection.sessionId = session.id;
        // After the switch, so what it gives back is not handed straight back to it.
        if (previous) state.sessionLeft(connection);
      }
      sessionTools(session, state.sessionToolDeps());
      // Before attaching: the delivery that attaching starts must already see it.
      connection.cronAcks = params.cronAcks ?? connection.cronAcks;
      state.sessionAttached(session);
      state.logger.info("session opened", { session: session.id, resumed: Boolean(existing), model: session.settings.model });
      return { sessionId: session.id, resumed: Boolean(existing), settings: { ...session.settings } };
    }),
  );

  dispatcher.register(
    Method.Assemble,
    method(assembleParams, (params, { connection }) => {
      const session = state.sessionFor(connection, params.sessionId);
      return assembleForSession(state, state.sessionToolDeps(), session, params.messages, params.system);
    }),
  );

  dispatcher.register(
    Method.Call,
    method(callParams, async (params, { connection, signal, sendProgress }) => {
      const session = state.sessionFor(connection, params.sessionId);
      if (params.messages) session.discovered = scanTranscript(params.messages).discovered;
      const result = await state.runTool(session, params.name, params.input, signal, sendProgress);
      const toolUseId = params.toolUseId ?? "";
      return {
        content: result.content,
        isError: result.isError,
        ...(result.structuredContent && { structuredContent: result.structuredContent }),
        toolResult: providerToolResult(result, session.settings.format, toolUseId),
      };
    }),
  );

  dispatcher.register(
    Method.Compact,
    method(assembleParams, (params, { connection }) => {
      const session = state.sessionFor(connection, params.sessionId);
      const scan = scanTranscript(params.messages, { system: params.system });
      // Tools the session found through its own searches count too: a bridge sends no transcript.
      const discovered = new Set([...scan.discovered, ...sessionTools(session, state.sessionToolDeps()).searched]);
      return { sessionId: session.id, block: renderCompactionBlock(discovered), discovered: [...discovered].sort() };
    }),
  );

  dispatcher.register(
    Method.Search,
    method(searchParams, (params) => {
      // A named session searches its own pool (its profile); without one, the whole pool.
      const session = params.sessionId === undefined ? undefined : state.sessions.get(params.sessionId);
      if (params.sessionId !== undefined && !session) throw unknownSession(params.sessionId);
      const pool = session ? sessionTools(session, state.sessionToolDeps()).view(state.pool()) : state.pool();
      const result = state.search.index.query(params.query, {
        ...(session && { filter: (name: string) => pool.get(name) !== undefined }),
        ...(params.maxResults !== undefined && { maxResults: params.maxResults }),
        pendingServers: state.sessionToolDeps().pendingServers(),
      });
      return {
        ...result,
        matches: result.matches.filter((match) => pool.get(match.name) !== undefined).map((match) => {
          const tool = pool.get(match.name);
          return {
            ...match,
            description: tool?.description ?? "",
            deferred: tool ? isDeferredTool(tool) : false,
            ...(tool?.mcpInfo && { server: tool.mcpInfo.server }),
            // A server waiting for `toolpool auth login`: its cached tools are found, and say so.
            ...(tool && state.mcp()?.toolFlags(tool)?.needsAuth && { needsAuth: true }),
          };
        }),
      };
    }),
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
