/**
 * One interactive login to an HTTP MCP server (OAuth 2.1 authorization code with PKCE, RFC 8252
 * loopback redirect): a listener on 127.0.0.1 with a port the OS picks, the authorization URL the
 * SDK builds after discovery (and dynamic registration where offered), and the code exchange once
 * the browser comes back. Bounded: the listener closes after `timeoutMs`, after the first redirect
 * that carries our `state`, or when the login is cancelled.
 */
import { randomBytes } from "node:crypto";
import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { StoredOAuthProvider, type OAuthSettings } from "./oauth-provider.ts";
import { boundedFetch } from "./server-auth.ts";
import type { OAuthStore } from "./oauth-store.ts";

export interface LoginOptions {
  server: string;
  url: string;
  settings: OAuthSettings | undefined;
  store: OAuthStore;
  now: () => number;
  timeoutMs: number;
  baseFetch?: FetchLike;
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
  const { server, url, store } = options;
  const state = randomBytes(24).toString("base64url");
  const outcome = Promise.withResolvers<void>();
  // Settled once; the listener stops at the first settlement.
  let settled = false;
  let provider: StoredOAuthProvider | undefined;
  const listener = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (request) => {
      const params = new URL(request.url).searchParams;
      if (new URL(request.url).pathname !== "/callback") return new Response("not found", { status: 404 });
      // A redirect without our state is someone else's (or forged): answered, never acted on.
      if (params.get("state") !== state || settled || !provider) return page(400, "This login link is not (or no longer) valid. Run the login again.");
      const error = params.get("error");
      if (error) {
        finish(new Error(`the authorization server refused the login: ${error}${params.get("error_description") ? ` (${params.get("error_description")})` : ""}`));
        return page(400, `The login was refused (${error}). You can close this tab.`);
      }
      const code = params.get("code");
      if (!code) return page(400, "The redirect carried no authorization code.");
      try {
        const result = await auth(provider, { serverUrl: url, authorizationCode: code, fetchFn: boundedFetch(options.baseFetch) });
        if (result !== "AUTHORIZED") throw new Error("the authorization server did not issue tokens");
        finish(undefined);
        return page(200, `toolpool is logged in to ${server}. You can close this tab.`);
      } catch (failure) {
        finish(new Error(`exchanging the authorization code failed: ${(failure as Error).message}`));
        return page(400, "The login failed; see the terminal for why.");
      }
    },
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
  let authorizationUrl: URL | undefined;
  provider = new StoredOAuthProvider({
    server,
    url,
    store,
    settings: options.settings,
    now: options.now,
    redirectUrl,
    state,
    freshLogin: true,
    onRedirect: (target) => (authorizationUrl = target),
  });
  try {
    const result = await auth(provider, { serverUrl: url, ...(options.settings?.scope && { scope: options.settings.scope }), fetchFn: boundedFetch(options.baseFetch) });
    if (result !== "REDIRECT" || !authorizationUrl) throw new Error("the authorization server did not ask for a login");
    checkAuthorizationUrl(authorizationUrl);
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
  if (/dynamic client registration/i.test(message)) {
    return `the authorization server of MCP server "${server}" offers no dynamic client registration; register a client there and set mcpServers.${server}.oauth.clientId (${message})`;
  }
  return `could not start the OAuth login for MCP server "${server}": ${message}`;
}

function page(status: number, text: string): Response {
  const body = `<!doctype html><meta charset="utf-8"><title>toolpool</title><p>${text.replace(/[<>&]/g, "")}</p>`;
  return new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8" } });
}
