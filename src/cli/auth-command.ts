/**
 * `toolpool auth login SERVER | status [SERVER] | logout SERVER`: OAuth for HTTP MCP servers. The
 * daemon runs the login (it owns the token files); this prints the authorization URL, opens it
 * when there is a browser to open it in, and waits for the daemon to say the redirect came back.
 */
import { spawn } from "node:child_process";
import { Method } from "../protocol/method-names.ts";
import type { ServerSummary } from "../protocol/methods.ts";
import { withClient, type ClientCommandOptions } from "./commands.ts";
import { ExitCode, UsageError } from "./exit-codes.ts";

const USAGE = "usage: toolpool auth login SERVER | toolpool auth status [SERVER] | toolpool auth logout SERVER";

interface AuthStatusLine {
  name: string;
  url: string;
  loggedIn: boolean;
  expiresAt?: string;
  refreshable: boolean;
  client: string;
  issuer?: string;
  loginInProgress: boolean;
  staticAuthorization: boolean;
  tokenFile: string;
}

export interface AuthCommandOptions extends ClientCommandOptions {
  /** Never open a browser (also: $TOOLPOOL_NO_BROWSER). */
  noBrowser?: boolean;
  env?: NodeJS.ProcessEnv;
}

export function authCommand(options: AuthCommandOptions, args: readonly string[]): Promise<number> {
  const [action, name, ...extra] = args;
  if (extra.length > 0 || !action || (action !== "status" && !name) || !["login", "status", "logout"].includes(action)) throw new UsageError(USAGE);
  return withClient(options, async (client) => {
    if (action === "status") {
      const result = await client.request(Method.AuthStatus, name ? { name } : {});
      options.out(options.json ? JSON.stringify(result) : formatAuthStatus(result.servers));
      return ExitCode.Ok;
    }
    if (action === "logout") {
      const result = await client.request(Method.AuthLogout, { name: name! });
      options.out(options.json ? JSON.stringify(result) : result.loggedOut ? `logged out of ${name}` : `${name} had no stored login`);
      return ExitCode.Ok;
    }
    const login = await client.request(Method.AuthLogin, { name: name! });
    if (options.json) options.out(JSON.stringify(login));
    else options.out(`To log in to ${name}, open this URL in a browser (waiting until ${login.expiresAt}):\n\n  ${login.authorizationUrl}\n`);
    openBrowser(login.authorizationUrl, options);
    const done = await client.request(Method.AuthWait, { name: name! });
    if (options.json) options.out(JSON.stringify(done));
    else options.out(`logged in to ${name}; the server is ${done.server?.state}${done.server?.reason ? ` (${done.server?.reason})` : ""}`);
    return done.server?.state === "connected" || done.server?.state === "idle" ? ExitCode.Ok : ExitCode.Failed;
  });
}

/** Only where a person can see it: a desktop session, not a test, not when told not to. */
function openBrowser(url: string, options: AuthCommandOptions): void {
  const env = options.env ?? process.env;
  if (options.noBrowser || env.TOOLPOOL_NO_BROWSER) return;
  const opener = process.platform === "darwin" ? "open" : env.DISPLAY || env.WAYLAND_DISPLAY ? "xdg-open" : undefined;
  if (!opener) return;
  try {
    const child = spawn(opener, [url], { stdio: "ignore", detached: true });
    child.on("error", () => {});
    child.unref();
  } catch {
    // No opener installed: the printed URL is enough.
  }
}

export function formatAuthStatus(servers: readonly AuthStatusLine[]): string {
  if (servers.length === 0) return "no HTTP MCP servers are configured";
  return servers
    .map((server) => {
      const state = server.staticAuthorization
        ? "static Authorization header (OAuth not used)"
        : server.loggedIn
          ? `logged in${server.expiresAt ? `, token expires ${server.expiresAt}` : ""}${server.refreshable ? ", refreshable" : ""}`
          : `not logged in — run toolpool auth login ${server.name}`;
      return `${server.name}  ${server.url}\n  ${state}${server.loginInProgress ? " (a login is in progress)" : ""}\n  client: ${server.client}${server.issuer ? `; issuer: ${server.issuer}` : ""}; token file: ${server.tokenFile}`;
    })
    .join("\n");
}
