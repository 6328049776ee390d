// test-plan: one tier — OAuth logins to HTTP MCP servers, no feature() on their path.
/**
 * OAuth for HTTP MCP servers, end to end over the daemon's socket against a real OAuth-protected
 * MCP server on loopback (the SDK's mcpAuthRouter and requireBearerAuth over an in-memory
 * authorization server): needs-auth, login through the loopback redirect, calls, refresh before
 * expiry (one refresh for many concurrent calls) and on a 401, a revoked refresh token, and the
 * token file's mode and secrecy.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { DaemonError, ToolpoolClient } from "../../src/client/client.ts";
import { Method } from "../../src/protocol/method-names.ts";
import { startTestDaemon } from "../helpers/daemon-harness.ts";
import { playBrowser, startOAuthFixture } from "../fixtures/mcp/oauth-fixture-server.ts";
import { startOAuthDaemon as startDaemon } from "./oauth-daemon.ts";
import { REPO_ROOT, tempDir, waitFor } from "./helpers.ts";

setDefaultTimeout(30_000);

const whoami = { name: "mcp__remote__whoami", input: {} };

describe("OAuth for HTTP MCP servers", () => {
  test("needs-auth with the command, login through the loopback redirect, calls, refresh at expiry and on 401, a revoked refresh token", async () => {
    await using fixture = await startOAuthFixture();
    await using running = await startDaemon(fixture);
    const { client, provider } = { ...running, provider: fixture.provider };

    // Not logged in: waiting for a login, with the exact command; not failed, not parked.
    const waiting = await waitFor(async () => {
      const state = await running.serverState();
      return state.state === "needs-auth" && state;
    }, "needs-auth");
    expect(waiting.login).toBe("toolpool auth login remote");
    expect(waiting.reason).toContain("run `toolpool auth login remote`");
    expect(waiting.nextRetryAt).toBeUndefined();

    // Login: discovery, dynamic registration, PKCE, the redirect to our loopback listener.
    const { started, landing, done } = await running.login();
    expect(new URL(started.redirectUrl).hostname).toBe("127.0.0.1");
    const authorization = new URL(started.authorizationUrl);
    expect(authorization.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorization.searchParams.get("state")?.length).toBeGreaterThan(20);
    expect(landing.status).toBe(200);
    expect(done.server?.state).toBe("connected");
    expect(provider.registrations).toBe(1);
    expect(provider.codeExchanges).toBe(1);
    expect(await client.call(whoami)).toMatchObject({ isError: false, content: [{ type: "text", text: "authorized" }] });

    // One record of each kind (the server's discovery, the issuer's registration, the tokens of
    // issuer and resource): each 0600 in a 0700 directory.
    const files = readdirSync(running.oauthDir).sort();
    expect(files.map((file) => file.split(".")[0])).toEqual(["client", "server", "tokens"]);
    for (const file of files) expect(statSync(join(running.oauthDir, file)).mode & 0o777).toBe(0o600);
    expect(statSync(running.oauthDir).mode & 0o777).toBe(0o700);
    const tokenFile = join(running.oauthDir, files[2]!);

    // Past the token's expiry: many concurrent calls, one refresh, no 401 on the way.
    const unauthorizedBefore = fixture.stats.unauthorized;
    running.clock.offsetMs = 3600_000;
    const burst = await Promise.all(Array.from({ length: 6 }, () => client.call(whoami)));
    expect(burst.map((result) => result.isError)).toEqual([false, false, false, false, false, false]);
    expect(provider.refreshes).toBe(1);
    expect(fixture.stats.unauthorized).toBe(unauthorizedBefore);

    // The server forgets the token early (a 401): refreshed once for concurrent calls, retried, no prompt.
    provider.expireAccessTokens();
    const afterRevocation = await Promise.all(Array.from({ length: 4 }, () => client.call(whoami)));
    expect(afterRevocation.map((result) => result.isError)).toEqual([false, false, false, false]);
    expect(provider.refreshes).toBe(2);
    expect((await running.serverState()).state).toBe("connected");

    // The refresh token revoked as well: needs-auth with the command; the tools stay listed and searchable.
    provider.expireAccessTokens();
    provider.revokeRefreshTokens();
    const refused = await client.call(whoami);
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain("toolpool auth login remote");
    const after = await running.serverState();
    expect(after).toMatchObject({ state: "needs-auth", login: "toolpool auth login remote", toolCount: 1 });
    const listed = (await client.tools()).tools.find((tool) => tool.name === whoami.name);
    expect(listed).toMatchObject({ needsAuth: true, stale: true });
    const found = (await client.search({ query: "select:mcp__remote__whoami" })) as { matches: { name: string }[] };
    expect(found.matches.map((match) => match.name)).toEqual([whoami.name]);
    const again = await client.call(whoami);
    expect(JSON.stringify(again.content)).toContain("toolpool auth login remote");

    // Logging in again brings it back.
    const second = await running.login();
    expect(second.done.server?.state).toBe("connected");
    expect((await client.call(whoami)).isError).toBe(false);

    // No token in any log line, in status or in the servers list; the file's content in no log line.
    const status = JSON.stringify(await client.request(Method.AuthStatus, {}));
    const servers = JSON.stringify(await client.servers());
    const fileText = readFileSync(tokenFile, "utf8");
    expect(provider.issued.length).toBeGreaterThan(4);
    for (const token of provider.issued) {
      for (const line of running.logs) expect(line).not.toContain(token);
      expect(status).not.toContain(token);
      expect(servers).not.toContain(token);
    }
    for (const line of running.logs) expect(line).not.toContain(fileText.trim());
    expect(running.logs.some((line) => line.includes("MCP OAuth token refreshed"))).toBe(true);
    expect(JSON.parse(status)).toMatchObject({ servers: [{ name: "remote", loggedIn: true, refreshable: true, client: "registered", loginInProgress: false }] });
  });

  test("a redirect without the login's state is refused; a wait after the redirect still completes; logout forgets the tokens", async () => {
    await using fixture = await startOAuthFixture();
    await using running = await startDaemon(fixture);
    await waitFor(async () => (await running.serverState()).state === "needs-auth", "needs-auth");
    const started = await running.client.request(Method.AuthLogin, { name: "remote" });
    const forged = await fetch(`${started.redirectUrl}?code=stolen&state=wrong`);
    expect(forged.status).toBe(400);
    expect(fixture.provider.codeExchanges).toBe(0);
    // The browser comes back before anyone waits: the server reconnects by itself, and a wait
    // that comes later still hears the outcome.
    await playBrowser(started.authorizationUrl);
    await waitFor(async () => (await running.serverState()).state === "connected", "reconnected without a wait");
    const waited = await running.client.request(Method.AuthWait, { name: "remote" });
    expect(waited.server?.state).toBe("connected");
    const out = await running.client.request(Method.AuthLogout, { name: "remote" });
    expect(out).toMatchObject({ loggedOut: true, server: { state: "needs-auth" } });
  });

  test("without dynamic registration the login says to configure a client id; a configured one is used", async () => {
    await using fixture = await startOAuthFixture({ dynamicRegistration: false });
    {
      await using running = await startDaemon(fixture);
      await waitFor(async () => (await running.serverState()).state === "needs-auth", "needs-auth");
      const refused = await running.client.request(Method.AuthLogin, { name: "remote" }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(DaemonError);
      expect((refused as Error).message).toContain("set mcpServers.remote.oauth.clientId");
    }
    fixture.provider.clients.set("preregistered", { client_id: "preregistered", redirect_uris: ["http://127.0.0.1/callback"], token_endpoint_auth_method: "none" });
    await using running = await startDaemon(fixture, { oauth: { clientId: "preregistered" } });
    await waitFor(async () => (await running.serverState()).state === "needs-auth", "needs-auth");
    const { started, done } = await running.login();
    expect(new URL(started.authorizationUrl).searchParams.get("client_id")).toBe("preregistered");
    expect(done.server?.state).toBe("connected");
    expect(fixture.provider.registrations).toBe(0);
  });

  test("over the legacy SSE transport: needs-auth, login, a call, a 401 refreshed", async () => {
    await using fixture = await startOAuthFixture({ transport: "sse" });
    await using running = await startDaemon(fixture);
    const waiting = await waitFor(async () => {
      const state = await running.serverState();
      return state.state === "needs-auth" && state;
    }, "needs-auth over SSE");
    expect(waiting).toMatchObject({ transport: "sse", login: "toolpool auth login remote" });
    const { done } = await running.login();
    expect(done.server?.state).toBe("connected");
    expect(await running.client.call(whoami)).toMatchObject({ isError: false, content: [{ type: "text", text: "authorized" }] });
    fixture.provider.expireAccessTokens();
    expect(await running.client.call(whoami)).toMatchObject({ isError: false });
    expect(fixture.provider.refreshes).toBe(1);
  });

  test("after a restart with the login gone, the cached tools are listed and searchable, marked as needing login", async () => {
    await using fixture = await startOAuthFixture();
    const dirs = { oauthDir: join(tempDir("oauth-"), "oauth"), cachePath: join(tempDir("cache-"), "catalog.sqlite") };
    {
      await using first = await startDaemon(fixture, {}, dirs);
      await waitFor(async () => (await first.serverState()).state === "needs-auth", "needs-auth");
      expect((await first.login()).done.server?.state).toBe("connected");
    }
    fixture.provider.expireAccessTokens();
    fixture.provider.revokeRefreshTokens();
    await using second = await startDaemon(fixture, {}, dirs);
    const state = await waitFor(async () => {
      const current = await second.serverState();
      return current.state === "needs-auth" && current;
    }, "needs-auth after the restart");
    expect(state).toMatchObject({ toolCount: 1, stale: true, login: "toolpool auth login remote" });
    expect((await second.client.tools()).tools.find((tool) => tool.name === whoami.name)).toMatchObject({ needsAuth: true });
    const found = (await second.client.search({ query: "caller is authorized" })) as { matches: { name: string; needsAuth?: boolean }[] };
    expect(found.matches).toContainEqual(expect.objectContaining({ name: whoami.name, needsAuth: true }));
    // The model's own ToolSearch says so too, with the command the user runs. (A workspace of its
    // own: the earlier tests' calls of whoami in the default one would have promoted it to core.)
    const { sessionId } = await second.client.session({ workspaceRoots: [tempDir("oauth-ws-")] });
    const modelSearch = await second.client.call({ sessionId, name: "ToolSearch", input: { query: "caller is authorized" } });
    expect(modelSearch.structuredContent).toMatchObject({ needs_login_mcp_servers: ["remote"], needs_login_matches: [whoami.name] });
    expect(JSON.stringify(modelSearch.content)).toContain("need a login before they can run: ask the user to run `toolpool auth login remote`");
    // Explain agrees with the call: a tool of a server waiting for a login is listed but not callable.
    const standard = await second.client.session({ delivery: "standard", workspaceRoots: [tempDir("oauth-ws-")] });
    const explained = await second.client.request(Method.Explain, { name: whoami.name, sessionId: standard.sessionId });
    expect(explained).toMatchObject({ inToolsArray: true, callable: false, summary: `${whoami.name} is in the array, but MCP server remote waits for an OAuth login: a call fails until \`toolpool auth login remote\`` });
    expect(explained.decisions).toContainEqual({ step: "server", verdict: "blocked", reason: expect.stringContaining("MCP server remote waits for an OAuth login: "), server: "remote", state: "needs-auth" });
    expect((await second.client.call({ sessionId: standard.sessionId, ...whoami })).isError).toBe(true);
    // Without a session (a connection that opened none): in the pool, and still not callable.
    const bare = await ToolpoolClient.connect(second.socketPath);
    try {
      expect(await bare.request(Method.Explain, { name: whoami.name })).toMatchObject({ inToolsArray: false, callable: false });
    } finally {
      bare.close();
    }
  });

  test("auth methods refuse stdio servers and unknown names", async () => {
    await using fixture = await startOAuthFixture();
    await using running = await startDaemon(fixture);
    const unknown = await running.client.request(Method.AuthLogin, { name: "nope" }).catch((error: unknown) => error);
    expect((unknown as Error).message).toContain('no MCP server named "nope"');
    await using stdio = await startTestDaemon({ config: { mcpServers: { local: { command: "never-run", disabled: true } } } });
    const stdioClient = await ToolpoolClient.connect(stdio.socketPath);
    const notHttp = await stdioClient.request(Method.AuthLogin, { name: "local" }).catch((error: unknown) => error);
    stdioClient.close();
    expect((notHttp as Error).message).toBe('Invalid params: MCP server "local" is a stdio server; OAuth is for http and sse servers');
    await using withHeader = await startDaemon(fixture, { headers: { Authorization: "Bearer static" } });
    const refused = await withHeader.client.request(Method.AuthLogin, { name: "remote" }).catch((error: unknown) => error);
    expect((refused as Error).message).toContain('MCP server "remote" sends its own Authorization header');
    const noLogin = await running.client.request(Method.AuthWait, { name: "remote" }).catch((error: unknown) => error);
    expect((noLogin as Error).message).toContain("no login to MCP server \"remote\" is in progress");
  });

  test("the CLI: auth login prints the URL and waits for the redirect; auth status shows no token", async () => {
    await using fixture = await startOAuthFixture();
    await using running = await startDaemon(fixture);
    await waitFor(async () => (await running.serverState()).state === "needs-auth", "needs-auth");
    const cli = (...args: string[]) =>
      Bun.spawn([process.execPath, join(REPO_ROOT, "src", "main.ts"), ...args, "--socket", running.socketPath], { stdout: "pipe", stderr: "pipe", env: process.env });
    const login = cli("auth", "login", "remote");
    const reader = login.stdout.getReader();
    let printed = "";
    while (!/http:\/\/127\.0\.0\.1:\d+\/authorize\S*/.test(printed)) {
      const chunk = await reader.read();
      if (chunk.done) throw new Error(`auth login ended before printing a URL: ${printed} ${await new Response(login.stderr).text()}`);
      printed += new TextDecoder().decode(chunk.value);
    }
    const url = printed.match(/http:\/\/127\.0\.0\.1:\d+\/authorize\S*/)![0];
    await playBrowser(url);
    while (true) {
      const chunk = await reader.read();
      if (chunk.done) break;
      printed += new TextDecoder().decode(chunk.value);
    }
    expect(await login.exited).toBe(0);
    expect(printed).toContain("logged in to remote; the server is connected");
    const status = cli("auth", "status");
    const statusText = await new Response(status.stdout).text();
    expect(await status.exited).toBe(0);
    expect(statusText).toContain("remote  " + fixture.url);
    expect(statusText).toContain("logged in, token expires");
    for (const token of fixture.provider.issued) expect(statusText).not.toContain(token);
    const usage = cli("auth", "login");
    expect(await usage.exited).toBe(2);
  });
});

describe("the authorization URL a login hands out", () => {
  test("https anywhere, http on loopback only, no other scheme", async () => {
    const { checkAuthorizationUrl } = await import("../../src/mcp/oauth-login.ts");
    for (const ok of ["https://auth.example.com/authorize", "http://127.0.0.1:9/authorize", "http://localhost/authorize"]) expect(() => checkAuthorizationUrl(new URL(ok))).not.toThrow();
    for (const bad of ["http://auth.example.com/authorize", "file:///etc/passwd", "javascript:alert(1)", "x-custom://open"]) {
      expect(() => checkAuthorizationUrl(new URL(bad))).toThrow(/is not https/);
    }
  });
});
