/**
 * One view of a session: what it may use of the live pool (its profile, its project's servers, not
 * the tools the kill switch removed when it opened), and the input its next request is decided
 * from. `toolpool/assemble`, `toolpool/explain`, `toolpool/search`, ToolSearch and the usage
 * history's standard request all read it, so none of them answers from the whole pool while another
 * answers from the session's (each such drift has a test in test/core/session-view.test.ts).
 */
import type { AssembleInput, AssembleSettings } from "../assembly/assemble-request.ts";
import type { Pool } from "../pool/assemble.ts";
import { profileMatcher } from "../pool/profile.ts";
import type { Session, SessionOwnTools } from "../session/session.ts";
import type { Tool } from "../tool/tool.ts";
import { sessionTools, type SessionToolDeps } from "./session-tools.ts";

export interface SessionViewDeps {
  tools: SessionToolDeps;
  /** DISABLE_EXPERIMENTAL_BETAS, read from the daemon's environment. */
  experimentalBetasDisabled: boolean;
  /** The config's `maxToolsInArray`: no request's tools array is longer (assembly/array-guard.ts). */
  maxToolsInArray?: number;
}

export interface SessionView {
  readonly session: Session;
  readonly own: SessionOwnTools;
  /** The live pool through the session's profile and project filter (lookups, searches). */
  readonly pool: Pool;
  /** What its arrays and its standard request are built from: `pool` without the tools killed at open. */
  readonly tools: readonly Tool[];
  /** Why a tool of the live pool is not this session's (its profile, another project); undefined when it is. */
  outside(tool: Tool): string | undefined;
  /** The input of the pure `assembleRequest` for the session's next request. */
  request(
    messages: readonly unknown[],
    options?: { system?: unknown; schemaCache?: AssembleInput["schemaCache"]; fixedTools?: AssembleInput["fixedTools"]; withdrawn?: AssembleInput["withdrawn"] },
  ): AssembleInput;
}

export function sessionView(deps: SessionViewDeps, session: Session): SessionView {
  const own = sessionTools(session, deps.tools);
  const pool = own.view(deps.tools.pool());
  const killed = session.settings.runtime.disabledTools;
  const tools = killed.length === 0 ? pool.tools : pool.tools.filter((tool) => !killed.includes(tool.name));
  return {
    session,
    own,
    pool,
    tools,
    outside: (tool) => outsideSession(own, session, deps.tools, tool),
    request: (messages, options = {}) => ({
      settings: assembleSettings(session, deps.experimentalBetasDisabled, deps.maxToolsInArray),
      // StructuredOutput goes last: it is the session's own, so it never shifts a pool tool.
      tools: own.structuredOutput ? [...tools, own.structuredOutput] : tools,
      messages,
      ...(options.system !== undefined && { system: options.system }),
      metaTools: () => ({ toolSearch: own.toolSearch, executeExtraTool: own.executeExtraTool }),
      pendingServers: deps.tools.pendingServers(),
      ...(session.settings.announcements === "servers" && deps.tools.serverInstructions && { serverInstructions: deps.tools.serverInstructions() }),
      ...(options.schemaCache && { schemaCache: options.schemaCache }),
      promoted: own.promoted,
      // Only an assemble pins mid-conversation's fixed array: a look (explain) must not.
      ...(options.fixedTools && { fixedTools: options.fixedTools }),
      ...(options.withdrawn && { withdrawn: options.withdrawn }),
      ...(deps.tools.operatorDeferred && { operatorDeferred: deps.tools.operatorDeferred() }),
    }),
  };
}

function outsideSession(own: SessionOwnTools, session: Session, deps: SessionToolDeps, tool: Tool): string | undefined {
  if (own.admits(tool)) return undefined;
  const profile = session.settings.profile;
  if (profile && !profileMatcher(profile)(tool)) return `${tool.name} is outside the session's tool profile "${profile.name}"`;
  const server = tool.mcpInfo?.server;
  const project = server === undefined ? undefined : deps.serverProject?.(server);
  return `${tool.name} comes from MCP server ${server} of the project ${project}, which is not one of this session's workspace roots`;
}

/** The session's settings as the pure assembly reads them. */
export function assembleSettings(session: Session, disableExperimentalBetas: boolean, maxToolsInArray?: number): AssembleSettings {
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
    ...(maxToolsInArray !== undefined && { maxToolsInArray }),
  };
}
