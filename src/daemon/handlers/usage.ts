/** `toolpool/stats` and `toolpool/history/clear`: reading and clearing the usage history. */
import { Method } from "../../protocol/method-names.ts";
import type { ToolPoolCore } from "../../core/tool-pool-core.ts";
import type { Dispatcher } from "../dispatcher.ts";

/** What the usage methods use of the core (it opens the history on the first request that needs it). */
export type UsageCore = Pick<ToolPoolCore, "usageStats" | "clearHistory">;

export function registerUsageMethods(dispatcher: Dispatcher, core: UsageCore): void {
  dispatcher.register(Method.Stats, (params) => core.usageStats(params));
  dispatcher.register(Method.HistoryClear, (params) => core.clearHistory(params.workspace ?? null));
}
