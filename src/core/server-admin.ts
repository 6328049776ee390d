/**
 * The MCP servers as the operator manages them: list, logs, restart, and OAuth logins to HTTP
 * servers (`toolpool/servers*`, `toolpool/auth/*`). The daemon owns the token files and the
 * connections; no answer ever carries a token. A name that is not configured, or a server that
 * cannot do what is asked, is the request's fault: an InvalidParams error naming it.
 */
import type { McpPool } from "../mcp/mcp-pool.ts";
import type { RemoteServerSpec } from "../mcp/server-spec.ts";
import { ErrorCode, RpcError } from "../protocol/jsonrpc.ts";
import type { ServerSummary } from "../protocol/methods.ts";

const DEFAULT_LOGIN_TIMEOUT_MS = 5 * 60_000;

export class ServerAdmin {
  constructor(private readonly pool: () => McpPool | undefined) {}

  list(): ServerSummary[] {
    return this.pool()?.servers() ?? [];
  }

  logs(name: string): { name: string; lines: string[] } {
    const lines = this.pool()?.logs(name);
    if (!lines) throw unknownServer(name);
    return { name, lines };
  }

  async restart(name: string): Promise<{ server: ServerSummary }> {
    const pool = this.pool();
    if (!pool?.server(name)) throw unknownServer(name);
    try {
      return { server: await pool.restart(name) };
    } catch (error) {
      // A disabled or removed server cannot be restarted: the request, not the daemon, is at fault.
      throw new RpcError(ErrorCode.InvalidParams, `Invalid params: ${(error as Error).message}`);
    }
  }

  /** Starts a login and answers with the authorization URL at once. */
  async login(name: string, timeoutMs: number | undefined) {
    const { pool, spec } = this.#remote(name);
    if (pool.oauth.status(spec).staticAuthorization) {
      throw new RpcError(ErrorCode.InvalidParams, `Invalid params: MCP server "${name}" sends its own Authorization header (mcpServers.${name}.headers); remove it to use OAuth`);
    }
    let attempt;
    try {
      attempt = await pool.oauth.login(spec, timeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS);
    } catch (error) {
      // Discovery or registration refused: the server's setup, not the daemon, is at fault.
      throw new RpcError(ErrorCode.InvalidParams, `Invalid params: ${(error as Error).message}`);
    }
    return { name, authorizationUrl: attempt.authorizationUrl, redirectUrl: attempt.redirectUrl, expiresAt: new Date(attempt.expiresAt).toISOString() };
  }

  /** Resolves when the browser came back and the server reconnected (it reconnects whether or not anyone waits). */
  async wait(name: string, signal: AbortSignal) {
    const { pool } = this.#remote(name);
    const login = pool.oauth.pendingLogin(name);
    if (!login) throw new RpcError(ErrorCode.InvalidParams, `Invalid params: no login to MCP server "${name}" is in progress; start one with toolpool/auth/login`);
    const cancelled = new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(new Error("cancelled")), { once: true }));
    try {
      await Promise.race([login.reconnected, cancelled]);
    } catch (error) {
      throw new RpcError(ErrorCode.InvalidParams, `the login to MCP server "${name}" did not complete: ${(error as Error).message}`);
    }
    return { name, loggedIn: true as const, server: pool.server(name) };
  }

  authStatus(name: string | undefined) {
    if (name !== undefined) {
      const { pool, spec } = this.#remote(name);
      return { servers: [pool.oauth.status(spec)] };
    }
    const pool = this.pool();
    if (!pool) return { servers: [] };
    const remote = pool.servers().map((server) => pool.spec(server.name)).filter((spec): spec is RemoteServerSpec => spec !== undefined && spec.transport !== "stdio");
    return { servers: remote.map((spec) => pool.oauth.status(spec)) };
  }

  async logout(name: string) {
    const { pool, spec } = this.#remote(name);
    const loggedOut = pool.oauth.logout(spec);
    // Reconnecting now shows the outcome at once (needs-auth for a server that requires a login).
    const server = spec.disabled ? pool.server(name) : await pool.restart(name);
    return { name, loggedOut, server };
  }

  #remote(name: string): { pool: McpPool; spec: RemoteServerSpec } {
    const pool = this.pool();
    const spec = pool?.spec(name);
    if (!pool || !spec) throw unknownServer(name);
    if (spec.transport === "stdio") throw new RpcError(ErrorCode.InvalidParams, `Invalid params: MCP server "${name}" is a stdio server; OAuth is for http and sse servers`);
    return { pool, spec };
  }
}

function unknownServer(name: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, `Invalid params: no MCP server named ${JSON.stringify(name)} is configured`);
}
