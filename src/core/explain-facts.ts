/**
 * `toolpool/explain`'s facts: what the pure `explainTool` needs — the pool, what was offered before
 * the config's deny rules, server states and logins, and the session's view (session-view.ts: its
 * profile, and the same request input its next assemble decides from, so explain's deferral is
 * assemble's). Reads only: explaining never opens a session or starts a server.
 */
import { assembleRequest } from "../assembly/assemble-request.ts";
import type { BuildInfo } from "../build-info.ts";
import { explainTool, type ExplainInput, type ExplainSession } from "../explain/explain-tool.ts";
import type { ServerFacts } from "../explain/server-decision.ts";
import type { Discovery, Explanation } from "../protocol/explain.ts";
import type { Pool } from "../pool/assemble.ts";
import type { Tool } from "../tool/tool.ts";
import type { Session } from "../session/session.ts";
import type { SessionView } from "./session-view.ts";
import type { SandboxState } from "../sandbox/command-sandbox.ts";

export interface ExplainDeps {
  info: BuildInfo;
  pool: Pool;
  /** Every tool offered before the config's deny rules: built-ins, and MCP tools as listed. */
  offered: readonly Tool[];
  configDeny: { rules: readonly string[]; source: string };
  /** The config's `defer` settings, so explain names the setting that decided a tool. */
  deferPolicy?: ExplainInput["deferPolicy"];
  servers: readonly ServerFacts[];
  killSwitch: (tool: Tool, session: Session) => string | undefined;
  /** Pool names close to a name that matched nothing. */
  suggest: (name: string) => string[];
}

/** `sandbox`: the Bash sandbox's state, when the daemon has one (explain says whether commands run confined). */
export function explainForSession(deps: ExplainDeps, name: string, view: SessionView | undefined, sandbox?: SandboxState): Explanation {
  return explainTool({
    name,
    tier: { name: deps.info.tier, features: deps.info.features },
    pool: deps.pool,
    offered: deps.offered,
    configDeny: deps.configDeny,
    ...(deps.deferPolicy && { deferPolicy: deps.deferPolicy }),
    servers: deps.servers,
    session: view && sessionFacts(deps, view),
    ...(sandbox && { sandbox }),
    suggest: deps.suggest,
  });
}

function sessionFacts(deps: ExplainDeps, view: SessionView): ExplainSession {
  const { session, own } = view;
  // The decision the next toolpool/assemble makes (mode and delivery depend on the session's tools
  // and settings, not the transcript); no schema cache, so looking pins nothing.
  const assembled = assembleRequest(view.request([]));
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
    outside: view.outside,
    killSwitch: (tool: Tool) => deps.killSwitch(tool, session),
    discovered,
    promoted: own.promoted,
    deny: session.settings.permissions.deny,
    hasOutputSchema: session.settings.outputSchema !== null,
  };
}
