/**
 * `toolpool/turnStarted` and `toolpool/prefetch`. Registered only in tiers built with PREFETCH:
 * this module and src/prefetch are required inside that feature() branch, so lite has neither.
 */
import { z } from "zod";
import { deliveryOf } from "../assemble-tools.ts";
import { Prefetcher, type PrefetchSession } from "../../prefetch/prefetcher.ts";
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
  });
  const view = (session: Session): PrefetchSession => {
    const delivery = deliveryOf(session);
    return {
      id: session.id,
      delivery: delivery === "native" ? "native" : "proxy",
      enabled: session.settings.prefetch && delivery !== "standard" && state.prefetchEnabled(session),
      discovered: session.discovered,
      admits: sessionTools(session, state.sessionToolDeps()).admits,
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
      // In proxy delivery a suggestion carries its schema, so ExecuteExtraTool may run it at once.
      if (current.delivery === "proxy") {
        const own = sessionTools(session, state.sessionToolDeps());
        for (const suggestion of result.suggestions) own.searched.add(suggestion.name);
      }
      return { sessionId: session.id, ...result };
    }),
  );
}
