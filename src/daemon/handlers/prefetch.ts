/**
 * `toolpool/turnStarted` and `toolpool/prefetch`. Registered only in tiers built with PREFETCH:
 * this module and src/prefetch are required inside that feature() branch, so lite has neither.
 */
import { prefetchParams } from "../../protocol/methods.ts";
import { deliveryOf } from "../../core/session-delivery.ts";
import { Prefetcher, type PrefetcherDeps, type PrefetchSession } from "../../prefetch/prefetcher.ts";
import { Method } from "../../protocol/method-names.ts";
import type { Session } from "../../session/session.ts";
import type { Dispatcher } from "../dispatcher.ts";
import type { SessionBinding } from "../state.ts";
import type { ToolPoolCore } from "../../core/tool-pool-core.ts";
import { sessionTools } from "../../core/session-tools.ts";

/** What prefetch uses of the core. */
export type PrefetchCore = Pick<ToolPoolCore, "search" | "pool" | "ensureServerStarted" | "prefetchMaxResults" | "prefetchEnabled" | "logger" | "sessionToolDeps" | "usage" | "sessions">;

export function registerPrefetchMethods(dispatcher: Dispatcher, core: PrefetchCore, wire: SessionBinding): void {
  const prefetcher = new Prefetcher({
    engine: core.search,
    lookup: (name) => core.pool().get(name),
    warmServer: (server) => core.ensureServerStarted(server),
    maxResults: () => core.prefetchMaxResults(),
    ...usagePrefetch(core),
  });
  const view = (session: Session): PrefetchSession => {
    const delivery = deliveryOf(session);
    const own = sessionTools(session, core.sessionToolDeps());
    return {
      id: session.id,
      // mid-conversation suggests names as native does (no ExecuteExtraTool in its array).
      delivery: delivery === "native" || delivery === "mid-conversation" ? "native" : "proxy",
      enabled: session.settings.prefetch && delivery !== "standard" && core.prefetchEnabled(session),
      // Tools promoted to the session's core set are loaded already: nothing to suggest there.
      discovered: own.promoted.size === 0 ? session.discovered : new Set([...session.discovered, ...own.promoted]),
      admits: own.admits,
    };
  };
  const turnStarted = (session: Session, messages: readonly unknown[]) => {
    prefetcher.turnStarted(view(session), messages);
  };

  dispatcher.onNotification(Method.TurnStarted, (params, connection) => {
    const parsed = prefetchParams.safeParse(params);
    if (!parsed.success) return;
    try {
      turnStarted(wire.sessionFor(connection, parsed.data.sessionId), parsed.data.messages);
    } catch (error) {
      core.logger.warn("turnStarted ignored", { error: (error as Error).message });
    }
  });
  dispatcher.register(
    Method.TurnStarted,
    (params, { connection }) => {
      turnStarted(wire.sessionFor(connection, params.sessionId), params.messages);
      return { started: true };
    },
  );
  dispatcher.register(
    Method.Prefetch,
    (params, { connection }) => {
      const session = wire.sessionFor(connection, params.sessionId);
      const current = view(session);
      const result = prefetcher.prefetch(current, params.messages);
      // In proxy delivery a suggestion carries its schema, so ExecuteExtraTool may run it at once.
      if (current.delivery === "proxy") {
        for (const suggestion of result.suggestions) {
          session.searched.add(suggestion.name);
          session.found.set(suggestion.name, { via: "prefetch" });
        }
      }
      core.usage.prefetched(session, result);
      return { sessionId: session.id, ...result };
    },
  );
}

/** The usage prior in prefetch: the session's workspace ranks, and what often follows its last call. */
function usagePrefetch(core: PrefetchCore): Pick<PrefetcherDeps, "engineFor" | "followers"> {
  return {
    engineFor: (id) => {
      const session = core.sessions.get(id);
      return session ? core.usage.prefetchEngine(session, core.search.index) : core.search.index;
    },
    followers: (id) => {
      const session = core.sessions.get(id);
      return session ? core.usage.followers(session) : [];
    },
  };
}
