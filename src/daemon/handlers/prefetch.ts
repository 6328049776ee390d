/**
 * `toolpool/turnStarted` and `toolpool/prefetch`. Registered only in tiers built with PREFETCH:
 * this module, core/prefetch-link.ts and src/prefetch are required inside that feature() branch,
 * so lite has none of them.
 */
import { prefetchParams } from "../../protocol/methods.ts";
import { PrefetchLink } from "../../core/prefetch-link.ts";
import { Method } from "../../protocol/method-names.ts";
import type { Dispatcher } from "../dispatcher.ts";
import type { SessionBinding } from "../state.ts";
import type { ToolPoolCore } from "../../core/tool-pool-core.ts";

/** What prefetch uses of the core. */
export type PrefetchCore = Pick<ToolPoolCore, "prefetchDeps" | "logger">;

export function registerPrefetchMethods(dispatcher: Dispatcher, core: PrefetchCore, wire: SessionBinding): void {
  const link = new PrefetchLink(core.prefetchDeps());
  dispatcher.onNotification(Method.TurnStarted, (params, connection) => {
    const parsed = prefetchParams.safeParse(params);
    if (!parsed.success) return;
    const ignored = (error: unknown) => core.logger.warn("turnStarted ignored", { error: (error as Error).message });
    try {
      link.turnStarted(wire.sessionFor(connection, parsed.data.sessionId), parsed.data.messages).catch(ignored);
    } catch (error) {
      ignored(error);
    }
  });
  dispatcher.register(Method.TurnStarted, async (params, { connection }) => {
    await link.turnStarted(wire.sessionFor(connection, params.sessionId), params.messages);
    return { started: true };
  });
  dispatcher.register(Method.Prefetch, (params, { connection }) => link.prefetch(wire.sessionFor(connection, params.sessionId), params.messages));
}
