/**
 * `toolpool/auth/*`: OAuth logins to HTTP MCP servers, run by the core (core/server-admin.ts).
 * `login` answers with the authorization URL at once; `wait` resolves when the browser came back
 * and the server reconnected; `status` and `logout` look at and drop what is stored.
 */
import { Method } from "../../protocol/method-names.ts";
import type { Dispatcher } from "../dispatcher.ts";
import type { ToolPoolCore } from "../../core/tool-pool-core.ts";

/** What the auth methods use of the core: its server administration. */
export type AuthCore = Pick<ToolPoolCore, "servers">;

export function registerAuthMethods(dispatcher: Dispatcher, core: AuthCore): void {
  dispatcher.register(Method.AuthLogin, ({ name, timeoutMs }) => core.servers.login(name, timeoutMs));
  dispatcher.register(Method.AuthWait, ({ name }, { signal }) => core.servers.wait(name, signal));
  dispatcher.register(Method.AuthStatus, ({ name }) => core.servers.authStatus(name));
  dispatcher.register(Method.AuthLogout, ({ name }) => core.servers.logout(name));
}
