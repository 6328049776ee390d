/**
 * Sessions by id. A session outlives its connection for a while so a client that reconnects can
 * resume it; detached sessions are bounded in number and age, oldest evicted first.
 */
import { randomUUID } from "node:crypto";
import { DETACHED_SESSION_TTL_MS, MAX_DETACHED_SESSIONS } from "../protocol/limits.ts";
import { Session, type SessionSettings } from "./session.ts";
import { systemClock, type Clock } from "../runtime/clock.ts";

/** Why a detached session was dropped (worded for the log). */
export type EvictionReason = "idle" | "over_limit";

export class SessionStore {
  readonly #sessions = new Map<string, Session>();

  constructor(
    private readonly clock: Clock = systemClock,
    /** Told of every session dropped by the bounds (the daemon logs it). */
    private readonly onEvict: (session: Session, reason: EvictionReason) => void = () => {},
  ) {}

  get(id: string): Session | undefined {
    return this.#sessions.get(id);
  }

  create(settings: SessionSettings, id: string = randomUUID()): Session {
    const session = new Session(id, settings, this.clock);
    this.#sessions.set(id, session);
    this.#evict();
    return session;
  }

  attach(session: Session): void {
    session.attached++;
    session.touch();
  }

  detach(session: Session): void {
    session.attached = Math.max(0, session.attached - 1);
    session.touch();
    this.#evict();
  }

  /** Forgets a session nobody can come back to (not an eviction: nothing is logged). */
  discard(session: Session): void {
    this.#sessions.delete(session.id);
  }

  counts(): { active: number; detached: number } {
    let active = 0;
    for (const session of this.#sessions.values()) if (session.attached > 0) active++;
    return { active, detached: this.#sessions.size - active };
  }

  all(): IterableIterator<Session> {
    return this.#sessions.values();
  }

  #evict(): void {
    const cutoff = this.clock.now() - DETACHED_SESSION_TTL_MS;
    const detached: Session[] = [];
    for (const session of this.#sessions.values()) {
      if (session.attached > 0) continue;
      if (session.lastActiveAt < cutoff) this.#drop(session, "idle");
      else detached.push(session);
    }
    if (detached.length <= MAX_DETACHED_SESSIONS) return;
    detached.sort((a, b) => a.lastActiveAt - b.lastActiveAt);
    for (const session of detached.slice(0, detached.length - MAX_DETACHED_SESSIONS)) this.#drop(session, "over_limit");
  }

  #drop(session: Session, reason: EvictionReason): void {
    this.#sessions.delete(session.id);
    this.onEvict(session, reason);
  }
}
