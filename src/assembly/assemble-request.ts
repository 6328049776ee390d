/**
 * `assembleRequest`: everything a client needs for one model request — the tools array in the
 * session's format, the announcement to insert, beta headers, and the decisions behind them with
 * their reasons. A pure function of the session's settings, the pool, the transcript and the
 * pending servers: the same inputs give byte-identical output, so no hidden state is needed and a
 * restarted daemon answers exactly as before. The only thing it writes is the optional schema
 * cache, which pins each tool's bytes for the session (schema-cache.ts).
 *
 * Array layout, chosen for the prompt cache (core tools first, in pool order, never reordered by a
 * discovery or a server change):
 *   standard: every enabled tool, in full.
 *   native:   core tools + ToolSearch + discovered deferred tools (pool order, `defer_loading`).
 *   proxy:    core tools + ToolSearch + ExecuteExtraTool — the same bytes on every request.
 *   mid-conversation: fixed when the session first assembles (mid-conversation.ts); changes travel
 *             as system messages of tool_addition / tool_removal blocks (`toolChanges`).
 */
import { charsPerTokenCounter, countDefinitionTokens, type ToolTokenCounter } from "../deferral/auto-threshold.ts";
import { contextWindowFor } from "../deferral/context-windows.ts";
import { decideMode, type ModeDecision } from "../deferral/decide-mode.ts";
import { decideDelivery, type Delivery, type DeliveryDecision, type RequestedDelivery, type WireFormat } from "../deferral/delivery.ts";
import { isDeferredTool } from "../deferral/is-deferred.ts";
import { ADVANCED_TOOL_USE_BETA, isMetaToolName } from "../deferral/meta-tools.ts";
import { parseModeSetting, type ModeSetting } from "../deferral/mode-setting.ts";
import type { Tool } from "../tool/tool.ts";
import { computeDelta, renderList, renderServers, type Announcement, type AnnouncementStyle } from "./announcements.ts";
import { summarizeServers } from "./server-summaries.ts";
import { cutToChars, cutToRoom, DEFAULT_MAX_TOOLS_IN_ARRAY, guardWarningText, MAX_ARRAY_CHARS, metaToolCount, operatorDeferDelivery, overLimitDelivery, sizeWarningText } from "./array-guard.ts";
import { definitionChars } from "../deferral/eager-policy.ts";
import { scanTranscript } from "./scan-transcript.ts";
import { pinDefinition, type SerializedToolCache } from "./schema-cache.ts";
import { assembleMidConversation, type FixedToolHolder, type ToolChanges } from "./mid-conversation.ts";
import { baseWireTool, emitWireTool, type AnthropicWireTool, type OpenAIWireTool, type WireFacts, type WireTool } from "./wire-format.ts";

export interface AssembleSettings {
  model: string;
  /** `anthropic`, `openai`, `other`… — only `anthropic` can get native delivery under `auto`. */
  provider: string;
  baseUrl?: string | null;
  delivery: RequestedDelivery;
  format: WireFormat;
  /** ENABLE_TOOL_SEARCH syntax: `true`, `false`, `auto`, `auto:N`; unset means `true` (tst). */
  toolSearch?: string | undefined;
  /** DISABLE_EXPERIMENTAL_BETAS: standard mode and no beta field or header. */
  disableExperimentalBetas?: boolean;
  /** The session's own context window; else the table in context-windows.ts. */
  contextWindow?: number | null;
  announcements: AnnouncementStyle;
  /** Negative list for native tool references; default `["haiku"]`. */
  unsupportedModels?: readonly string[];
  /** tst-auto's percentage for a bare `auto`; default 10. */
  autoPercent?: number;
  /** Counts deferred-tool tokens for tst-auto and the array's tokens; default 2.5 chars a token. */
  tokenCounter?: ToolTokenCounter;
  /** mid-conversation delivery: add deferred tools by value (the inline-tools beta). */
  inlineTools?: boolean;
  /** The provider's hard limit on the tools array (config `maxToolsInArray`); default 128. Never crossed (array-guard.ts). */
  maxToolsInArray?: number;
}

/** The session's meta-tools for a delivery (built by the ToolSearch / ExecuteExtraTool factories). */
export type MetaToolsFor = (delivery: Exclude<Delivery, "standard">) => { toolSearch: WireFacts; executeExtraTool: WireFacts };

export interface AssembleInput {
  settings: AssembleSettings;
  /** The pool, in pool order (built-ins by name, then MCP tools by name). */
  tools: readonly Tool[];
  /** The transcript as the client will send it, Anthropic Messages or OpenAI chat format. */
  messages: readonly unknown[];
  /** Anthropic's `system` parameter, if the client keeps summaries or attachments there. */
  system?: unknown;
  metaTools: MetaToolsFor;
  /** MCP servers still connecting (their tools will be deferred). */
  pendingServers?: readonly string[];
  /** The session's pinned tool bytes (name → serialized base definition); written on first use. */
  schemaCache?: SerializedToolCache;
  /** MCP servers' `instructions` from initialize, by server name (the `servers` announcement's lines). */
  serverInstructions?: ReadonlyMap<string, string>;
  /** Deferred tools this session sends as core tools (its workspace's most used; fixed per session). */
  promoted?: ReadonlySet<string>;
  /** mid-conversation delivery: the session's fixed tools array, pinned on first use. */
  fixedTools?: FixedToolHolder;
  /** Tools the kill switch refuses now (mid-conversation delivery removes them with tool_removal). */
  withdrawn?: ReadonlySet<string>;
  /** Tools the operator's config defers always (`defer`): a request that would send every tool defers instead. */
  operatorDeferred?: (tool: Tool) => boolean;
}

interface AssembledCommon {
  announcement: Announcement | null;
  /** Beta headers the request needs (`anthropic-beta`). */
  betas: string[];
  /** Whether this request defers anything (false in standard delivery, whatever the mode says). */
  deferring: boolean;
  mode: ModeDecision;
  delivery: DeliveryDecision;
  /** Every tool name the transcript discovered, sorted. */
  discovered: string[];
  counts: {
    /** Pool tools sent in full because they are not deferred (meta-tools not counted). */
    core: number;
    /** Pool tools deferred this request. */
    deferred: number;
    /** Deferred pool tools the transcript has discovered. */
    discovered: number;
    /** Estimated tokens of the tools array, by `toolTokenCounter`. */
    toolTokens: number;
    toolTokenCounter: string;
  };
  /** Problems with the settings that fell back to defaults, for the daemon to log. */
  warnings: string[];
  /** mid-conversation delivery only: the system message to insert (null when nothing changed). */
  toolChanges?: ToolChanges | null;
}

export type AssembledRequest =
  | (AssembledCommon & { format: "anthropic"; tools: AnthropicWireTool[] })
  | (AssembledCommon & { format: "openai"; tools: OpenAIWireTool[] });

export function assembleRequest(input: AssembleInput): AssembledRequest {
  const { settings } = input;
  const format = settings.format;
  const betasDisabled = settings.disableExperimentalBetas === true;
  const counter = settings.tokenCounter ?? charsPerTokenCounter;
  const pending = input.pendingServers ?? [];
  const setting = parseModeSetting(settings.toolSearch, settings.autoPercent);

  const poolTools = input.tools.filter((tool) => tool.isEnabled() && !isMetaToolName(tool.name) && !(input.withdrawn?.has(tool.name) ?? false));
  const promoted = input.promoted;
  const isPromoted = (tool: Tool) => promoted?.has(tool.name) ?? false;
  const deferred = (tool: Tool) => isDeferredTool(tool) && !isPromoted(tool);
  let deferredTools = poolTools.filter(deferred);
  let coreTools = poolTools.filter((tool) => !deferred(tool));
  const limit = settings.maxToolsInArray ?? DEFAULT_MAX_TOOLS_IN_ARRAY;
  const guardWarnings: string[] = [];

  const mode = decideMode({
    setting,
    killSwitch: betasDisabled,
    deferredCount: deferredTools.length,
    serializeDeferred: () => JSON.stringify(deferredTools.map((tool) => baseWireTool(tool, format))),
    contextWindow: contextWindowFor(settings.model, settings.contextWindow),
    counter,
    pendingServers: pending.length,
  });
  const transport = sessionDelivery(settings);
  // A pinned mid-conversation array outlives the mode: the last deferred server leaving must not
  // turn the request into standard delivery and change tools[] (only the kill switch does).
  const pinnedMid = transport.delivery === "mid-conversation" && input.fixedTools?.pinned !== undefined && !betasDisabled;
  const wanted = (mode.deferring || pinnedMid) && transport.delivery !== "standard";
  const allChars = wanted ? 0 : poolTools.reduce((sum, tool) => sum + definitionChars(tool), 0);
  const operatorDeferred = wanted || input.operatorDeferred === undefined ? [] : poolTools.filter(input.operatorDeferred);
  const overLimit = wanted ? undefined : (overLimitDelivery(poolTools.length, limit, transport, betasDisabled, allChars) ?? operatorDeferDelivery(operatorDeferred.length, transport, betasDisabled));
  const deferring = wanted || overLimit !== undefined;
  const delivery: DeliveryDecision = overLimit ?? (deferring
    ? transport
    : { delivery: "standard", reason: transport.delivery === "standard" ? transport.reason : "not_deferring" });
  if (overLimit?.reason === "operator_defer") {
    const names = operatorDeferred.map((tool) => tool.name);
    guardWarnings.push(`config defer "always" names ${names.length} of this session's tools (${names.slice(0, 10).join(", ")}${names.length > 10 ? ", …" : ""}), which a request of every tool in full would send: this request defers with ${overLimit.delivery} delivery`);
  } else if (overLimit !== undefined) {
    const over = poolTools.length > limit ? `maxToolsInArray ${limit}` : `${MAX_ARRAY_CHARS / (1024 * 1024)} MiB of tool definitions`;
    guardWarnings.push(`tools array limit (${over}): ${poolTools.length} tools would be sent in full${poolTools.length > limit ? "" : ` (${allChars} bytes)`}, so this request defers with ${overLimit.delivery} delivery`);
  }
  if (deferring) {
    // Core tools that do not fit beside the meta-tools wait behind ToolSearch; the pool's own ones go first, promoted after.
    const room = limit - metaToolCount(delivery.delivery as Exclude<Delivery, "standard">);
    const ordered = [...coreTools.filter((tool) => !isPromoted(tool)), ...coreTools.filter(isPromoted)];
    const { kept, cut } = cutToRoom(ordered, room);
    if (cut.length > 0) {
      const keptNames = new Set(kept.map((tool) => tool.name));
      coreTools = coreTools.filter((tool) => keptNames.has(tool.name));
      deferredTools = poolTools.filter((tool) => !keptNames.has(tool.name));
      guardWarnings.push(guardWarningText(limit, "core tool(s) deferred", cut.map((tool) => tool.name)));
    }
  }

  const scan = scanTranscript(input.messages, { system: input.system });
  const changed = new Map<string, string>();
  const emit = (tool: WireFacts, deferLoading = false): WireTool => {
    const pinned = pinDefinition(tool, format, input.schemaCache);
    if (pinned.changedTo !== undefined) changed.set(tool.name, pinned.changedTo);
    return emitWireTool(pinned.base, { deferLoading, betasDisabled });
  };

  let discoveredDeferred = deferredTools.filter((tool) => scan.discovered.has(tool.name));
  if (deferring && delivery.delivery === "native") {
    const { kept, cut } = cutToRoom(discoveredDeferred, limit - coreTools.length - 1);
    if (cut.length > 0) guardWarnings.push(guardWarningText(limit, "discovered tool(s) left out of the array (select them again later)", cut.map((tool) => tool.name)));
    const sized = cutToChars(kept);
    if (sized.cut.length > 0) guardWarnings.push(sizeWarningText("discovered tool(s) left out of the array (select them again later)", sized.cut.map((tool) => tool.name)));
    discoveredDeferred = sized.kept;
  }
  const tools: WireTool[] = [];
  let toolChanges: ToolChanges | null | undefined;
  const midBetas: string[] = [];
  const midWarnings: string[] = [];
  if (delivery.delivery === "mid-conversation") {
    const mid = assembleMidConversation({
      core: coreTools,
      deferred: deferredTools,
      toolSearch: input.metaTools("mid-conversation").toolSearch,
      discovered: scan.discovered,
      toolChanges: scan.toolChanges,
      messageCount: input.messages.length,
      inline: settings.inlineTools === true,
      maxTools: limit,
      ...(input.fixedTools && { holder: input.fixedTools }),
      emit: (name, current, deferLoading) => {
        if (current !== undefined) return emit(current, deferLoading) as AnthropicWireTool;
        const bytes = input.schemaCache?.get(name);
        return bytes === undefined ? undefined : (emitWireTool(JSON.parse(bytes) as WireTool, { deferLoading, betasDisabled }) as AnthropicWireTool);
      },
    });
    tools.push(...mid.tools);
    toolChanges = mid.toolChanges;
    if (!betasDisabled) {
      if (mid.tools.some((tool) => tool.defer_loading === true)) midBetas.push(ADVANCED_TOOL_USE_BETA);
      midBetas.push(...mid.betas);
    }
    midWarnings.push(...mid.warnings);
  } else if (delivery.delivery === "standard") {
    for (const tool of poolTools) tools.push(emit(tool));
  } else {
    const meta = input.metaTools(delivery.delivery);
    for (const tool of coreTools) tools.push(emit(tool));
    tools.push(emit(meta.toolSearch));
    if (delivery.delivery === "proxy") tools.push(emit(meta.executeExtraTool));
    else for (const tool of discoveredDeferred) tools.push(emit(tool, true));
  }

  const deferredNames = new Set(deferring ? deferredTools.map((tool) => tool.name) : []);
  const announcement =
    settings.announcements === "list"
      ? deferring ? renderList(deferredNames) : null
      : settings.announcements === "servers"
        ? deferring ? serversAnnouncement(deferredTools, input.serverInstructions, pending) : null
        : computeDelta({ state: scan, deferred: deferredNames, inPool: new Set(poolTools.map((tool) => tool.name)), changed });

  const common: AssembledCommon = {
    announcement,
    betas: deferring && delivery.delivery === "native" && !betasDisabled ? [ADVANCED_TOOL_USE_BETA] : midBetas,
    deferring,
    mode,
    delivery,
    discovered: [...scan.discovered].sort(),
    counts: {
      core: deferring ? coreTools.length : poolTools.length,
      deferred: deferredNames.size,
      discovered: deferring ? discoveredDeferred.length : 0,
      toolTokens: countDefinitionTokens(JSON.stringify(tools), counter),
      toolTokenCounter: counter.label,
    },
    warnings: [...settingWarnings(setting), ...guardWarnings, ...midWarnings],
    ...(toolChanges !== undefined && { toolChanges }),
  };
  return format === "openai"
    ? { ...common, format, tools: tools as OpenAIWireTool[] }
    : { ...common, format, tools: tools as AnthropicWireTool[] };
}

/**
 * The session's delivery before the mode has its say: what the daemon builds the session's
 * ToolSearch and ExecuteExtraTool for. Depends only on settings, so it is fixed for a session.
 */
export function sessionDelivery(settings: Pick<AssembleSettings, "delivery" | "provider" | "baseUrl" | "model" | "format" | "unsupportedModels">): DeliveryDecision {
  return decideDelivery({
    requested: settings.delivery,
    provider: settings.provider,
    baseUrl: settings.baseUrl,
    model: settings.model,
    format: settings.format,
    unsupportedModels: settings.unsupportedModels,
  });
}

/** The `servers` announcement: a line per MCP server of the deferred tools, built-ins by name. */
function serversAnnouncement(deferred: readonly Tool[], instructions: ReadonlyMap<string, string> | undefined, pending: readonly string[]): Announcement | null {
  const mcp = deferred.filter((tool) => tool.mcpInfo !== undefined);
  const summaries = summarizeServers(
    mcp.map((tool) => ({ server: tool.mcpInfo!.server, tool: tool.mcpInfo!.tool, description: tool.description })),
    instructions,
  );
  const groups = new Map<string, Set<string>>();
  const titles = new Map<string, Map<string, string>>();
  for (const tool of mcp) {
    const { server, groups: own = [], groupInfo } = tool.mcpInfo!;
    for (const group of own) {
      groups.set(server, (groups.get(server) ?? new Set()).add(group));
      const title = groupInfo !== undefined && Object.hasOwn(groupInfo, group) ? groupInfo[group]!.title : undefined;
      if (title !== undefined) titles.set(server, (titles.get(server) ?? new Map()).set(group, title));
    }
  }
  const servers = summaries.map((summary) =>
    groups.has(summary.name) ? { ...summary, groups: [...groups.get(summary.name)!].sort(), ...(titles.has(summary.name) && { groupTitles: titles.get(summary.name)! }) } : summary,
  );
  return renderServers({ servers, builtins: deferred.filter((tool) => tool.mcpInfo === undefined).map((tool) => tool.name), pending });
}

function settingWarnings(setting: ModeSetting): string[] {
  return setting.invalid === undefined ? [] : [setting.invalid];
}
