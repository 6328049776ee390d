/**
 * `mid-conversation` delivery (Anthropic): the request's `tools[]` is fixed when the session first
 * assembles and keeps the same bytes for the session's life, so the cached prefix (system, tools,
 * earlier messages) survives every discovery and every server that leaves. What changes travels as
 * a `role: "system"` message of `tool_addition` / `tool_removal` blocks (tool-change-blocks.ts),
 * which the client inserts at `index` and keeps in the transcript.
 *
 * Fixed layout: core tools (pool order) + ToolSearch + every deferred tool with `defer_loading:
 * true`, so an addition can name it by reference. With the inline-tools beta the deferred entries
 * are left out and every deferred tool is added by value (`tool_definition`), which also reaches
 * tools that joined the pool after the session opened; without it such a tool cannot be added and a
 * warning says so.
 *
 * What is loaded is rebuilt from the transcript alone (scan-transcript.ts: the last change for a
 * name wins; core tools start loaded, deferred ones not), so a restarted daemon or another
 * connection derives the same changes. A tool is wanted loaded when it is in the pool now (not
 * killed, in the profile) and is core or was discovered; the difference is the message.
 */
import { isMetaToolName } from "../deferral/meta-tools.ts";
import type { Tool } from "../tool/tool.ts";
import { INLINE_TOOLS_BETA, MID_CONVERSATION_TOOLS_BETA, toolChangeMessage, toolDefinition, toolReference, type ToolChangeMessage, type ToolChangeTarget } from "./tool-change-blocks.ts";
import type { AnthropicWireTool, WireFacts } from "./wire-format.ts";
import { cutToChars, cutToRoom, guardWarningText, sizeWarningText } from "./array-guard.ts";

/** The names a session's fixed `tools[]` holds, pinned on first use (kept by the session). */
export interface FixedToolSet {
  core: string[];
  /** Sent with `defer_loading: true`; empty with the inline-tools beta. */
  deferred: string[];
  /** Entries cut when a lowered maxToolsInArray re-pinned the array. */
  cut?: string[];
}

/** A holder the session keeps; `pinned` is written once. */
export interface FixedToolHolder {
  pinned?: FixedToolSet;
  /** The tools loaded once the last request's change is applied (fixed entries and those added by value): what the provider holds. */
  loaded?: readonly string[];
}

export interface MidConversationInput {
  /** Pool tools now, after profile and kill switch, in pool order; meta-tools excluded. */
  core: readonly Tool[];
  deferred: readonly Tool[];
  toolSearch: WireFacts;
  /** Names the transcript discovered, and its last tool change per name (scan-transcript.ts). */
  discovered: ReadonlySet<string>;
  toolChanges: ReadonlyMap<string, boolean>;
  messageCount: number;
  inline: boolean;
  /** The tools array limit (array-guard.ts): a new fixed array's deferred entries are cut to the room core and ToolSearch leave. */
  maxTools?: number;
  holder?: FixedToolHolder;
  /**
   * A tool's wire definition with the session's pinned bytes: `current` when the pool has it, else
   * the pinned bytes alone (a tool that left still holds its place in the fixed array).
   */
  emit: (name: string, current: WireFacts | undefined, deferLoading: boolean) => AnthropicWireTool | undefined;
}

export interface ToolChanges {
  /** Insert `message` into the messages at `index` (always after the newest message) and keep it. */
  index: number;
  message: ToolChangeMessage;
  added: string[];
  removed: string[];
}

export interface MidConversationResult {
  tools: AnthropicWireTool[];
  toolChanges: ToolChanges | null;
  betas: string[];
  /** Tools loaded once the change is applied, sorted. */
  loaded: string[];
  warnings: string[];
}

export function assembleMidConversation(input: MidConversationInput): MidConversationResult {
  const warnings: string[] = [];
  const room = input.maxTools === undefined ? Infinity : input.maxTools - input.core.length - 1;
  // A new fixed array's deferred entries: the room core and ToolSearch leave, then their definitions' size.
  const sized = input.holder?.pinned !== undefined || input.inline ? undefined : cutToChars(input.deferred.slice(0, Math.max(0, room)));
  let fixed = input.holder?.pinned ?? {
    core: input.core.map((tool) => tool.name),
    deferred: sized === undefined ? [] : sized.kept.map((tool) => tool.name),
  };
  // A fixed array pinned under a higher limit (maxToolsInArray lowered by a reload) is cut to the new
  // one: a request the provider refuses ends the conversation, a cut only restarts its prompt cache.
  // Loaded entries stay before the others; a loaded one cut is removed below (tool_removal).
  if (input.maxTools !== undefined && fixed.core.length + 1 + fixed.deferred.length > input.maxTools) {
    const core = cutToRoom(fixed.core, input.maxTools - 1);
    const loadedFirst = [...fixed.deferred.filter((name) => input.toolChanges.get(name) === true), ...fixed.deferred.filter((name) => input.toolChanges.get(name) !== true)];
    const keep = new Set(cutToRoom(loadedFirst, input.maxTools - 1 - core.kept.length).kept);
    const cut = [...core.cut, ...fixed.deferred.filter((name) => !keep.has(name))];
    warnings.push(guardWarningText(input.maxTools, "entries cut from the fixed array pinned under a higher limit (its prompt cache starts again)", cut));
    fixed = { core: core.kept, deferred: fixed.deferred.filter((name) => keep.has(name)), cut: [...(fixed.cut ?? []), ...cut] };
    if (input.holder) input.holder.pinned = fixed;
  }
  if (input.holder?.pinned === undefined && !input.inline && input.deferred.length > room) {
    warnings.push(`tools array limit (maxToolsInArray ${input.maxTools}): ${input.deferred.length - Math.max(0, room)} deferred tool(s) left out of the fixed array; without the ${INLINE_TOOLS_BETA} beta (inlineTools) they cannot be added`);
  }
  if (sized !== undefined && sized.cut.length > 0) {
    warnings.push(sizeWarningText(`deferred tool(s) left out of the fixed array; without the ${INLINE_TOOLS_BETA} beta (inlineTools) they cannot be added`, sized.cut.map((tool) => tool.name)));
  }
  if (input.holder && input.holder.pinned === undefined) input.holder.pinned = fixed;
  const now = new Map<string, Tool>();
  for (const tool of [...input.core, ...input.deferred]) now.set(tool.name, tool);

  const tools: AnthropicWireTool[] = [];
  const push = (name: string, deferLoading: boolean) => {
    const wire = input.emit(name, now.get(name), deferLoading);
    if (wire) tools.push(wire);
    else warnings.push(`${name} left the pool and its pinned definition is gone (a restarted daemon): the fixed tools array lost it`);
  };
  for (const name of fixed.core) push(name, false);
  const search = input.emit(input.toolSearch.name, input.toolSearch, false);
  if (search) tools.push(search);
  for (const name of fixed.deferred) push(name, true);

  const inArray = new Set([...fixed.core, ...fixed.deferred]);
  const coreNames = new Set([...fixed.core, ...input.core.map((tool) => tool.name)]);
  const candidates = [...new Set([...fixed.core, ...fixed.deferred, ...now.keys(), ...input.toolChanges.keys()])];
  /** Wanted tools outside the fixed array, so loaded by value (`tool_definition`): each is one more tool the provider holds. */
  const byValue: { name: string; wasLoaded: boolean }[] = [];
  const decided: { name: string; wanted: boolean; wasLoaded: boolean }[] = [];
  for (const name of candidates) {
    if (isMetaToolName(name)) continue;
    const wasLoaded = input.toolChanges.get(name) ?? fixed.core.includes(name);
    const current = now.get(name);
    const reachable = inArray.has(name) || input.inline;
    const wanted = current !== undefined && (coreNames.has(name) || input.discovered.has(name));
    if (wanted && !reachable && !wasLoaded) {
      const why = fixed.cut?.includes(name) === true ? "was cut from the fixed array when maxToolsInArray was lowered" : "joined the pool after the session opened";
      warnings.push(`${name} ${why}; without the ${INLINE_TOOLS_BETA} beta (inlineTools) it cannot be added mid-conversation`);
      continue;
    }
    if (wanted && !inArray.has(name)) byValue.push({ name, wasLoaded });
    decided.push({ name, wanted, wasLoaded });
  }
  // Tools added by value count against the tools array limit as the fixed entries do: the provider
  // holds them beside tools[] for the rest of the conversation. Those already loaded keep their
  // place first (then the new ones, core before discovered, in pool order); past the room left,
  // a new one is not added and a loaded one is removed (the limit was lowered), with a warning.
  const valueRoom = input.maxTools === undefined ? Infinity : Math.max(0, input.maxTools - tools.length);
  const ordered = [...byValue.filter((entry) => entry.wasLoaded), ...byValue.filter((entry) => !entry.wasLoaded && coreNames.has(entry.name)), ...byValue.filter((entry) => !entry.wasLoaded && !coreNames.has(entry.name))];
  const overLimit = new Set(ordered.slice(valueRoom).map((entry) => entry.name));
  if (overLimit.size > 0) warnings.push(guardWarningText(input.maxTools!, "tool(s) not added mid-conversation (the fixed array and the tools already added by value fill it)", [...overLimit]));
  // This request's new definitions by value are sized too: 40 tools of 250K-character schemas
  // selected at once made a 10 MB request, refused at the client's line, and so every request after it.
  const fresh = ordered.filter((entry) => !entry.wasLoaded && !overLimit.has(entry.name)).map((entry) => now.get(entry.name)!);
  const tooLarge = new Set(cutToChars(fresh).cut.map((tool) => tool.name));
  if (tooLarge.size > 0) warnings.push(sizeWarningText("tool(s) not added by this request (the next ones add them, as room allows)", [...tooLarge]));
  const additions: ToolChangeTarget[] = [];
  const added: string[] = [];
  const removed: string[] = [];
  const loaded: string[] = [];
  for (const { name, wasLoaded, ...rest } of decided) {
    const wanted = rest.wanted && !overLimit.has(name) && !tooLarge.has(name);
    if (wanted && !wasLoaded) {
      const definition = inArray.has(name) ? undefined : input.emit(name, now.get(name), false);
      additions.push(definition ? toolDefinition(definition) : toolReference(name));
      added.push(name);
    } else if (!wanted && wasLoaded) removed.push(name);
    if (wanted) loaded.push(name);
  }

  const toolChanges =
    additions.length + removed.length === 0
      ? null
      : { index: input.messageCount, message: toolChangeMessage(additions, removed), added, removed };
  if (input.holder) input.holder.loaded = loaded;
  return { tools, toolChanges, betas: betasFor(input.inline), loaded: loaded.sort(), warnings };
}

/** Both betas with inline tools (its by-value additions sit beside by-reference removals). */
function betasFor(inline: boolean): string[] {
  return inline ? [MID_CONVERSATION_TOOLS_BETA, INLINE_TOOLS_BETA] : [MID_CONVERSATION_TOOLS_BETA];
}
