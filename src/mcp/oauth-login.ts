/**
 * One interactive login to an HTTP MCP server (OAuth 2.1 authorization code with PKCE, RFC 8252
 * loopback redirect): discovery (oauth-discovery.ts), the client (oauth-client-choice.ts), a
 * listener on 127.0.0.1, the authorization URL, and — once the browser comes back with our `state`
 * and, where the server sends one, the right `iss` (RFC 9207) — the code exchange. Tokens are
 * stored under the issuer and resource they are for. Bounded: the listener closes after `timeoutMs`, after the first redirect
 * that carries our `state`, or when the login is cancelled.
 */
import { randomBytes } from "node:crypto";
import { exchangeAuthorization, startAuthorization } from "@modelcontextprotocol/sdk/client/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { chooseClient, type ChosenClient, type OAuthSettings } from "./oauth-client-choice.ts";
import { checkIssuerParameter, discoverAuthorization, isLoopbackRedirect, type AuthChallenge } from "./oauth-discovery.ts";
import type { OAuthDiscovery } from "./oauth-records.ts";
import type { OAuthStore } from "./oauth-store.ts";
import { boundedFetch } from "./server-auth.ts";

export interface LoginOptions {
  server: string;
  url: string;
  settings: OAuthSettings | undefined;
  store: OAuthStore;
  now: () => number;
  timeoutMs: number;
  baseFetch?: FetchLike;
  /** What the server's last 401 said (where its resource metadata is, the scope it needs). */
  challenge?: AuthChallenge | undefined;
}

export interface LoginAttempt {
  authorizationUrl: string;
  redirectUrl: string;
  expiresAt: number;
  /** Resolves once tokens are stored; rejects on a refusal, a timeout or a cancel. */
  done: Promise<void>;
  /** Whether `done` has settled (the redirect came back, or the login failed). */
  readonly settled: boolean;
  cancel(reason: string): void;
}

export async function beginLogin(options: LoginOptions): Promise<LoginAttempt> {
  const { server, url, store, settings } = options;
  const fetchFn = boundedFetch(options.baseFetch);
  // Discovered afresh for every login: a server whose authorization server changed is followed
  // (and finds no tokens of the old one), and the issuer the response is checked against is current.
  let discovery: OAuthDiscovery;
  try {
    discovery = await discoverAuthorization(url, fetchFn, options.challenge);
  } catch (error) {
    throw new Error(describeStartFailure(server, error));
  }
  const bound = store.server(server, url).configuredClient;
  const state = randomBytes(24).toString("base64url");
  const outcome = Promise.withResolvers<void>();
  // Settled once; the listener stops at the first settlement.
  let settled = false;
  let pending: { client: ChosenClient; codeVerifier: string; redirectUrl: string; scope: string | undefined } | undefined;
  const listener = listen(registeredPort(store, discovery, settings), async (request) => {
    const params = new URL(request.url).searchParams;
    if (new URL(request.url).pathname !== "/callback") return new Response("not found", { status: 404 });
    // A redirect without our state is someone else's (or forged): answered, never acted on.
    if (params.get("state") !== state || settled || !pending) return page(400, "This login link is not (or no longer) valid. Run the login again.");
    // Before anything the response says is believed, its error included (RFC 9207 §2.4).
    const mixUp = checkIssuerParameter(params, discovery);
    if (mixUp) {
      finish(new Error(`the authorization response was refused: ${mixUp}`));
      return page(400, "The login was refused: the response did not come from the expected authorization server.");
    }
    const error = params.get("error");
    if (error) {
      finish(new Error(`the authorization server refused the login: ${error}${params.get("error_description") ? ` (${params.get("error_description")})` : ""}`));
      return page(400, `The login was refused (${error}). You can close this tab.`);
    }
    const code = params.get("code");
    if (!code) return page(400, "The redirect carried no authorization code.");
    try {
      const { client, codeVerifier, redirectUrl } = pending;
      const tokens = await exchangeAuthorization(discovery.issuer, {
        ...(discovery.metadata && { metadata: discovery.metadata }),
        clientInformation: client.client,
        authorizationCode: code,
        codeVerifier,
        redirectUri: redirectUrl,
        ...(discovery.resourceIndicator && { resource: discovery.resourceIndicator }),
        fetchFn,
      });
      store.saveServer(server, {
        kind: "server",
        serverUrl: url,
        discovery,
        ...(client.kind === "configured" && { configuredClient: { clientId: client.client.client_id, issuer: discovery.issuer } }),
      });
      store.saveTokens({
        kind: "tokens",
        issuer: discovery.issuer,
        resource: discovery.resource,
        clientKind: client.kind,
        clientId: client.client.client_id,
        ...(client.kind === "registered" && { client: client.client }),
        ...(pending.scope && { scope: pending.scope }),
        tokens,
        obtainedAt: options.now(),
      });
      finish(undefined);
      return page(200, `toolpool is logged in to ${server}. You can close this tab.`);
    } catch (failure) {
      finish(new Error(`exchanging the authorization code failed: ${(failure as Error).message}`));
      return page(400, "The login failed; see the terminal for why.");
    }
  });
  const finish = (error: Error | undefined) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    // Gracefully: the redirect that settled the login still gets its page; a lingering
    // keep-alive connection is cut shortly after.
    void listener.stop();
    setTimeout(() => void listener.stop(true), 2_000).unref();
    if (error) outcome.reject(error);
    else outcome.resolve();
  };
  const timer = setTimeout(() => finish(new Error(`no redirect came back within ${Math.round(options.timeoutMs / 1000)} s; run the login again`)), options.timeoutMs);
  // Nobody may be waiting on `done` yet; a rejection is still reported to whoever asks.
  outcome.promise.catch(() => {});

  const redirectUrl = `http://127.0.0.1:${listener.port}/callback`;
  let authorizationUrl: URL;
  try {
    const client = await chooseClient({ server, discovery, settings, store, redirectUrl, fetchFn, bound });
    const scope = scopeOf(settings, options.challenge, discovery);
    const started = await startAuthorization(discovery.issuer, {
      ...(discovery.metadata && { metadata: discovery.metadata }),
      clientInformation: client.client,
      redirectUrl,
      state,
      ...(scope && { scope }),
      ...(discovery.resourceIndicator && { resource: discovery.resourceIndicator }),
    });
    authorizationUrl = started.authorizationUrl;
    checkAuthorizationUrl(authorizationUrl);
    // Only in memory: a verifier is worth nothing after this login, and must not outlive it on disk.
    pending = { client, codeVerifier: started.codeVerifier, redirectUrl, scope };
  } catch (error) {
    finish(new Error("cancelled"));
    throw new Error(describeStartFailure(server, error));
  }
  return {
    authorizationUrl: authorizationUrl.href,
    redirectUrl,
    expiresAt: options.now() + options.timeoutMs,
    done: outcome.promise,
    get settled() {
      return settled;
    },
    cancel: (reason) => finish(new Error(reason)),
  };
}

/**
 * The port of the loopback redirect a shared registration names, when this login will use that
 * registration: the same redirect URI again works with servers that compare it exactly.
 */
function registeredPort(store: OAuthStore, discovery: OAuthDiscovery, settings: OAuthSettings | undefined): number {
  if (settings?.clientId || (settings?.clientMetadataUrl && discovery.metadata?.client_id_metadata_document_supported === true)) return 0;
  const uris = (store.client(discovery.issuer)?.client as { redirect_uris?: unknown } | undefined)?.redirect_uris;
  const first = Array.isArray(uris) && typeof uris[0] === "string" && isLoopbackRedirect(uris[0]) ? new URL(uris[0]) : undefined;
  return first?.hostname === "127.0.0.1" && first.pathname === "/callback" ? Number(first.port) : 0;
}

/** The port asked for if it is free, else one the OS picks. */
function listen(port: number, fetch: (request: Request) => Promise<Response>) {
  if (port > 0) {
    try {
      return Bun.serve({ hostname: "127.0.0.1", port, fetch });
    } catch {
      // taken: a fresh port (and a fresh registration) below
    }
  }
  return Bun.serve({ hostname: "127.0.0.1", port: 0, fetch });
}

/**
 * The scope asked for: the configured one, else what the server's 401 asked for, else all the
 * resource metadata lists (the spec's selection order, with the operator's word first).
 */
function scopeOf(settings: OAuthSettings | undefined, challenge: AuthChallenge | undefined, discovery: OAuthDiscovery): string | undefined {
  return settings?.scope ?? challenge?.scope ?? discovery.scopes;
}

/**
 * The URL a person is sent to (and that may be handed to xdg-open): https, or http on loopback
 * only, as OAuth 2.1 asks — never a file:, javascript: or custom scheme a hostile metadata
 * document could name.
 */
export function checkAuthorizationUrl(url: URL): void {
  const loopback = url.hostname === "127.0.0.1" || url.hostname === "localhost" || url.hostname === "[::1]";
  if (url.protocol === "https:" || (url.protocol === "http:" && loopback)) return;
  throw new Error(`the authorization endpoint ${JSON.stringify(url.origin === "null" ? url.protocol : url.origin)} is not https (http is allowed on loopback only)`);
}

function describeStartFailure(server: string, error: unknown): string {
  const message = (error as Error).message ?? String(error);
  return `could not start the OAuth login for MCP server "${server}": ${message}`;
}

function page(status: number, text: string): Response {
  const body = `<!doctype html><meta charset="utf-8"><title>toolpool</title><p>${text.replace(/[<>&]/g, "")}</p>`;
  return new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8" } });
}
