/**
 * `toolpool/auth/*`: OAuth logins to HTTP MCP servers, run by the daemon (which owns the token
 * files and the connections). `login` starts one and answers with the authorization URL at once;
 * `wait` resolves when the browser came back and the server reconnected (it reconnects whether or
 * not anyone waits); `status` and `logout`
 * look at and drop what is stored. No answer ever carries a token.
 */
import { ErrorCode, RpcError } from "../../protocol/jsonrpc.ts";
import { Method } from "../../protocol/method-names.ts";
import type { McpPool } from "../../mcp/mcp-pool.ts";
import type { RemoteServerSpec } from "../../mcp/server-spec.ts";
import type { Dispatcher } from "../dispatcher.ts";
import type { ToolPoolCore } from "../../core/tool-pool-core.ts";

/** What the auth methods use of the core: its MCP pool. */
export type AuthCore = Pick<ToolPoolCore, "mcp">;

const DEFAULT_LOGIN_TIMEOUT_MS = 5 * 60_000;

export function registerAuthMethods(dispatcher: Dispatcher, state: AuthCore): void {
  dispatcher.register(
    Method.AuthLogin,
    async ({ name, timeoutMs }) => {
      const { pool, spec } = remoteServer(state, name);
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
    },
  );

  dispatcher.register(
    Method.AuthWait,
    async ({ name }, { signal }) => {
      const { pool } = remoteServer(state, name);
      const login = pool.oauth.pendingLogin(name);
      if (!login) throw new RpcError(ErrorCode.InvalidParams, `Invalid params: no login to MCP server "${name}" is in progress; start one with toolpool/auth/login`);
      const cancelled = new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(new Error("cancelled")), { once: true }));
      try {
        await Promise.race([login.reconnected, cancelled]);
      } catch (error) {
        throw new RpcError(ErrorCode.InvalidParams, `the login to MCP server "${name}" did not complete: ${(error as Error).message}`);
      }
      return { name, loggedIn: true, server: pool.server(name) };
    },
  );

  dispatcher.register(
    Method.AuthStatus,
    ({ name }) => {
      if (name !== undefined) {
        const { pool, spec } = remoteServer(state, name);
        return { servers: [pool.oauth.status(spec)] };
      }
      const pool = state.mcp();
      const remote = (pool?.servers() ?? []).map((server) => pool?.spec(server.name)).filter((spec): spec is RemoteServerSpec => spec !== undefined && spec.transport !== "stdio");
      return { servers: remote.map((spec) => pool!.oauth.status(spec)) };
    },
  );

  dispatcher.register(
    Method.AuthLogout,
    async ({ name }) => {
      const { pool, spec } = remoteServer(state, name);
      const loggedOut = pool.oauth.logout(spec);
      // Reconnecting now shows the outcome at once (needs-auth for a server that requires a login).
      const server = spec.disabled ? pool.server(name) : await pool.restart(name);
      return { name, loggedOut, server };
    },
  );
}

function remoteServer(state: AuthCore, name: string): { pool: McpPool; spec: RemoteServerSpec } {
  const pool = state.mcp();
  const spec = pool?.spec(name);
  if (!pool || !spec) throw new RpcError(ErrorCode.InvalidParams, `Invalid params: no MCP server named ${JSON.stringify(name)} is configured`);
  if (spec.transport === "stdio") throw new RpcError(ErrorCode.InvalidParams, `Invalid params: MCP server "${name}" is a stdio server; OAuth is for http and sse servers`);
  return { pool, spec };
}
