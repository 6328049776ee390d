/**
 * The MCP revisions toolpool speaks and the 2026-07-28 per-request `_meta` keys, for every face
 * (the socket's MCP methods, the stdio and HTTP bridges) and the pool's client side. 2026-07-28 is
 * stateless: each request names its revision and the client's capabilities in `_meta`; the 2025
 * revisions negotiate once, at `initialize`.
 */

export const STATELESS_REVISION = "2026-07-28";
/** Newest first: the stateless revision, then those a client reaches through `initialize`. */
export const SUPPORTED_REVISIONS = [STATELESS_REVISION, "2025-11-25", "2025-06-18", "2025-03-26"] as const;

export const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
export const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
export const META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
export const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";
export const META_SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

export const RevisionErrorCode = {
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
} as const;

/**
 * How long a host may keep a list result. A session's tool list is its own ("private") and changes
 * with the pool; a host holding a `subscriptions/listen` stream hears of a change at once.
 */
export const LIST_TTL_MS = 60_000;

/** The revision a request's `_meta` names, if it names one (only 2026-07-28 requests do). */
export function requestRevision(params: unknown): string | undefined {
  if (typeof params !== "object" || params === null) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  if (typeof meta !== "object" || meta === null) return undefined;
  const version = (meta as Record<string, unknown>)[META_PROTOCOL_VERSION];
  return typeof version === "string" ? version : undefined;
}

/** The error a request naming a revision this server does not speak statelessly gets. */
export function unsupportedRevision(version: string): { code: number; message: string; data: { supported: string[]; requested: string } } {
  const earlier = (SUPPORTED_REVISIONS as readonly string[]).includes(version);
  return {
    code: RevisionErrorCode.UnsupportedProtocolVersion,
    message: earlier
      ? `Unsupported protocol version ${version} without a session: that revision starts with initialize`
      : `Unsupported protocol version ${JSON.stringify(version.slice(0, 64))}; this server speaks ${SUPPORTED_REVISIONS.join(", ")}`,
    data: { supported: [...SUPPORTED_REVISIONS], requested: version },
  };
}
