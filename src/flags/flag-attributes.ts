/**
 * The attributes flags are targeted by. Global ones describe the daemon (tier, version, a stable
 * host id); session ones describe the conversation (model, provider, client name, plus whatever the
 * session passes). Build each once and reuse the object: evaluations are cached by its identity.
 */
import { hostname, userInfo } from "node:os";
import type { FlagAttributes } from "./runtime-flags.ts";

/** Facts about the binary: a session may not claim another tier or version to get other flags. */
const DAEMON_FACTS: ReadonlySet<string> = new Set(["tier", "version"]);

/**
 * A stable id for this user on this host (hashed, so the host and user names do not leave the
 * machine): the `id` that percentage rollouts hash on when a session names no user of its own.
 */
export function stableHostId(host: string = hostname(), user: string = safeUserName()): string {
  return new Bun.CryptoHasher("sha256").update(`toolpool\n${host}\n${user}`).digest("hex").slice(0, 16);
}

export function globalFlagAttributes(info: { tier: string; version: string }, id: string = stableHostId()): FlagAttributes {
  return Object.freeze({ tier: info.tier, version: info.version, id });
}

export interface SessionAttributeSource {
  model: string;
  provider: string;
  clientName: string;
  attributes: Readonly<Record<string, string | number | boolean>>;
}

/**
 * A session's attributes: its free-form ones (which may set `id` to a user id), then the named
 * fields. `tier` and `version` from a session are dropped; the daemon's values stand.
 */
export function sessionFlagAttributes(session: SessionAttributeSource): FlagAttributes {
  const attributes: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(session.attributes)) {
    if (!DAEMON_FACTS.has(name)) attributes[name] = value;
  }
  return Object.freeze({ ...attributes, model: session.model, provider: session.provider, clientName: session.clientName });
}

function safeUserName(): string {
  try {
    return userInfo().username;
  } catch {
    // No passwd entry (some containers): the uid still tells users apart.
    return String(process.getuid?.() ?? "unknown");
  }
}
