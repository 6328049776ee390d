/**
 * `toolpool/turnStarted` and `toolpool/prefetch`. Registered only in tiers built with PREFETCH:
 * this module and src/prefetch are required inside that feature() branch, so lite has neither.
 */
import { z } from "zod";
import { deliveryOf } from "../assemble-tools.ts";
import { Prefetcher, type PrefetcherDeps, type PrefetchSession } from "../../prefetch/prefetcher.ts";
import type { DaemonUsage } from "../../usage/daemon-usage.ts";
import { Method } from "../../protocol/method-names.ts";
import type { Session } from "../../session/session.ts";
import { method, type Dispatcher } from "../dispatcher.ts";
import { sessionTools } from "../session-tools.ts";
import type { DaemonState } from "../state.ts";

const prefetchParams = z.strictObject({
  sessionId: z.string().min(1).max(128).optional(),
  messages: z.array(z.unknown()).default([]),
});

export function registerPrefetchMethods(dispatcher: Dispatcher, state: DaemonState): void {
  const prefetcher = new Prefetcher({
    engine: state.search.index,
    lookup: (name) => state.pool().get(name),
    warmServer: (server) => state.ensureServerStarted(server),
    maxResults: () => state.prefetchMaxResults(),
    ...(state.usage && usagePrefetch(state, state.usage)),
  });
  const view = (session: Session): PrefetchSession => {
    const delivery = deliveryOf(session);
    const promoted = promotedOf(session, state);
    return {
      id: session.id,
      delivery: delivery === "native" ? "native" : "proxy",
      enabled: session.settings.prefetch && delivery !== "standard" && state.prefetchEnabled(session),
      // Tools promoted to the session's core set are loaded already: nothing to suggest there.
      discovered: promoted.size === 0 ? session.discovered : new Set([...session.discovered, ...promoted]),
    };
  };
  const turnStarted = (session: Session, messages: readonly unknown[]) => {
    prefetcher.turnStarted(view(session), messages);
  };

  dispatcher.onNotification(Method.TurnStarted, (params, connection) => {
    const parsed = prefetchParams.safeParse(params);
    if (!parsed.success) return;
    try {
      turnStarted(state.sessionFor(connection, parsed.data.sessionId), parsed.data.messages);
    } catch (error) {
      state.logger.warn("turnStarted ignored", { error: (error as Error).message });
    }
  });
  dispatcher.register(
    Method.TurnStarted,
    method(prefetchParams, (params, { connection }) => {
      turnStarted(state.sessionFor(connection, params.sessionId), params.messages);
      return { started: true };
    }),
  );
  dispatcher.register(
    Method.Prefetch,
    method(prefetchParams, (params, { connection }) => {
      const session = state.sessionFor(connection, params.sessionId);
      const current = view(session);
      const result = prefetcher.prefetch(current, params.messages);
      state.usage?.prefetched(session, result);
      // In proxy delivery a suggestion carries its schema, so ExecuteExtraTool may run it at once.
      if (current.delivery === "proxy") {
        const own = sessionTools(session, state.sessionToolDeps());
        for (const suggestion of result.suggestions) own.searched.add(suggestion.name);
      }
      return { sessionId: session.id, ...result };
    }),
  );
}

function promotedOf(session: Session, state: DaemonState): ReadonlySet<string> {
  return sessionTools(session, state.sessionToolDeps()).promoted;
}

/** The usage prior in prefetch: the session's workspace ranks, and what often follows its last call. */
function usagePrefetch(state: DaemonState, usage: DaemonUsage<Session>): Pick<PrefetcherDeps, "engineFor" | "followers"> {
  const known = (id: string) => state.sessions.get(id);
  return {
    engineFor: (id) => {
      const session = known(id);
      return session ? usage.prefetchEngine(session, state.search.index) : state.search.index;
    },
    followers: (id) => {
      const session = known(id);
      return session ? usage.followers(session) : [];
    },
  };
}
