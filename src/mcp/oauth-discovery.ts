/**
 * Which authorization server a remote MCP server sends us to, and how far to believe it.
 *
 * The issuer recorded for a login is the one its metadata states, and only when that equals the
 * authorization server the resource named (RFC 8414 §3.3): the `iss` check of the authorization
 * response (RFC 9207) protects only as well as the issuer it compares with was checked.
 */
import { discoverOAuthServerInfo, extractWWWAuthenticateParams } from "@modelcontextprotocol/sdk/client/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { OAuthDiscovery } from "./oauth-records.ts";

/** What a server's 401 said in `WWW-Authenticate` (RFC 6750 §3, RFC 9728 §5.1). */
export interface AuthChallenge {
  /** Where its protected resource metadata is, when not at the well-known path. */
  resourceMetadataUrl?: string;
  /** The scope the request needed. */
  scope?: string;
  /** The error code, e.g. `insufficient_scope` on a 403. */
  error?: string;
}

/** A header is the server's to write: bounded before it is kept. */
const MAX_CHALLENGE_FIELD = 2_000;

export function readChallenge(response: Response): AuthChallenge {
  const { resourceMetadataUrl, scope, error } = extractWWWAuthenticateParams(response);
  const href = resourceMetadataUrl?.href;
  return {
    ...(href && href.length <= MAX_CHALLENGE_FIELD && /^https?:$/.test(resourceMetadataUrl.protocol) && { resourceMetadataUrl: href }),
    ...(scope && scope.length <= MAX_CHALLENGE_FIELD && { scope }),
    ...(error && error.length <= 100 && { error }),
  };
}

/** Space-separated scopes, both sides' in a stable order, each once. */
export function unionScopes(held: string, needed: string): string {
  return [...new Set([...held.split(" "), ...needed.split(" ")].filter(Boolean))].join(" ");
}

export async function discoverAuthorization(url: string, fetchFn: FetchLike, challenge?: AuthChallenge): Promise<OAuthDiscovery> {
  // The metadata a 401 points at is believed only as far as the resource it names is this server (checkResource).
  const resourceMetadataUrl = challenge?.resourceMetadataUrl ? new URL(challenge.resourceMetadataUrl) : undefined;
  const info = await discoverOAuthServerInfo(url, { fetchFn, ...(resourceMetadataUrl && { resourceMetadataUrl }) });
  const named = info.authorizationServerUrl;
  const metadata = info.authorizationServerMetadata;
  // Without resource metadata nothing named the authorization server: it is the server's own
  // origin (the 2025-03-26 rule), which its metadata may state with or without the final slash.
  const origin = new URL(url).origin;
  const ownOrigin = !info.resourceMetadata && (metadata?.issuer === origin || metadata?.issuer === `${origin}/`);
  if (metadata && metadata.issuer !== named && !ownOrigin) {
    throw new Error(`the authorization server metadata fetched for ${JSON.stringify(named)} states the issuer ${JSON.stringify(metadata.issuer)}; they must be identical (RFC 8414), so it is not used`);
  }
  const indicator = info.resourceMetadata?.resource;
  if (indicator !== undefined) checkResource(indicator, url);
  const scopes = info.resourceMetadata?.scopes_supported?.join(" ");
  return {
    issuer: metadata?.issuer ?? named,
    resource: indicator ?? url,
    ...(indicator !== undefined && { resourceIndicator: indicator }),
    ...(scopes && { scopes }),
    ...(metadata && { metadata }),
  };
}

/**
 * The resource a server says its tokens are for must be the server itself (its URL, or a prefix of
 * it on the same origin): a token requested for someone else's resource could be replayed there.
 */
function checkResource(indicator: string, url: string): void {
  let resource: URL;
  try {
    resource = new URL(indicator);
  } catch {
    throw new Error(`the protected resource metadata names the resource ${JSON.stringify(indicator)}, which is not a URL`);
  }
  const server = new URL(url);
  const prefix = resource.pathname.endsWith("/") ? resource.pathname : `${resource.pathname}/`;
  if (resource.origin !== server.origin || !(server.pathname === resource.pathname || server.pathname.startsWith(prefix))) {
    throw new Error(`the protected resource metadata names the resource ${JSON.stringify(indicator)}, which is not this server (${url})`);
  }
}

/**
 * RFC 9207 §2.4, as the MCP authorization spec tabulates it: an `iss` present is compared with the
 * recorded issuer by simple string comparison (no case folding, no trailing-slash or port
 * normalization), whether or not the metadata advertises it; when the metadata advertises it, an
 * absent `iss` is refused. Returns why the response must be refused, or undefined.
 */
export function checkIssuerParameter(params: URLSearchParams, discovery: OAuthDiscovery): string | undefined {
  const received = params.getAll("iss");
  // Not in the SDK's metadata type; its schema keeps unknown fields.
  const advertised = (discovery.metadata as { authorization_response_iss_parameter_supported?: unknown } | undefined)?.authorization_response_iss_parameter_supported === true;
  if (received.length > 1) return "the authorization response carried more than one `iss` parameter";
  const [iss] = received;
  if (iss === undefined) {
    return advertised ? `the authorization server ${discovery.issuer} advertises the \`iss\` parameter (RFC 9207) but its response carried none` : undefined;
  }
  if (iss !== discovery.issuer) {
    return `the authorization response came from the issuer ${JSON.stringify(iss)}, not from ${JSON.stringify(discovery.issuer)} where this login started (a mix-up attack, RFC 9207); the code was not used`;
  }
  return undefined;
}

/** A redirect to this machine only: http on a loopback address, as RFC 8252 §7.3 asks of native clients. */
export function isLoopbackRedirect(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  return url.protocol === "http:" && (url.hostname === "127.0.0.1" || url.hostname === "[::1]" || url.hostname === "localhost") && url.username === "" && url.password === "";
}
