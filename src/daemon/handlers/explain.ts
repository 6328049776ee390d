/**
 * `toolpool/explain`: gathers what the pure `explainTool` needs from the core — the pool, what
 * was offered before deny rules, server states, and the session's delivery and discoveries — and
 * returns its chain of decisions. Reads only: explaining never opens a session or starts a server.
 */
import { assembleRequest } from "../../assembly/assemble-request.ts";
import { explainTool, type ExplainSession } from "../../explain/explain-tool.ts";
import type { Discovery } from "../../protocol/explain.ts";
import { Method } from "../../protocol/method-names.ts";
import type { Session } from "../../session/session.ts";
import type { Tool } from "../../tool/tool.ts";
import { assembleSettings } from "../../core/assemble-tools.ts";
import { sessionTools } from "../../core/session-tools.ts";
import type { ToolPoolCore } from "../../core/tool-pool-core.ts";
import type { Dispatcher } from "../dispatcher.ts";
import { unknownSession } from "./harness.ts";
import type { SandboxState } from "../../sandbox/command-sandbox.ts";

function withSandbox(state: SandboxState | undefined): { sandbox?: SandboxState } {
  return state ? { sandbox: state } : {};
}

/** What explain reads of the core. */
export type ExplainCore = Pick<
  ToolPoolCore,
  "info" | "pool" | "config" | "mcp" | "search" | "sessions" | "sessionToolDeps" | "explainSources" | "killSwitch" | "experimentalBetasDisabled"
>;

export function registerExplainMethod(dispatcher: Dispatcher, core: ExplainCore, sandbox: () => SandboxState | undefined = () => undefined): void {
  dispatcher.register(Method.Explain, (params, { connection }) => {
    const session = pickSession(core, params.sessionId, connection.sessionId);
    const { offered, configPath } = core.explainSources();
    return explainTool({
      name: params.name,
      tier: { name: core.info.tier, features: core.info.features },
      pool: core.pool(),
      offered,
      configDeny: { rules: core.config().permissions?.deny ?? [], source: configPath ?? "the config" },
      servers: core.mcp()?.servers() ?? [],
      session: session && sessionFacts(core, session),
      ...withSandbox(sandbox()),
      suggest: (name) => core.search.index.query(`select:${name}`).didYouMean ?? [],
    });
  });
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

function sessionFacts(core: ExplainCore, session: Session): ExplainSession {
  const deps = core.sessionToolDeps();
  const own = sessionTools(session, deps);
  // The same decision the next toolpool/assemble makes (the mode and delivery depend on the pool and
  // settings, not the transcript); no schema cache, so looking pins nothing.
  const assembled = assembleRequest({
    settings: assembleSettings(session, core.experimentalBetasDisabled()),
    tools: core.pool().tools,
    messages: [],
    metaTools: () => ({ toolSearch: own.toolSearch, executeExtraTool: own.executeExtraTool }),
    pendingServers: deps.pendingServers(),
  });
  const discovered = new Map<string, Discovery>();
  for (const name of session.discovered) discovered.set(name, { via: "transcript" });
  for (const name of session.searched) if (!discovered.has(name)) discovered.set(name, session.found.get(name) ?? { via: "search" });
  return {
    id: session.id,
    deferring: assembled.deferring,
    delivery: assembled.delivery.delivery,
    deliveryReason: assembled.delivery.reason,
    mode: assembled.mode.mode,
    modeReason: assembled.mode.reason,
    killedAtOpen: session.settings.runtime.disabledTools,
    killSwitch: (tool: Tool) => core.killSwitch(tool, session),
    discovered,
    promoted: own.promoted,
    deny: session.settings.permissions.deny,
    hasOutputSchema: session.settings.outputSchema !== null,
  };
}
