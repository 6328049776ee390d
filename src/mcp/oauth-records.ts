/**
 * The three kinds of OAuth record (see oauth-store.ts for where each lives and why it is keyed so).
 */
import type { AuthorizationServerMetadata, OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";

/** What a login's discovery found for one server. */
export interface OAuthDiscovery {
  /** The authorization server's issuer identifier, exactly as its validated metadata states it. */
  issuer: string;
  /** The `resource` indicator sent (the protected resource metadata's), if the server publishes one. */
  resourceIndicator?: string;
  /** The key its tokens are stored under: the resource indicator, else the server's URL. */
  resource: string;
  /** The scopes the protected resource metadata lists, space-separated: asked for when none is configured. */
  scopes?: string;
  /** Undefined for a server of the 2025-03-26 kind that publishes no metadata (default endpoints). */
  metadata?: AuthorizationServerMetadata;
}

export interface ServerRecord {
  kind: "server";
  serverUrl: string;
  discovery?: OAuthDiscovery;
  /** The configured client id a login used, and the issuer it was used with (it belongs there). */
  configuredClient?: { clientId: string; issuer: string };
}

/** How the client of a login got its id. */
export type ClientKind = "configured" | "metadata-document" | "registered";

export interface ClientRecord {
  kind: "client";
  issuer: string;
  /** Our dynamic registration (a configured client id or a metadata document URL is never stored here). */
  client: OAuthClientInformationMixed;
}

export interface TokenRecord {
  kind: "tokens";
  issuer: string;
  resource: string;
  clientKind: ClientKind;
  /** The client the tokens were issued to: a refresh must present the same one. */
  clientId: string;
  /** For a registered client, its registration as it was (a configured secret stays in the config). */
  client?: OAuthClientInformationMixed;
  tokens: OAuthTokens;
  /** The scope the login asked for (the tokens' own `scope`, when the server says, is what was granted). */
  scope?: string;
  /** When `tokens` were obtained (ms since the epoch): with `expires_in`, when they expire. */
  obtainedAt: number;
}

/** When the stored access token expires (ms since the epoch), if the server said. */
export function expiresAt(record: TokenRecord | undefined): number | undefined {
  const seconds = record?.tokens.expires_in;
  if (seconds === undefined || record?.obtainedAt === undefined) return undefined;
  return record.obtainedAt + seconds * 1000;
}
