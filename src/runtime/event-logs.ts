/**
 * The log lines an operator reads to learn why something happened: a session dropped, a call
 * refused. Worded once here so every front door logs them the same way.
 */
import type { Logger } from "./logger.ts";

/** A client-sent name is bounded before it reaches the log. */
const MAX_NAME_CHARS = 128;

const EVICTION_WORDING = {
  idle: "detached and idle past the session time-to-live",
  over_limit: "too many detached sessions; the least recently active one goes first",
} as const;

export function logEviction(
  logger: Logger,
  session: { id: string; lastActiveAt: number; calls: number },
  reason: keyof typeof EVICTION_WORDING,
): void {
  logger.info("session evicted", {
    session: session.id,
    reason: EVICTION_WORDING[reason],
    idleMs: Date.now() - session.lastActiveAt,
    calls: session.calls,
  });
}

export function logRefusal(
  logger: Logger,
  session: string,
  refusal: { kind: string; tool: string; reason: string },
): void {
  const tool = refusal.tool.length > MAX_NAME_CHARS ? `${refusal.tool.slice(0, MAX_NAME_CHARS)}…` : refusal.tool;
  logger.warn("call refused", { session, tool, refusal: refusal.kind, reason: refusal.reason });
}
