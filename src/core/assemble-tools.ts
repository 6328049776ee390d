/**
 * `toolpool/assemble` for one session: its view (session-view.ts) turned into the input of the pure
 * `assembleRequest`, measured for the usage history and metrics. Remembers the transcript's
 * discovered set on the session for ExecuteExtraTool.
 */
import { TOOLS_ARRAY_LIMIT } from "../assembly/array-guard.ts";
import { assembleRequest, type AssembledRequest } from "../assembly/assemble-request.ts";
import type { Session } from "../session/session.ts";
import type { Tool } from "../tool/tool.ts";
import type { Logger } from "../runtime/logger.ts";
import type { SessionToolDeps } from "./session-tools.ts";
import { sessionView } from "./session-view.ts";
import type { Metrics } from "../telemetry/metrics.ts";
import type { DaemonUsage } from "../usage/daemon-usage.ts";
import { tokensSavedEvent } from "../telemetry/tokens-saved.ts";
import { rememberArray } from "./array-room.ts";

export interface AssembleDeps {
  tools: SessionToolDeps;
  logger: Logger;
  /** DISABLE_EXPERIMENTAL_BETAS, read from the daemon's environment. */
  experimentalBetasDisabled: boolean;
  /** The kill switch now (mid-conversation delivery withdraws what it names with tool_removal). */
  killSwitch?: (tool: Tool, session: Session) => string | undefined;
  metrics?: Metrics;
  usage?: DaemonUsage<Session>;
  /** The config's `maxToolsInArray`. */
  maxToolsInArray?: number;
}

export function assembleForSession(
  deps: AssembleDeps,
  session: Session,
  messages: readonly unknown[],
  system?: unknown,
  /** False for a look at the array (MCP tools/list): it sends no transcript, so it must not reset the discovered set. */
  remember = true,
): AssembledRequest & { sessionId: string } {
  const view = sessionView({ tools: deps.tools, experimentalBetasDisabled: deps.experimentalBetasDisabled, ...(deps.maxToolsInArray !== undefined && { maxToolsInArray: deps.maxToolsInArray }) }, session);
  const withdrawn = deps.killSwitch && session.settings.delivery === "mid-conversation" ? killedNow(view.tools, session, deps.killSwitch) : undefined;
  const assembled = assembleRequest(view.request(messages, { ...(system !== undefined && { system }), schemaCache: session.serializedTools, fixedTools: session.fixedTools, ...(withdrawn && { withdrawn }) }));
  // The standard request it is measured against is the session's own (its profile), not the whole pool's.
  deps.usage?.assembled(session, assembled, view.tools);
  const saved = deps.metrics?.enabled ? tokensSavedEvent(assembled, view.tools) : undefined;
  if (saved) deps.metrics?.tokensSaved(saved);
  if (remember) {
    session.rememberTranscript(new Set(assembled.discovered));
    rememberArray(session, heldBy(assembled, session));
  }
  for (const warning of assembled.warnings) {
    if (warning.startsWith(TOOLS_ARRAY_LIMIT)) deps.logger.warn("the tools array limit changed this request", { session: session.id, warning });
    else deps.logger.warn("session setting fell back to a default", { session: session.id, warning });
  }
  deps.logger.debug("assembled", {
    session: session.id,
    mode: assembled.mode.mode,
    modeReason: assembled.mode.reason,
    delivery: assembled.delivery.delivery,
    deliveryReason: assembled.delivery.reason,
    counts: assembled.counts,
  });
  return { sessionId: session.id, ...assembled };
}

/** Tools the kill switch names now (mid-conversation withdraws them with tool_removal). */
function killedNow(tools: readonly Tool[], session: Session, killSwitch: NonNullable<AssembleDeps["killSwitch"]>): ReadonlySet<string> {
  return new Set(tools.filter((tool) => killSwitch(tool, session) !== undefined).map((tool) => tool.name));
}

/** The tools the provider holds after this request: its tools[], and mid-conversation's tools added by value. */
function heldBy(assembled: AssembledRequest, session: Session): Set<string> {
  const held = new Set<string>(assembled.format === "anthropic" ? assembled.tools.map((tool) => tool.name) : assembled.tools.map((tool) => tool.function.name));
  if (assembled.delivery.delivery === "mid-conversation") for (const name of session.fixedTools.loaded ?? []) held.add(name);
  return held;
}
