/**
 * Which OAuth client a login presents, against the loopback authorization server: a Client ID
 * Metadata Document where the server accepts them and one is configured, dynamic registration
 * otherwise (one registration per issuer, shared by the servers behind it), a clear error naming
 * what to configure when neither is possible, and a registration that moves the redirect off this
 * machine refused.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { DaemonError } from "../../src/client/client.ts";
import { Method } from "../../src/protocol/method-names.ts";
import { startOAuthFixture } from "../fixtures/mcp/oauth-fixture-server.ts";
import { startOAuthDaemon } from "./oauth-daemon.ts";
import { waitFor } from "./helpers.ts";

setDefaultTimeout(30_000);

const whoami = { name: "mcp__remote__whoami", input: {} };
const DOCUMENT_URL = "https://toolpool.example/oauth/client.json";
const document = { client_id: DOCUMENT_URL, client_name: "toolpool", redirect_uris: ["http://127.0.0.1/callback"], token_endpoint_auth_method: "none" };

describe("the client a login presents", () => {
  test("a Client ID Metadata Document when the server accepts them and one is configured: no registration, refreshes with the same id", async () => {
    await using fixture = await startOAuthFixture();
    fixture.provider.metadataDocuments = true;
    fixture.provider.hostedDocuments.set(DOCUMENT_URL, document);
    await using running = await startOAuthDaemon(fixture, { oauth: { clientMetadataUrl: DOCUMENT_URL } });
    await waitFor(async () => (await running.serverState()).state === "needs-auth", "needs-auth");
    const { started, done } = await running.login();
    expect(new URL(started.authorizationUrl).searchParams.get("client_id")).toBe(DOCUMENT_URL);
    expect(done.server?.state).toBe("connected");
    expect(fixture.provider.registrations).toBe(0);
    expect(fixture.provider.documentLookups).toContain(DOCUMENT_URL);
    expect((await running.client.call(whoami)).isError).toBe(false);
    fixture.provider.expireAccessTokens();
    expect((await running.client.call(whoami)).isError).toBe(false);
    expect(fixture.provider.refreshes).toBe(1);
    const status = await running.client.request(Method.AuthStatus, { name: "remote" });
    expect(status.servers[0]).toMatchObject({ loggedIn: true, client: "metadata-document", issuer: fixture.issuer });
    expect(readdirSync(running.oauthDir).some((file) => file.startsWith("client."))).toBe(false);
  });

  test("a metadata URL the server does not accept falls back to dynamic registration", async () => {
    await using fixture = await startOAuthFixture();
    await using running = await startOAuthDaemon(fixture, { oauth: { clientMetadataUrl: DOCUMENT_URL } });
    await waitFor(async () => (await running.serverState()).state === "needs-auth", "needs-auth");
    const { started, done } = await running.login();
    expect(new URL(started.authorizationUrl).searchParams.get("client_id")).toStartWith("client-");
    expect(done.server?.state).toBe("connected");
    expect(fixture.provider.registrations).toBe(1);
    expect(fixture.provider.documentLookups).toEqual([]);
  });

  test("a configured client id comes first, even where a document or a registration would do", async () => {
    await using fixture = await startOAuthFixture();
    fixture.provider.metadataDocuments = true;
    fixture.provider.hostedDocuments.set(DOCUMENT_URL, document);
    fixture.provider.clients.set("preregistered", { client_id: "preregistered", redirect_uris: ["http://127.0.0.1/callback"], token_endpoint_auth_method: "none" });
    await using running = await startOAuthDaemon(fixture, { oauth: { clientId: "preregistered", clientMetadataUrl: DOCUMENT_URL } });
    await waitFor(async () => (await running.serverState()).state === "needs-auth", "needs-auth");
    const { started, done } = await running.login();
    expect(new URL(started.authorizationUrl).searchParams.get("client_id")).toBe("preregistered");
    expect(done.server?.state).toBe("connected");
    expect(fixture.provider.registrations).toBe(0);
  });

  test("neither a document nor a registration possible: the error names what to configure", async () => {
    await using fixture = await startOAuthFixture({ dynamicRegistration: false });
    fixture.provider.metadataDocuments = true;
    await using running = await startOAuthDaemon(fixture);
    await waitFor(async () => (await running.serverState()).state === "needs-auth", "needs-auth");
    const refused = await running.client.request(Method.AuthLogin, { name: "remote" }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DaemonError);
    expect((refused as Error).message).toContain(
      `the authorization server ${fixture.issuer} of MCP server "remote" accepts Client ID Metadata Documents but offers no dynamic client registration: host toolpool's metadata document at an https URL and set mcpServers.remote.oauth.clientMetadataUrl, or register a client there and set mcpServers.remote.oauth.clientId`,
    );
  });

  test("two servers behind one authorization server share one registration (and its redirect), each with its own tokens", async () => {
    await using fixture = await startOAuthFixture();
    await using running = await startOAuthDaemon(fixture, {}, {}, { other: { type: "http", url: fixture.otherUrl } });
    await waitFor(async () => (await running.serverState("other")).state === "needs-auth", "needs-auth");
    const first = await running.login("remote");
    const second = await running.login("other");
    expect(first.done.server?.state).toBe("connected");
    expect(second.done.server?.state).toBe("connected");
    expect(fixture.provider.registrations).toBe(1);
    expect(second.started.redirectUrl).toBe(first.started.redirectUrl);
    expect(new URL(second.started.authorizationUrl).searchParams.get("client_id")).toBe(new URL(first.started.authorizationUrl).searchParams.get("client_id"));
    expect(new URL(second.started.authorizationUrl).searchParams.get("resource")).toBe(fixture.otherUrl);
    const kinds = readdirSync(running.oauthDir).map((file) => file.split(".")[0]).sort();
    expect(kinds).toEqual(["client", "server", "server", "tokens", "tokens"]);
    // Logging one out leaves the other's tokens.
    await running.client.request(Method.AuthLogout, { name: "remote" });
    expect((await running.client.call({ name: "mcp__other__whoami", input: {} })).isError).toBe(false);
  });

  test("a registration that comes back with a redirect off this machine is refused before any URL is handed out", async () => {
    await using fixture = await startOAuthFixture();
    fixture.provider.registeredRedirect = "https://attacker.example/callback";
    await using running = await startOAuthDaemon(fixture);
    await waitFor(async () => (await running.serverState()).state === "needs-auth", "needs-auth");
    const refused = await running.client.request(Method.AuthLogin, { name: "remote" }).catch((error: unknown) => error);
    expect((refused as Error).message).toContain(`registered the client with redirect URIs ["https://attacker.example/callback"], not the loopback redirect toolpool asked for; refusing to use it`);
    // Nothing was stored: no registration to reuse, no tokens.
    expect(existsSync(running.oauthDir) ? readdirSync(running.oauthDir) : []).toEqual([]);
  });
});
