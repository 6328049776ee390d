/**
 * `toolpool/assemble` for one session: its settings and the core's runtime facts turned into the
 * input of the pure `assembleRequest`. Remembers the transcript's discovered set on the session for
 * ExecuteExtraTool.
 */
import { assembleRequest, type AssembledRequest, type AssembleSettings } from "../assembly/assemble-request.ts";
import type { Tool } from "../tool/tool.ts";
import type { Pool } from "../pool/assemble.ts";
import type { Session } from "../session/session.ts";
import type { Logger } from "../runtime/logger.ts";
import { sessionTools, type SessionToolDeps } from "./session-tools.ts";
import type { Metrics } from "../telemetry/metrics.ts";
import type { DaemonUsage } from "../usage/daemon-usage.ts";
import { tokensSavedEvent } from "../telemetry/tokens-saved.ts";

export interface AssembleDeps {
  tools: SessionToolDeps;
  pool: () => Pool;
  logger: Logger;
  /** DISABLE_EXPERIMENTAL_BETAS, read from the daemon's environment. */
  experimentalBetasDisabled: boolean;
  /** The kill switch now (mid-conversation delivery withdraws what it names with tool_removal). */
  killSwitch?: (tool: Tool, session: Session) => string | undefined;
  metrics?: Metrics;
  usage?: DaemonUsage<Session>;
}

export function assembleForSession(
  deps: AssembleDeps,
  session: Session,
  messages: readonly unknown[],
  system?: unknown,
  /** False for a look at the array (MCP tools/list): it sends no transcript, so it must not reset the discovered set. */
  remember = true,
): AssembledRequest & { sessionId: string } {
  const own = sessionTools(session, deps.tools);
  const poolTools = withoutKilled(own.view(deps.pool()).tools, session);
  const assembled = assembleRequest({
    settings: assembleSettings(session, deps.experimentalBetasDisabled),
    // StructuredOutput goes last: it is the session's own, so it never shifts a pool tool.
    tools: own.structuredOutput ? [...poolTools, own.structuredOutput] : poolTools,
    messages,
    ...(system !== undefined && { system }),
    metaTools: () => ({ toolSearch: own.toolSearch, executeExtraTool: own.executeExtraTool }),
    pendingServers: deps.tools.pendingServers(),
    ...(session.settings.announcements === "servers" && deps.tools.serverInstructions && { serverInstructions: deps.tools.serverInstructions() }),
    schemaCache: session.serializedTools,
    promoted: own.promoted,
    fixedTools: session.fixedTools,
    ...(deps.killSwitch && session.settings.delivery === "mid-conversation" && { withdrawn: killedNow(poolTools, session, deps.killSwitch) }),
  });
  deps.usage?.assembled(session, assembled);
  const saved = deps.metrics?.enabled ? tokensSavedEvent(assembled, deps.pool().tools) : undefined;
  if (saved) deps.metrics?.tokensSaved(saved);
  if (remember) session.discovered = new Set(assembled.discovered);
  for (const warning of assembled.warnings) deps.logger.warn("session setting fell back to a default", { session: session.id, warning });
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

export function assembleSettings(session: Session, disableExperimentalBetas: boolean): AssembleSettings {
  const settings = session.settings;
  return {
    model: settings.model,
    provider: settings.provider,
    baseUrl: settings.baseUrl,
    delivery: settings.delivery,
    ...(settings.inlineTools && { inlineTools: true }),
    format: settings.format,
    toolSearch: settings.toolSearch,
    disableExperimentalBetas,
    contextWindow: settings.contextWindow,
    announcements: settings.announcements,
    unsupportedModels: settings.runtime.unsupportedModels,
    autoPercent: settings.runtime.autoPercent,
  };
}

function killedNow(tools: readonly Tool[], session: Session, killSwitch: NonNullable<AssembleDeps["killSwitch"]>): ReadonlySet<string> {
  return new Set(tools.filter((tool) => killSwitch(tool, session) !== undefined).map((tool) => tool.name));
}

/** Tools the kill switch had removed when the session opened stay out of its arrays. */
function withoutKilled(tools: readonly Tool[], session: Session): readonly Tool[] {
  const killed = session.settings.runtime.disabledTools;
  return killed.length === 0 ? tools : tools.filter((tool) => !killed.includes(tool.name));
}
