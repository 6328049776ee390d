/**
 * Firings handed to clients that acknowledge them themselves (`toolpool/session {cronAcks: true}`)
 * and not acknowledged yet. Such a firing stays leased in the outbox; this remembers which clients
 * hold it, so that when the last of them goes away it is released at once, for the next client of
 * the session, instead of waiting out its lease. In memory only: a restart ends every lease anyway
 * (`CronScheduler.start`).
 *
 * Bounded by what connected clients hold: a holder's entries go when it acknowledges, when the
 * firing is handed out again (its lease ran out), or when the holder goes away.
 */
interface Awaited<Client> {
  sessionId: string;
  holders: Set<Client>;
}

export class CronAwaitedAcks<Client> {
  /** By firing id (unique across sessions in the outbox). */
  readonly #firings = new Map<string, Awaited<Client>>();

  /** The firing was sent to these acknowledging clients; an earlier handing-out (its lease is over) is replaced. */
  handedTo(sessionId: string, firingId: string, holders: readonly Client[]): void {
    this.#firings.set(firingId, { sessionId, holders: new Set(holders) });
  }

  /** The firings no longer wait for anyone: acknowledged, or given back to the queue. */
  forget(sessionId: string, firingIds: readonly string[]): void {
    for (const firingId of firingIds) {
      if (this.#firings.get(firingId)?.sessionId === sessionId) this.#firings.delete(firingId);
    }
  }

  /**
   * The client went away. Returns, by session, the firings it held that no other client holds now:
   * nobody is left to acknowledge them, so they should go back to the queue.
   */
  clientGone(client: Client): Map<string, string[]> {
    const orphaned = new Map<string, string[]>();
    for (const [firingId, awaited] of this.#firings) {
      if (!awaited.holders.delete(client) || awaited.holders.size > 0) continue;
      this.#firings.delete(firingId);
      orphaned.set(awaited.sessionId, [...(orphaned.get(awaited.sessionId) ?? []), firingId]);
    }
    return orphaned;
  }

  /** How many firings wait for a client's acknowledgement. */
  get size(): number {
    return this.#firings.size;
  }
}
