/**
 * The token file of the layout before credentials were keyed by issuer (`<server>.<hash of its
 * URL>.json`: discovery, our registration and tokens in one): moved over once, so an upgrade logs no
 * one out. Only what can be bound to an issuer is kept — tokens of a configured client id (which the
 * old file did not name) or of a file whose metadata named another issuer need one more login.
 */
import type { AuthorizationServerMetadata, OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { ClientRecord, ServerRecord, TokenRecord } from "./oauth-records.ts";

interface LegacyRecord {
  serverUrl?: unknown;
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  obtainedAt?: number;
  discovery?: {
    authorizationServerUrl?: unknown;
    resourceMetadata?: { resource?: unknown };
    authorizationServerMetadata?: AuthorizationServerMetadata;
  };
}

export interface Migrated {
  path: string;
  server: ServerRecord;
  client?: ClientRecord;
  tokens?: TokenRecord;
}

export function migrateLegacyRecord(path: string, url: string, read: (path: string) => object | null): Migrated | undefined {
  const legacy = read(path) as LegacyRecord | null;
  if (!legacy || legacy.serverUrl !== url) return undefined;
  const issuer = legacy.discovery?.authorizationServerUrl;
  const metadata = legacy.discovery?.authorizationServerMetadata;
  if (typeof issuer !== "string" || (metadata && metadata.issuer !== issuer)) return { path, server: { kind: "server", serverUrl: url } };
  const indicator = legacy.discovery?.resourceMetadata?.resource;
  const resourceIndicator = typeof indicator === "string" ? indicator : undefined;
  const resource = resourceIndicator ?? url;
  const server: ServerRecord = { kind: "server", serverUrl: url, discovery: { issuer, resource, ...(resourceIndicator && { resourceIndicator }), ...(metadata && { metadata }) } };
  const client = legacy.client?.client_id ? legacy.client : undefined;
  const migrated: Migrated = { path, server, ...(client && { client: { kind: "client", issuer, client } }) };
  if (client && legacy.tokens?.access_token && typeof legacy.obtainedAt === "number") {
    const { issuer: _stamp, ...tokens } = legacy.tokens as OAuthTokens & { issuer?: string };
    migrated.tokens = { kind: "tokens", issuer, resource, clientKind: "registered", clientId: client.client_id, client, tokens, obtainedAt: legacy.obtainedAt };
  }
  return migrated;
}
