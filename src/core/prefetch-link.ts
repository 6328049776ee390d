/**
 * The prefetch link: the core's sessions, search and usage history as the Prefetcher sees them
 * (`toolpool/turnStarted`, `toolpool/prefetch`). PREFETCH tiers only: required inside that
 * feature() branch (with src/prefetch), so lite holds neither.
 */
import type { PrefetchResult } from "../protocol/methods.ts";
import { Prefetcher, type PrefetcherDeps, type PrefetchSession } from "../prefetch/prefetcher.ts";
import type { Pool } from "../pool/assemble.ts";
import type { Session } from "../session/session.ts";
import type { SessionStore } from "../session/session-store.ts";
import type { DaemonUsage } from "../usage/daemon-usage.ts";
import type { SearchSync } from "./search-sync.ts";
import { deliveryOf } from "./session-delivery.ts";
import { sessionTools, type SessionToolDeps } from "./session-tools.ts";

export interface PrefetchLinkDeps {
  search: SearchSync;
  pool: () => Pool;
  sessions: SessionStore;
  toolDeps: SessionToolDeps;
  usage: () => DaemonUsage<Session>;
  warmServer: (server: string) => void;
  maxResults: () => number;
  /** The `prefetch_enabled` flag for this session. */
  enabled: (session: Session) => boolean;
}

export class PrefetchLink {
  readonly #prefetcher: Prefetcher;

  constructor(private readonly deps: PrefetchLinkDeps) {
    this.#prefetcher = new Prefetcher({
      engine: deps.search,
      lookup: (name) => deps.pool().get(name),
      warmServer: deps.warmServer,
      maxResults: deps.maxResults,
      ...this.#usagePrefetch(),
    });
  }

  /** Both wait, off the thread, while the index catches up with the pool (search-sync.ts); in order of arrival. */
  async turnStarted(session: Session, messages: readonly unknown[]): Promise<void> {
    await this.deps.search.ready();
    this.#prefetcher.turnStarted(this.#view(session), messages);
  }

  async prefetch(session: Session, messages: readonly unknown[]): Promise<PrefetchResult> {
    await this.deps.search.ready();
    const current = this.#view(session);
    const result = this.#prefetcher.prefetch(current, messages);
    // In proxy delivery a suggestion carries its schema, so ExecuteExtraTool may run it at once.
    if (current.delivery === "proxy") {
      for (const suggestion of result.suggestions) {
        session.markFound(suggestion.name, { via: "prefetch" });
      }
    }
    this.deps.usage().prefetched(session, result);
    return { sessionId: session.id, ...result };
  }

  #view(session: Session): PrefetchSession {
    const delivery = deliveryOf(session);
    const own = sessionTools(session, this.deps.toolDeps);
    return {
      id: session.id,
      // mid-conversation suggests names as native does (no ExecuteExtraTool in its array).
      delivery: delivery === "native" || delivery === "mid-conversation" ? "native" : "proxy",
      enabled: session.settings.prefetch && delivery !== "standard" && this.deps.enabled(session),
      // Tools promoted to the session's core set are loaded already: nothing to suggest there.
      discovered: own.promoted.size === 0 ? session.discovered : new Set([...session.discovered, ...own.promoted]),
      admits: own.admits,
    };
  }

  /** The usage prior in prefetch: the session's workspace ranks, and what often follows its last call. */
  #usagePrefetch(): Pick<PrefetcherDeps, "engineFor" | "followers"> {
    const { sessions, usage, search } = this.deps;
    return {
      engineFor: (id) => {
        const session = sessions.get(id);
        return session ? usage().prefetchEngine(session, search.index) : search.index;
      },
      followers: (id) => {
        const session = sessions.get(id);
        return session ? usage().followers(session) : [];
      },
    };
  }
}
