/**
 * `toolpool/explain`: gathers what the pure `explainTool` needs from the daemon — the pool, what
 * was offered before deny rules, server states, and the session's delivery and discoveries — and
 * returns its chain of decisions. Reads only: explaining never opens a session or starts a server.
 */
import { assembleRequest } from "../../assembly/assemble-request.ts";
import { explainTool, type ExplainSession } from "../../explain/explain-tool.ts";
import { explainParams, type Discovery, type Explanation } from "../../protocol/explain.ts";
import { Method } from "../../protocol/method-names.ts";
import type { Session } from "../../session/session.ts";
import type { Tool } from "../../tool/tool.ts";
import { assembleSettings } from "../assemble-tools.ts";
import { method, type Dispatcher } from "../dispatcher.ts";
import { sessionTools } from "../session-tools.ts";
import type { DaemonState } from "../state.ts";
import { unknownSession } from "./harness.ts";

export function registerExplainMethod(dispatcher: Dispatcher, state: DaemonState): void {
  dispatcher.register(
    Method.Explain,
    method(explainParams, (params, { connection }): Explanation => {
      const session = pickSession(state, params.sessionId, connection.sessionId);
      const { offered, configPath } = state.explainSources();
      return explainTool({
        name: params.name,
        tier: { name: state.info.tier, features: state.info.features },
        pool: state.pool(),
        offered,
        configDeny: { rules: state.config().permissions?.deny ?? [], source: configPath ?? "the config" },
        servers: state.mcp()?.servers() ?? [],
        session: session && sessionFacts(state, session),
        suggest: (name) => state.search.index.query(`select:${name}`).didYouMean ?? [],
      });
    }),
  );
}

/** The named session, else the connection's, else the most recently active one (the CLI has none). */
function pickSession(state: DaemonState, named: string | undefined, own: string | undefined): Session | undefined {
  if (named) {
    const session = state.sessions.get(named);
    if (!session) throw unknownSession(named);
    return session;
  }
  const current = own ? state.sessions.get(own) : undefined;
  if (current) return current;
  let latest: Session | undefined;
  for (const session of state.sessions.all()) if (!latest || session.lastActiveAt > latest.lastActiveAt) latest = session;
  return latest;
}

function sessionFacts(state: DaemonState, session: Session): ExplainSession {
  const deps = state.sessionToolDeps();
  const own = sessionTools(session, deps);
  // The same decision the next toolpool/assemble makes (the mode and delivery depend on the pool and
  // settings, not the transcript); no schema cache, so looking pins nothing.
  const assembled = assembleRequest({
    settings: assembleSettings(state, session),
    tools: state.pool().tools,
    messages: [],
    metaTools: () => ({ toolSearch: own.toolSearch, executeExtraTool: own.executeExtraTool }),
    pendingServers: deps.pendingServers(),
  });
  const discovered = new Map<string, Discovery>();
  for (const name of session.discovered) discovered.set(name, { via: "transcript" });
  for (const name of own.searched) if (!discovered.has(name)) discovered.set(name, own.found.get(name) ?? { via: "search" });
  return {
    id: session.id,
    deferring: assembled.deferring,
    delivery: assembled.delivery.delivery,
    deliveryReason: assembled.delivery.reason,
    mode: assembled.mode.mode,
    modeReason: assembled.mode.reason,
    killedAtOpen: session.settings.runtime.disabledTools,
    killSwitch: (tool: Tool) => deps.killSwitch?.(tool, session),
    discovered,
    deny: session.settings.permissions.deny,
    hasOutputSchema: session.settings.outputSchema !== null,
  };
}
