/**
 * The `toolpool/*` methods agent harnesses use: open or resume a session, assemble the next
 * request's tools array, run a tool_use, compact, search. Each is the session the request means,
 * then one core call.
 */
import { ErrorCode, RpcError } from "../../protocol/jsonrpc.ts";
import type { SessionResult } from "../../protocol/methods.ts";
import { Method } from "../../protocol/method-names.ts";
import type { Dispatcher } from "../dispatcher.ts";
import type { SessionBinding } from "../state.ts";
import type { ToolPoolCore } from "../../core/tool-pool-core.ts";

/** What the harness methods use of the core. */
export type HarnessCore = Pick<ToolPoolCore, "openSession" | "assemble" | "callForHarness" | "compact" | "searchTools" | "sessions">;

export function registerHarnessMethods(dispatcher: Dispatcher, core: HarnessCore, wire: SessionBinding): void {
  dispatcher.register(Method.Session, (params, { connection }): SessionResult => {
    // A connection re-sending its own session (a bridge naming its host after initialize) updates
    // it: that is not another "session opened".
    const update = params.sessionId !== undefined && connection.sessionId === params.sessionId;
    const { session, resumed } = core.openSession(params, connection.id, update);
    // Before binding: the delivery that binding starts must already see it.
    connection.cronAcks = params.cronAcks ?? connection.cronAcks;
    wire.bind(connection, session);
    return { sessionId: session.id, resumed, settings: { ...session.settings } };
  });
  dispatcher.register(Method.Assemble, (params, { connection }) => core.assemble(wire.sessionFor(connection, params.sessionId), params.messages, params.system));
  dispatcher.register(Method.Call, (params, { connection, signal, sendProgress, questions }) =>
    core.callForHarness(wire.sessionFor(connection, params.sessionId), params, signal, sendProgress, questions),
  );
  dispatcher.register(Method.Compact, (params, { connection }) => core.compact(wire.sessionFor(connection, params.sessionId), params.messages, params.system));
  dispatcher.register(Method.Search, (params) => {
    // A named session searches its own pool (its profile); without one, the whole pool.
    const session = params.sessionId === undefined ? undefined : core.sessions.get(params.sessionId);
    if (params.sessionId !== undefined && !session) throw unknownSession(params.sessionId);
    return core.searchTools(params, session);
  });
}

export function unknownSession(id: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, `Invalid params: field "sessionId": no session ${JSON.stringify(id)}; open one with toolpool/session`);
}
