/**
 * The tool-count guard at the tools array itself, for every delivery. A provider refuses a request
 * whose `tools[]` is longer than its hard limit (128 for some, 512 for others: the config's
 * `maxToolsInArray`), and the pool's own guard (deferral/eager-policy.ts) only bounds what is eager
 * in the pool. What a request sends can still be longer:
 *
 * - standard delivery (or a mode that defers nothing) sends every tool: over the limit, the request
 *   defers instead — the session's own deferring delivery, or proxy when it asked for standard or
 *   experimental betas are off — so core tools and ToolSearch stay and the rest is found by search;
 * - a session's promoted tools join the core: the core is cut to the room the meta-tools leave;
 * - native adds each discovered tool (with `defer_loading`), mid-conversation every deferred tool in
 *   its fixed array: each is cut to the room left, in pool order;
 * - mid-conversation with inline tools adds tools by value (`tool_definition`) as they are loaded:
 *   the fixed array plus every tool loaded by value stays within the limit (mid-conversation.ts).
 *
 * Entries sent with `defer_loading` are counted too: the limit is the operator's word for what the
 * endpoint takes, and one that counts them must never see more (raise `maxToolsInArray` for one
 * that does not). Every cut is named in a warning, so the log, `toolpool/assemble` and explain show it.
 */
import type { Delivery, DeliveryDecision } from "../deferral/delivery.ts";
import { DEFAULT_MAX_TOOLS_IN_ARRAY, definitionChars, MAX_EAGER_MCP_CHARS } from "../deferral/eager-policy.ts";
import type { Tool } from "../tool/tool.ts";

export { DEFAULT_MAX_TOOLS_IN_ARRAY };

/** Meta-tools each deferring delivery adds to the array. */
export function metaToolCount(delivery: Exclude<Delivery, "standard">): number {
  return delivery === "proxy" ? 2 : 1;
}

/**
 * Bytes of tool definitions (definitionChars: UTF-8, as the line carries them) a request that sends every tool (standard) may carry: past it, it
 * defers as it does over the count (60 tools of 250K-character schemas, each inside every per-tool
 * limit, made every standard request 15 MB, over the 8 MiB line a client reads it in).
 */
export const MAX_ARRAY_CHARS = 2 * MAX_EAGER_MCP_CHARS;

/**
 * Standard delivery over the limit (the tools' count, or `chars` of their definitions past
 * MAX_ARRAY_CHARS): the delivery that defers instead, or undefined when every tool fits (or nothing
 * could be deferred, which the core cut below still bounds).
 */
export function overLimitDelivery(toolCount: number, limit: number, transport: DeliveryDecision, betasDisabled: boolean, chars = 0): DeliveryDecision | undefined {
  if (toolCount <= limit && chars <= MAX_ARRAY_CHARS) return undefined;
  const delivery = betasDisabled || transport.delivery === "standard" ? "proxy" : transport.delivery;
  return { delivery, reason: "tool_limit" };
}

/**
 * A request that would send every tool (standard delivery, `toolSearch: false`, tst-auto below its
 * threshold) while the operator's config defers some of them always (`defer: "always"`, per tool or
 * per server): it defers instead, as over the limit. Sending them in full let a session's own
 * settings undo the operator's, which sessions may only narrow.
 */
export function operatorDeferDelivery(operatorDeferred: number, transport: DeliveryDecision, betasDisabled: boolean): DeliveryDecision | undefined {
  if (operatorDeferred === 0) return undefined;
  return { delivery: betasDisabled || transport.delivery === "standard" ? "proxy" : transport.delivery, reason: "operator_defer" };
}

/** Names kept and names cut when `items` must fit in `room` (in order: the first ones stay). */
export function cutToRoom<T>(items: readonly T[], room: number): { kept: T[]; cut: T[] } {
  const at = Math.max(0, room);
  return { kept: items.slice(0, at), cut: items.slice(at) };
}

/**
 * Bytes of deferred tools' definitions (definitionChars) one request carries in full in its array (native's
 * discovered tools, mid-conversation's fixed array), beside the eager ones (eager-policy.ts bounds
 * those alike): 60 deferred tools of 250K-character schemas made every mid-conversation request
 * 15 MB, and 40 discovered ones a native request 10 MB, over the 8 MiB line a client reads it in.
 */
export const MAX_DEFERRED_ARRAY_CHARS = MAX_EAGER_MCP_CHARS;

/** Tools kept and tools cut when their definitions must fit in `budget` bytes (definitionChars) (in order: a tool that does not fit is cut, a later smaller one may stay). */
export function cutToChars<T extends Pick<Tool, "description" | "inputJSONSchema">>(items: readonly T[], budget: number = MAX_DEFERRED_ARRAY_CHARS): { kept: T[]; cut: T[] } {
  const kept: T[] = [];
  const cut: T[] = [];
  let used = 0;
  for (const item of items) {
    const chars = definitionChars(item);
    if (used + chars <= budget) {
      kept.push(item);
      used += chars;
    } else cut.push(item);
  }
  return { kept, cut };
}

/** The size cut's warning: which tools' definitions did not fit in MAX_DEFERRED_ARRAY_CHARS. */
export function sizeWarningText(what: string, names: readonly string[]): string {
  const shown = names.slice(0, 10).join(", ");
  return `${TOOLS_ARRAY_LIMIT} (${MAX_DEFERRED_ARRAY_CHARS / (1024 * 1024)} MiB of deferred tool definitions): ${names.length} ${what}: ${shown}${names.length > 10 ? ", …" : ""}`;
}

/** Every warning of this guard opens with it (the daemon logs them apart from settings' fallbacks). */
export const TOOLS_ARRAY_LIMIT = "tools array limit";

export function guardWarningText(limit: number, what: string, names: readonly string[]): string {
  const shown = names.slice(0, 10).join(", ");
  return `${TOOLS_ARRAY_LIMIT} (maxToolsInArray ${limit}): ${names.length} ${what}: ${shown}${names.length > 10 ? ", …" : ""}`;
}
