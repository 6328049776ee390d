/**
 * One HTTP MCP server's OAuth at run time: every request it is sent carries the stored access
 * token; a token about to expire is refreshed before it is used, and a 401 refreshes once and
 * retries. One refresh at a time per server: with refresh-token rotation a second, concurrent
 * refresh would present a token the first one has just used up, and log the user out.
 *
 * A server that answers 401 with nothing to refresh (never logged in, the refresh token revoked)
 * raises NeedsAuthError, which the supervisor turns into the `needs-auth` state.
 */
import { loginCommand } from "../protocol/login-command.ts";
import { refreshAuthorization } from "@modelcontextprotocol/sdk/client/auth.js";
import { OAuthError, ServerError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Logger } from "../runtime/logger.ts";
import type { OAuthSettings } from "./oauth-client-choice.ts";
import { discoverAuthorization, readChallenge, unionScopes, type AuthChallenge } from "./oauth-discovery.ts";
import { expiresAt, type OAuthDiscovery, type TokenRecord } from "./oauth-records.ts";
import type { OAuthStore } from "./oauth-store.ts";

/** Refresh this long before the server's stated expiry, so a token never expires in flight. */
export const REFRESH_SKEW_MS = 60_000;

/**
 * Each request to an authorization server (discovery, registration, token) gives up after this:
 * a refresh is shared by every waiting call, so one that hung would hang them all.
 */
export const AUTH_REQUEST_TIMEOUT_MS = 30_000;

/** `fetch` with a deadline on every request (and the caller's signal, if any). */
export function boundedFetch(base: FetchLike = fetch, timeoutMs = AUTH_REQUEST_TIMEOUT_MS): FetchLike {
  return (url, init) => {
    const deadline = AbortSignal.timeout(timeoutMs);
    return base(url, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline });
  };
}

export class NeedsAuthError extends Error {
  override name = "NeedsAuthError";
  constructor(
    readonly server: string,
    why: string,
  ) {
    super(`MCP server "${server}" needs a login (${why}); run \`${loginCommand(server)}\``);
  }
}


/** The SDK wraps some transport errors; look a few causes deep. */
export function findNeedsAuth(error: unknown): NeedsAuthError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof NeedsAuthError) return current;
    current = current.cause;
  }
  return undefined;
}

export interface ServerAuthOptions {
  server: string;
  url: string;
  settings: OAuthSettings | undefined;
  store: OAuthStore;
  logger: Logger;
  now: () => number;
  /** The fetch that reaches the network (tests: loopback only). */
  baseFetch?: FetchLike;
}

export class ServerAuth {
  #refreshing: Promise<string> | undefined;
  /** The last NeedsAuthError thrown and not yet followed by a good answer (see takeNeedsAuth). */
  #needsAuth: NeedsAuthError | undefined;
  /** Refreshes done, for status and tests. */
  refreshes = 0;
  /** What the server's last 401 asked for (where its metadata is, which scope): a login starts from it. */
  challenge: AuthChallenge | undefined;

  constructor(readonly options: ServerAuthOptions) {}

  /** What the transport sends through: the token added, a 401 refreshed and retried once. */
  readonly fetch: FetchLike = async (url, init) => {
    try {
      const response = await this.#fetch(url, init);
      if (response.ok) this.#needsAuth = undefined;
      return response;
    } catch (error) {
      if (error instanceof NeedsAuthError) this.#needsAuth = error;
      throw error;
    }
  };

  /**
   * Why the server wants a login, if a request just found out. The SSE transport's EventSource
   * reports a failed fetch only as an event (our NeedsAuthError is lost there), so a failed
   * connect asks this.
   */
  takeNeedsAuth(): NeedsAuthError | undefined {
    const needsAuth = this.#needsAuth;
    this.#needsAuth = undefined;
    return needsAuth;
  }

  readonly #fetch: FetchLike = async (url, init) => {
    const base = this.options.baseFetch ?? fetch;
    // The token is for this server: a request anywhere else (a redirect, an endpoint on another
    // origin) goes out without it, and without any refresh on its account.
    if (new URL(String(url)).origin !== new URL(this.options.url).origin) return base(url, init);
    const send = (token: string | undefined) => {
      const headers = new Headers(init?.headers);
      if (token) headers.set("authorization", `Bearer ${token}`);
      return base(url, { ...init, headers });
    };
    const token = await this.accessToken();
    const response = await send(token);
    if (response.status === 403 && token) this.#stepUp(response);
    if (response.status !== 401) return response;
    this.challenge = readChallenge(response);
    await response.body?.cancel();
    if (!token) throw new NeedsAuthError(this.options.server, "it answered 401 and no one has logged in");
    const fresh = await this.refresh(token, "401");
    const retried = await send(fresh);
    if (retried.status !== 401) return retried;
    await retried.body?.cancel();
    this.#dropTokens();
    throw new NeedsAuthError(this.options.server, "it refused a freshly refreshed token");
  };

  /**
   * A 403 `insufficient_scope` naming a scope the login did not ask for: a login that asks for
   * what it held and what is needed (the spec's step-up; a person approves it). A scope already
   * held, or one the configured `scope` fixes, leaves the 403 to the caller: nothing to gain.
   */
  #stepUp(response: Response): void {
    const challenge = readChallenge(response);
    if (challenge.error !== "insufficient_scope" || !challenge.scope) return;
    const record = this.options.store.tokensOf(this.options.server, this.options.url);
    const held = record?.tokens.scope ?? record?.scope ?? "";
    const wanted = unionScopes(held, challenge.scope);
    if (wanted === unionScopes(held, "")) return;
    const configured = this.options.settings?.scope;
    if (configured !== undefined) {
      if (unionScopes(configured, challenge.scope) === unionScopes(configured, "")) return;
      void response.body?.cancel();
      throw new NeedsAuthError(this.options.server, `it needs the scope "${challenge.scope}", which mcpServers.${this.options.server}.oauth.scope does not include`);
    }
    void response.body?.cancel();
    this.challenge = { ...challenge, scope: wanted };
    throw new NeedsAuthError(this.options.server, `it needs the scope "${challenge.scope}" for this request (insufficient_scope)`);
  }

  /** The token to send now, refreshed first when it is about to expire; undefined when there is none. */
  async accessToken(): Promise<string | undefined> {
    const record = this.options.store.tokensOf(this.options.server, this.options.url);
    const token = record?.tokens.access_token;
    if (!token) return undefined;
    const expiry = expiresAt(record);
    if (expiry !== undefined && this.options.now() >= expiry - REFRESH_SKEW_MS) return this.refresh(token, "expiry");
    return token;
  }

  /**
   * A fresh access token for one that was refused (or is expiring). Callers that arrive while a
   * refresh runs share it; one that arrives after it finished gets its result without a second one.
   */
  refresh(stale: string, reason: "expiry" | "401"): Promise<string> {
    if (this.#refreshing) return this.#refreshing;
    const record = this.options.store.tokensOf(this.options.server, this.options.url);
    const current = record?.tokens.access_token;
    const expiry = expiresAt(record);
    if (current && current !== stale && (expiry === undefined || this.options.now() < expiry - REFRESH_SKEW_MS)) return Promise.resolve(current);
    this.#refreshing = this.#refresh(reason).finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  #dropTokens(): void {
    const discovery = this.options.store.server(this.options.server, this.options.url).discovery;
    if (discovery) this.options.store.removeTokens(discovery.issuer, discovery.resource);
  }

  /**
   * The SDK's refresh grant, called directly rather than through its `auth()`: that one treats an
   * unreachable token endpoint like a refused refresh and asks for a new login, and a network blip
   * must not log anyone out.
   */
  async #refresh(reason: "expiry" | "401"): Promise<string> {
    const { server, url, store } = this.options;
    const fetchFn = boundedFetch(this.options.baseFetch);
    let discovery = store.server(server, url).discovery;
    const record = discovery && store.tokens(discovery.issuer, discovery.resource);
    const refreshToken = record?.tokens.refresh_token;
    if (!discovery || !record || !refreshToken) {
      this.#dropTokens();
      throw new NeedsAuthError(server, "the access token expired and there is no refresh token");
    }
    // Refused: perhaps the server now trusts another authorization server. Its refresh token goes
    // to the issuer that issued it or nowhere.
    if (reason === "401") discovery = await this.#rediscover(discovery, fetchFn);
    const client = clientFor(record, this.options.settings);
    if (typeof client === "string") throw new NeedsAuthError(server, client);
    let tokens: OAuthTokens;
    try {
      tokens = await refreshAuthorization(discovery.issuer, {
        ...(discovery.metadata && { metadata: discovery.metadata }),
        clientInformation: client,
        refreshToken,
        ...(discovery.resourceIndicator && { resource: discovery.resourceIndicator }),
        fetchFn,
      });
      store.saveTokens({ ...record, tokens, obtainedAt: this.options.now() });
    } catch (error) {
      // A refusal (invalid_grant: revoked, expired, rotated away) needs a person; anything else
      // (unreachable, a 5xx) fails this call only, and the next one tries again.
      if (error instanceof OAuthError && !(error instanceof ServerError)) {
        this.#dropTokens();
        throw new NeedsAuthError(server, `the authorization server refused the refresh: ${error.message}`);
      }
      throw new Error(`could not refresh the OAuth token of MCP server "${server}": ${(error as Error).message}`);
    }
    this.refreshes++;
    // Never the token itself: logs are read by more people than the token file.
    this.options.logger.info("MCP OAuth token refreshed", { server, reason });
    return tokens.access_token;
  }

  /**
   * The server's discovery, looked up again. Another issuer (or resource) is recorded, so the
   * server's tokens are now looked for there (and not found): a login is needed. An unreachable
   * metadata endpoint keeps what is known, as a blip must not log anyone out.
   */
  async #rediscover(known: OAuthDiscovery, fetchFn: FetchLike): Promise<OAuthDiscovery> {
    const { server, url, store } = this.options;
    let fresh: OAuthDiscovery;
    try {
      fresh = await discoverAuthorization(url, fetchFn, this.challenge);
    } catch {
      return known;
    }
    // A server whose resource metadata is missing just now falls back to its own origin as the
    // authorization server (the 2025-03-26 rule): not a statement that its issuer changed.
    if (fresh.resourceIndicator === undefined) return known;
    if (fresh.issuer === known.issuer && fresh.resource === known.resource) return known;
    store.saveServer(server, { ...store.server(server, url), discovery: fresh });
    this.options.logger.warn("MCP server's authorization server changed", { server, from: known.issuer, to: fresh.issuer });
    throw new NeedsAuthError(server, `its authorization server is now ${fresh.issuer} (it was ${known.issuer}), whose login it has not had`);
  }
}

/** The client the tokens were issued to, or why it cannot be presented any more. */
function clientFor(record: TokenRecord, settings: OAuthSettings | undefined): OAuthClientInformationMixed | string {
  switch (record.clientKind) {
    case "configured":
      if (settings?.clientId !== record.clientId) return "the configured client id changed since the login";
      return { client_id: record.clientId, ...(settings.clientSecret && { client_secret: settings.clientSecret }) };
    case "metadata-document":
      if (settings?.clientMetadataUrl !== record.clientId) return "the configured client metadata URL changed since the login";
      return { client_id: record.clientId };
    case "registered":
      return record.client ?? "no OAuth client is registered for it";
  }
}
