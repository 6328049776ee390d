/**
 * `toolpool/assemble`: the session's settings and the daemon's runtime facts turned into the input
 * of the pure `assembleRequest`, and its answer into the protocol result. Remembers the transcript's
 * discovered set on the session for ExecuteExtraTool.
 */
import { assembleRequest, sessionDelivery, type AssembledRequest, type AssembleSettings } from "../assembly/assemble-request.ts";
import type { Tool } from "../tool/tool.ts";
import { experimentalBetasDisabled } from "../deferral/mode-setting.ts";
import type { Session } from "../session/session.ts";
import type { SessionToolDeps } from "./session-tools.ts";
import { sessionTools } from "./session-tools.ts";
import type { DaemonState } from "./state.ts";

export function assembleForSession(
  state: DaemonState,
  deps: SessionToolDeps,
  session: Session,
  messages: readonly unknown[],
  system?: unknown,
  /** False for a look at the array (MCP tools/list): it sends no transcript, so it must not reset the discovered set. */
  remember = true,
): AssembledRequest & { sessionId: string } {
  const own = sessionTools(session, deps);
  const assembled = assembleRequest({
    settings: assembleSettings(state, session),
    // StructuredOutput goes last: it is the session's own, so it never shifts a pool tool.
    tools: own.structuredOutput ? [...withoutKilled(state.pool().tools, session), own.structuredOutput] : withoutKilled(state.pool().tools, session),
    messages,
    ...(system !== undefined && { system }),
    metaTools: () => ({ toolSearch: own.toolSearch, executeExtraTool: own.executeExtraTool }),
    pendingServers: deps.pendingServers(),
    schemaCache: session.serializedTools,
    promoted: own.promoted,
  });
  deps.usage?.assembled(session, assembled);
  if (remember) session.discovered = new Set(assembled.discovered);
  for (const warning of assembled.warnings) state.logger.warn("session setting fell back to a default", { session: session.id, warning });
  state.logger.debug("assembled", {
    session: session.id,
    mode: assembled.mode.mode,
    modeReason: assembled.mode.reason,
    delivery: assembled.delivery.delivery,
    deliveryReason: assembled.delivery.reason,
    counts: assembled.counts,
  });
  return { sessionId: session.id, ...assembled };
}

export function assembleSettings(state: DaemonState, session: Session): AssembleSettings {
  const settings = session.settings;
  return {
    model: settings.model,
    provider: settings.provider,
    baseUrl: settings.baseUrl,
    delivery: settings.delivery,
    format: settings.format,
    toolSearch: settings.toolSearch,
    disableExperimentalBetas: experimentalBetasDisabled(state.settingsDefaults().env),
    contextWindow: settings.contextWindow,
    announcements: settings.announcements,
    unsupportedModels: settings.runtime.unsupportedModels,
    autoPercent: settings.runtime.autoPercent,
  };
}

/** The session's delivery, decided from its settings and the flags it opened with. */
export function deliveryOf(session: Session): "native" | "proxy" | "standard" {
  return sessionDelivery({ ...session.settings, unsupportedModels: session.settings.runtime.unsupportedModels }).delivery;
}

/** Tools the kill switch had removed when the session opened stay out of its arrays. */
function withoutKilled(tools: readonly Tool[], session: Session): readonly Tool[] {
  const killed = session.settings.runtime.disabledTools;
  return killed.length === 0 ? tools : tools.filter((tool) => !killed.includes(tool.name));
}
