/**
 * The pool's OAuth: one ServerAuth per HTTP server (its tokens, its single refresh), the logins in
 * progress (at most one per server; a new one replaces the old), and what `toolpool auth status`
 * shows — which never includes a token, only whether there is one and when it expires.
 */
import type { AuthStatusSummary } from "../protocol/methods.ts";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Logger } from "../runtime/logger.ts";
import { beginLogin, type LoginAttempt } from "./oauth-login.ts";
import { expiresAt, OAuthStore } from "./oauth-store.ts";
import { ServerAuth } from "./server-auth.ts";
import type { RemoteServerSpec, ServerSpec } from "./server-spec.ts";

export interface OAuthManagerOptions {
  dir: string;
  logger: Logger;
  now: () => number;
  baseFetch?: FetchLike;
  /** A login completed: reconnect the server (whether or not anyone waits for the login). */
  onLoggedIn?: (server: string) => Promise<unknown>;
}

export interface PendingLogin {
  attempt: LoginAttempt;
  /** Settles once the login completed and the server was reconnected (or the login failed). */
  reconnected: Promise<void>;
}

/** One HTTP MCP server's login as `toolpool/auth/status` reports it (never its tokens). */
export type AuthStatus = AuthStatusSummary;

export class OAuthManager {
  readonly store: OAuthStore;
  readonly #auth = new Map<string, ServerAuth>();
  readonly #logins = new Map<string, PendingLogin>();

  constructor(private readonly options: OAuthManagerOptions) {
    this.store = new OAuthStore(options.dir);
  }

  /** What the server's requests go through; undefined for stdio, or when its config sends its own Authorization. */
  serverAuth(spec: ServerSpec): ServerAuth | undefined {
    if (spec.transport === "stdio" || hasStaticAuthorization(spec)) return undefined;
    const existing = this.#auth.get(spec.name);
    if (existing && existing.options.url === spec.url) return existing;
    const created = new ServerAuth({
      server: spec.name,
      url: spec.url,
      settings: spec.oauth,
      store: this.store,
      logger: this.options.logger,
      now: this.options.now,
      ...(this.options.baseFetch && { baseFetch: this.options.baseFetch }),
    });
    this.#auth.set(spec.name, created);
    return created;
  }

  async login(spec: RemoteServerSpec, timeoutMs: number): Promise<LoginAttempt> {
    this.#logins.get(spec.name)?.attempt.cancel("a newer login replaced this one");
    const attempt = await beginLogin({
      server: spec.name,
      url: spec.url,
      settings: spec.oauth,
      store: this.store,
      now: this.options.now,
      timeoutMs,
      ...(this.options.baseFetch && { baseFetch: this.options.baseFetch }),
      challenge: this.#auth.get(spec.name)?.challenge,
    });
    // Kept after it settles, until a newer login replaces it: the browser may come back before
    // the CLI's `auth/wait` arrives, and that wait must still hear how the login ended.
    const reconnected = attempt.done.then(
      async () => {
        this.options.logger.info("MCP OAuth login completed", { server: spec.name });
        await this.options.onLoggedIn?.(spec.name);
      },
      (error: Error) => {
        this.options.logger.warn("MCP OAuth login failed", { server: spec.name, reason: error.message });
        throw error;
      },
    );
    reconnected.catch(() => {});
    this.#logins.set(spec.name, { attempt, reconnected });
    return attempt;
  }

  pendingLogin(name: string): PendingLogin | undefined {
    return this.#logins.get(name);
  }

  status(spec: RemoteServerSpec): AuthStatus {
    const discovery = this.store.server(spec.name, spec.url).discovery;
    const record = discovery && this.store.tokens(discovery.issuer, discovery.resource);
    const expiry = expiresAt(record);
    const client = spec.oauth?.clientId ? "configured" : record?.clientKind ?? (discovery && this.store.client(discovery.issuer) ? "registered" : "none");
    return {
      name: spec.name,
      url: spec.url,
      loggedIn: Boolean(record?.tokens.access_token),
      ...(expiry !== undefined && { expiresAt: new Date(expiry).toISOString() }),
      refreshable: Boolean(record?.tokens.refresh_token),
      client,
      ...(discovery && { issuer: discovery.issuer }),
      loginInProgress: this.#logins.get(spec.name)?.attempt.settled === false,
      staticAuthorization: hasStaticAuthorization(spec),
      tokenFile: discovery ? this.store.tokensPath(discovery.issuer, discovery.resource) : this.store.serverPath(spec.name, spec.url),
    };
  }

  /**
   * Forgets the tokens of the server's issuer and resource (the registration is kept, and so are
   * tokens a login under another issuer left) and which issuer its configured client id was used
   * with; true when there were tokens.
   */
  logout(spec: RemoteServerSpec): boolean {
    this.#logins.get(spec.name)?.attempt.cancel("logged out");
    const { configuredClient: _bound, ...record } = this.store.server(spec.name, spec.url);
    if (_bound) this.store.saveServer(spec.name, record);
    return record.discovery ? this.store.removeTokens(record.discovery.issuer, record.discovery.resource) : false;
  }

  close(): void {
    for (const { attempt } of this.#logins.values()) attempt.cancel("the daemon is stopping");
    this.#logins.clear();
  }
}

export function hasStaticAuthorization(spec: RemoteServerSpec): boolean {
  return Object.keys(spec.headers).some((header) => header.toLowerCase() === "authorization");
}
