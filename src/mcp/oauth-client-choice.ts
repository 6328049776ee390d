/**
 * Which OAuth client a login presents, in the order the MCP authorization spec (2025-11-25,
 * 2026-07-28) gives:
 *
 * 1. a client id the operator configured (pre-registration: what they set is what is used);
 * 2. a Client ID Metadata Document, when the authorization server says it supports them and the
 *    operator configured the HTTPS URL where toolpool's document is hosted (a daemon cannot host one
 *    itself: it has no public HTTPS origin);
 * 3. dynamic client registration, where the authorization server offers it — one registration per
 *    issuer, shared by every server behind it;
 * 4. otherwise an error that says what to configure.
 */
import { registerClient } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { isLoopbackRedirect } from "./oauth-discovery.ts";
import type { ClientKind, OAuthDiscovery } from "./oauth-records.ts";
import type { OAuthStore } from "./oauth-store.ts";

export interface OAuthSettings {
  /** A client registered ahead of time; used before anything else. */
  clientId?: string;
  clientSecret?: string;
  scope?: string;
  /** The HTTPS URL of toolpool's Client ID Metadata Document, hosted by the operator. */
  clientMetadataUrl?: string;
}

export interface ChosenClient {
  kind: ClientKind;
  client: OAuthClientInformationMixed;
}

export interface ChooseOptions {
  server: string;
  discovery: OAuthDiscovery;
  settings: OAuthSettings | undefined;
  store: OAuthStore;
  redirectUrl: string;
  fetchFn: FetchLike;
  /** The configured client id an earlier login used, and with which issuer. */
  bound?: { clientId: string; issuer: string } | undefined;
}

export async function chooseClient(options: ChooseOptions): Promise<ChosenClient> {
  const { server, discovery, settings, store, redirectUrl } = options;
  if (settings?.clientId) {
    checkConfiguredIssuer(options, settings.clientId);
    return { kind: "configured", client: { client_id: settings.clientId, ...(settings.clientSecret && { client_secret: settings.clientSecret }) } };
  }
  const metadata = discovery.metadata;
  const metadataDocuments = metadata?.client_id_metadata_document_supported === true;
  if (metadataDocuments && settings?.clientMetadataUrl) return { kind: "metadata-document", client: { client_id: settings.clientMetadataUrl } };
  // Without metadata (a server of the 2025-03-26 kind) registration is tried at the default /register.
  if (!metadata || metadata.registration_endpoint) {
    const stored = store.client(discovery.issuer)?.client;
    const registered = (stored as { redirect_uris?: unknown } | undefined)?.redirect_uris;
    // Reused while it names this login's redirect (the listener takes the registered port when it
    // is free); otherwise registered afresh, since not every server relaxes a loopback port.
    if (stored && (!Array.isArray(registered) || registered.includes(redirectUrl))) return { kind: "registered", client: stored };
    const client = await register(options, toolpoolClientMetadata(redirectUrl, settings));
    store.saveClient({ kind: "client", issuer: discovery.issuer, client });
    return { kind: "registered", client };
  }
  throw new Error(missingClient(server, discovery.issuer, metadataDocuments));
}

/** What toolpool registers itself as, and what a hosted metadata document describes. */
export function toolpoolClientMetadata(redirectUrl: string, settings: OAuthSettings | undefined): OAuthClientMetadata {
  return {
    client_name: "toolpool",
    redirect_uris: [redirectUrl],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    // OpenID Connect servers default to "web", which refuses a loopback redirect.
    application_type: "native",
    ...(settings?.scope && { scope: settings.scope }),
  } as OAuthClientMetadata;
}

async function register(options: ChooseOptions, clientMetadata: OAuthClientMetadata): Promise<OAuthClientInformationMixed> {
  const { discovery, fetchFn } = options;
  let client: OAuthClientInformationMixed;
  try {
    client = await registerClient(discovery.issuer, { ...(discovery.metadata && { metadata: discovery.metadata }), clientMetadata, ...(options.settings?.scope && { scope: options.settings.scope }), fetchFn });
  } catch (error) {
    throw new Error(`dynamic client registration at ${discovery.issuer} failed: ${(error as Error).message}`);
  }
  // The registration the server answers with is what it will redirect to: a redirect it moved off
  // this machine would hand the authorization code to someone else.
  const redirects = (client as { redirect_uris?: unknown }).redirect_uris;
  if (redirects !== undefined) {
    const list = Array.isArray(redirects) ? redirects : [redirects];
    const foreign = list.find((uri) => typeof uri !== "string" || !isLoopbackRedirect(uri));
    if (foreign !== undefined || !list.includes(clientMetadata.redirect_uris[0])) {
      throw new Error(`the authorization server ${discovery.issuer} registered the client with redirect URIs ${JSON.stringify(list).slice(0, 300)}, not the loopback redirect toolpool asked for; refusing to use it`);
    }
  }
  return client;
}

/**
 * A configured client id belongs to the authorization server it was registered with (the spec:
 * surface an error rather than present it elsewhere). Which one that is, toolpool learns from the
 * first login that used it; a logout forgets it.
 */
function checkConfiguredIssuer({ server, discovery, bound }: ChooseOptions, clientId: string): void {
  if (!bound || bound.clientId !== clientId || bound.issuer === discovery.issuer) return;
  throw new Error(
    `the configured client id of MCP server "${server}" was used with the authorization server ${bound.issuer}, but the server now sends logins to ${discovery.issuer}; a client id belongs to one authorization server: register a client there and set mcpServers.${server}.oauth.clientId, or run \`toolpool auth logout ${server}\` to present this one there anyway`,
  );
}

function missingClient(server: string, issuer: string, metadataDocuments: boolean): string {
  const key = `mcpServers.${server}.oauth`;
  if (metadataDocuments) {
    return `the authorization server ${issuer} of MCP server "${server}" accepts Client ID Metadata Documents but offers no dynamic client registration: host toolpool's metadata document at an https URL and set ${key}.clientMetadataUrl, or register a client there and set ${key}.clientId`;
  }
  return `the authorization server ${issuer} of MCP server "${server}" supports neither Client ID Metadata Documents nor dynamic client registration; register a client there and set ${key}.clientId (and clientSecret for a confidential client)`;
}
