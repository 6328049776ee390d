/**
 * The SDK's `OAuthClientProvider` over our token store, for one server. The SDK's `auth()` does the
 * protocol (protected resource and authorization server discovery, dynamic registration, PKCE, the
 * code exchange); this says where its state lives, and hands the authorization URL to whoever
 * prints it. (Refreshes do not go through `auth()`: see server-auth.ts.)
 */
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { OAuthStore } from "./oauth-store.ts";

export interface OAuthSettings {
  /** A client registered ahead of time; without it, the client registers itself where offered. */
  clientId?: string;
  clientSecret?: string;
  scope?: string;
}

export interface ProviderOptions {
  server: string;
  url: string;
  store: OAuthStore;
  settings: OAuthSettings | undefined;
  now: () => number;
  /** The loopback redirect of this login. */
  redirectUrl: string;
  /** The `state` parameter of this login, checked when the redirect arrives. */
  state?: string;
  onRedirect?: (authorizationUrl: URL) => void;
  /**
   * A login: stored tokens are not offered (the SDK would refresh them instead of asking), and
   * a client we registered for another redirect (an earlier port) is registered afresh, since not
   * every authorization server relaxes the port of a loopback redirect as RFC 8252 asks. What is
   * stored stays in use until the new tokens arrive.
   */
  freshLogin?: boolean;
}

export class StoredOAuthProvider implements OAuthClientProvider {
  #codeVerifier: string | undefined;

  constructor(private readonly options: ProviderOptions) {}

  get redirectUrl(): string {
    return this.options.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const { settings } = this.options;
    return {
      client_name: "toolpool",
      redirect_uris: [this.options.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: settings?.clientSecret ? "client_secret_post" : "none",
      ...(settings?.scope && { scope: settings.scope }),
    };
  }

  state(): string {
    return this.options.state ?? "";
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const { settings } = this.options;
    if (settings?.clientId) {
      return { client_id: settings.clientId, ...(settings.clientSecret && { client_secret: settings.clientSecret }) };
    }
    const client = this.#read().client;
    const registered = (client as { redirect_uris?: unknown } | undefined)?.redirect_uris;
    if (this.options.freshLogin && Array.isArray(registered) && !registered.includes(this.options.redirectUrl)) return undefined;
    return client;
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    // A configured client id lives in the config; only a registration of our own is kept.
    if (this.options.settings?.clientId) return;
    this.#update((record) => ({ ...record, client, redirectUrl: this.options.redirectUrl }));
  }

  tokens(): OAuthTokens | undefined {
    if (this.options.freshLogin) return undefined;
    return this.#read().tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.#update((record) => ({ ...record, tokens, obtainedAt: this.options.now(), redirectUrl: this.options.redirectUrl }));
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.options.onRedirect?.(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    // Only in memory: a verifier is worth nothing after this login, and must not outlive it on disk.
    this.#codeVerifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.#codeVerifier === undefined) throw new Error("no login is in progress (no PKCE code verifier)");
    return this.#codeVerifier;
  }

  saveDiscoveryState(discovery: OAuthDiscoveryState): void {
    this.#update((record) => ({ ...record, discovery }));
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#read().discovery;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (scope === "verifier") {
      this.#codeVerifier = undefined;
      return;
    }
    this.#update((record) => {
      const next = { ...record };
      if (scope === "all" || scope === "tokens") {
        delete next.tokens;
        delete next.obtainedAt;
      }
      if (scope === "all" || scope === "client") delete next.client;
      if (scope === "all" || scope === "discovery") delete next.discovery;
      return next;
    });
  }

  #read() {
    return this.options.store.read(this.options.server, this.options.url);
  }

  #update(change: Parameters<OAuthStore["update"]>[2]): void {
    this.options.store.update(this.options.server, this.options.url, change);
  }
}
