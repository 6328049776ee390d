/** `toolpool/stats` and `toolpool/history/clear`: reading and clearing the usage history. */
import { Method } from "../../protocol/method-names.ts";
import type { HistoryClearResult, StatsResult } from "../../protocol/stats-result.ts";
import type { UsageService } from "../../usage/usage-service.ts";
import type { Dispatcher } from "../dispatcher.ts";

/** `usage` opens the history on the first request that needs it. */
export function registerUsageMethods(dispatcher: Dispatcher, service: () => UsageService): void {
  dispatcher.register(
    Method.Stats,
    (params): Promise<StatsResult> =>
      service().stats({ ...(params.sinceMs !== undefined && { sinceMs: params.sinceMs }), ...(params.top !== undefined && { top: params.top }) }),
  );
  dispatcher.register(
    Method.HistoryClear,
    (params): HistoryClearResult => {
      const workspace = params.workspace ?? null;
      return { workspace, removed: service().clear(workspace) };
    },
  );
}
