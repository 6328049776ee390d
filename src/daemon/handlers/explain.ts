/**
 * `toolpool/explain`: the session the request means (named, else the connection's own), then the
 * core's answer (src/core/explain-facts.ts). Reads only: explaining never opens a session.
 */
import { Method } from "../../protocol/method-names.ts";
import type { Session } from "../../session/session.ts";
import type { ToolPoolCore } from "../../core/tool-pool-core.ts";
import type { Dispatcher } from "../dispatcher.ts";
import { unknownSession } from "./harness.ts";
import type { SandboxState } from "../../sandbox/command-sandbox.ts";

/** What explain uses of the core. */
export type ExplainCore = Pick<ToolPoolCore, "explain" | "sessions">;

export function registerExplainMethod(dispatcher: Dispatcher, core: ExplainCore, sandbox: () => SandboxState | undefined = () => undefined): void {
  dispatcher.register(Method.Explain, (params, { connection }) => core.explain(params.name, pickSession(core, params.sessionId, connection.sessionId), sandbox()));
}

/**
 * The named session, else the connection's own. Never another connection's session by default:
 * that would hand its id (enough to re-open it) to whoever asks.
 */
function pickSession(core: ExplainCore, named: string | undefined, own: string | undefined): Session | undefined {
  if (named) {
    const session = core.sessions.get(named);
    if (!session) throw unknownSession(named);
    return session;
  }
  return own ? core.sessions.get(own) : undefined;
}
