/**
 * The issuer a login is bound to, attacked: the authorization response's `iss` (RFC 9207) right,
 * missing where advertised, wrong with or without the advertisement, and a forged error response
 * from another issuer (not believed, not shown); metadata that states another issuer than the one
 * named (RFC 8414); a server whose resource metadata moves to another authorization server, whose
 * tokens and refresh token never travel there, and whose configured client id stays with the first.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { Method } from "../../src/protocol/method-names.ts";
import { checkIssuerParameter } from "../../src/mcp/oauth-discovery.ts";
import { playBrowser, startOAuthFixture } from "../fixtures/mcp/oauth-fixture-server.ts";
import { startOAuthDaemon } from "./oauth-daemon.ts";
import { waitFor } from "./helpers.ts";

setDefaultTimeout(30_000);

const whoami = { name: "mcp__remote__whoami", input: {} };

async function loginOutcome(options: { issMode: "none" | "correct" | "wrong"; issAdvertised: boolean }) {
  await using fixture = await startOAuthFixture();
  fixture.provider.issMode = options.issMode;
  fixture.provider.issAdvertised = options.issAdvertised;
  await using running = await startOAuthDaemon(fixture);
  await waitFor(async () => (await running.serverState()).state === "needs-auth", "needs-auth");
  const started = await running.client.request(Method.AuthLogin, { name: "remote" });
  const waiting = running.client.request(Method.AuthWait, { name: "remote" }).then(
    (done) => ({ ok: true as const, state: done.server?.state }),
    (error: Error) => ({ ok: false as const, message: error.message }),
  );
  const landing = await playBrowser(started.authorizationUrl);
  return { outcome: await waiting, landing, exchanges: fixture.provider.codeExchanges, issuer: fixture.issuer };
}

describe("the authorization response's iss (RFC 9207)", () => {
  test("advertised and right: logged in", async () => {
    const { outcome, exchanges } = await loginOutcome({ issMode: "correct", issAdvertised: true });
    expect(outcome).toEqual({ ok: true, state: "connected" });
    expect(exchanges).toBe(1);
  });

  test("advertised but missing: refused, the code never reaches the token endpoint", async () => {
    const { outcome, landing, exchanges, issuer } = await loginOutcome({ issMode: "none", issAdvertised: true });
    expect(outcome).toEqual({
      ok: false,
      message: `the login to MCP server "remote" did not complete: the authorization response was refused: the authorization server ${issuer} advertises the \`iss\` parameter (RFC 9207) but its response carried none`,
    });
    expect(landing.status).toBe(400);
    expect(exchanges).toBe(0);
  });

  for (const issAdvertised of [true, false]) {
    test(`another issuer's${issAdvertised ? "" : ", though not advertised,"} is a mix-up: refused, the code unused`, async () => {
      const { outcome, exchanges, issuer } = await loginOutcome({ issMode: "wrong", issAdvertised });
      expect(outcome).toEqual({
        ok: false,
        message: `the login to MCP server "remote" did not complete: the authorization response was refused: the authorization response came from the issuer "https://attacker.example/", not from ${JSON.stringify(issuer)} where this login started (a mix-up attack, RFC 9207); the code was not used`,
      });
      expect(exchanges).toBe(0);
    });
  }

  test("neither advertised nor sent: logged in (the table's last row)", async () => {
    const { outcome } = await loginOutcome({ issMode: "none", issAdvertised: false });
    expect(outcome).toEqual({ ok: true, state: "connected" });
  });

  test("an error response from another issuer is neither believed nor shown", async () => {
    await using fixture = await startOAuthFixture();
    await using running = await startOAuthDaemon(fixture);
    await waitFor(async () => (await running.serverState()).state === "needs-auth", "needs-auth");
    const started = await running.client.request(Method.AuthLogin, { name: "remote" });
    const waiting = running.client.request(Method.AuthWait, { name: "remote" }).catch((error: Error) => error);
    const state = new URL(started.authorizationUrl).searchParams.get("state")!;
    const forged = new URL(started.redirectUrl);
    for (const [key, value] of Object.entries({ state, error: "access_denied", error_description: "visit evil.example to fix", iss: "https://attacker.example/" })) forged.searchParams.set(key, value);
    const landing = await fetch(forged);
    const page = await landing.text();
    expect(landing.status).toBe(400);
    const message = ((await waiting) as Error).message;
    expect(message).toContain("a mix-up attack");
    for (const shown of [page, message]) expect(shown).not.toContain("evil.example");
  });

  test("compared as strings: no case folding, no trailing-slash or port normalization; one iss only", () => {
    const discovery = { issuer: "https://as.example/", resource: "https://mcp.example/mcp", metadata: { authorization_response_iss_parameter_supported: true } } as never;
    const check = (query: string) => checkIssuerParameter(new URLSearchParams(query), discovery);
    expect(check("iss=https%3A%2F%2Fas.example%2F")).toBeUndefined();
    for (const near of ["https://as.example", "https://AS.example/", "https://as.example:443/", "https://as.example/%7E"]) {
      expect(check(`iss=${encodeURIComponent(near)}`)).toContain(`came from the issuer ${JSON.stringify(near)}`);
    }
    expect(check("iss=https%3A%2F%2Fas.example%2F&iss=https%3A%2F%2Fas.example%2F")).toBe("the authorization response carried more than one `iss` parameter");
  });
});

describe("the issuer a server is bound to", () => {
  test("metadata that states another issuer than the one the resource named is not used (RFC 8414)", async () => {
    await using fixture = await startOAuthFixture();
    fixture.provider.statedIssuer = "https://attacker.example/";
    await using running = await startOAuthDaemon(fixture);
    await waitFor(async () => (await running.serverState()).state === "needs-auth", "needs-auth");
    const refused = await running.client.request(Method.AuthLogin, { name: "remote" }).catch((error: unknown) => error);
    expect((refused as Error).message).toContain(
      `could not start the OAuth login for MCP server "remote": the authorization server metadata fetched for ${JSON.stringify(fixture.issuer)} states the issuer "https://attacker.example/"; they must be identical (RFC 8414), so it is not used`,
    );
    expect(fixture.provider.registrations).toBe(0);
  });

  test("a server that moves to another authorization server needs a login there; the old issuer's tokens never travel to the new one", async () => {
    await using first = await startOAuthFixture();
    await using second = await startOAuthFixture();
    await using running = await startOAuthDaemon(first);
    await waitFor(async () => (await running.serverState()).state === "needs-auth", "needs-auth");
    expect((await running.login()).done.server?.state).toBe("connected");
    const firstTokens = [...first.provider.issued];

    // The resource now names the second server and accepts only its tokens.
    first.trust(second);
    const refused = await running.client.call(whoami);
    expect(refused.isError).toBe(true);
    const state = await waitFor(async () => {
      const current = await running.serverState();
      return current.state === "needs-auth" && current;
    }, "needs-auth after the switch");
    expect(state.reason).toContain(`its authorization server is now ${second.issuer} (it was ${first.issuer})`);
    // No refresh anywhere: not at the old issuer (its token would be refused by the resource
    // anyway), and above all not the old refresh token at the new one.
    expect(first.provider.refreshes).toBe(0);
    expect(second.provider.refreshes).toBe(0);
    expect(second.provider.codeExchanges).toBe(0);

    // The login goes to the new issuer, registers there, and its tokens are used.
    const { started, done } = await running.login();
    expect(new URL(started.authorizationUrl).origin).toBe(second.origin);
    expect(second.provider.registrations).toBe(1);
    expect(done.server?.state).toBe("connected");
    expect((await running.client.call(whoami)).isError).toBe(false);
    const status = await running.client.request(Method.AuthStatus, { name: "remote" });
    expect(status.servers[0]).toMatchObject({ loggedIn: true, issuer: second.issuer });
    for (const token of firstTokens) expect(second.provider.issued).not.toContain(token);
  });

  test("a configured client id is not presented to another authorization server; a logout lets it be", async () => {
    await using first = await startOAuthFixture();
    await using second = await startOAuthFixture();
    for (const fixture of [first, second]) fixture.provider.clients.set("preregistered", { client_id: "preregistered", redirect_uris: ["http://127.0.0.1/callback"], token_endpoint_auth_method: "none" });
    await using running = await startOAuthDaemon(first, { oauth: { clientId: "preregistered" } });
    await waitFor(async () => (await running.serverState()).state === "needs-auth", "needs-auth");
    expect((await running.login()).done.server?.state).toBe("connected");
    first.trust(second);
    await running.client.call(whoami);
    await waitFor(async () => (await running.serverState()).state === "needs-auth", "needs-auth after the switch");
    const refused = await running.client.request(Method.AuthLogin, { name: "remote" }).catch((error: unknown) => error);
    expect((refused as Error).message).toContain(
      `the configured client id of MCP server "remote" was used with the authorization server ${first.issuer}, but the server now sends logins to ${second.issuer}; a client id belongs to one authorization server: register a client there and set mcpServers.remote.oauth.clientId, or run \`toolpool auth logout remote\` to present this one there anyway`,
    );
    await running.client.request(Method.AuthLogout, { name: "remote" });
    const { started, done } = await running.login();
    expect(new URL(started.authorizationUrl).origin).toBe(second.origin);
    expect(done.server?.state).toBe("connected");
  });
});
