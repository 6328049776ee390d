/**
 * The OAuth store's keys: tokens found through the server's current issuer only, records that name
 * another issuer or resource than their key not handed out, and a token file of the layout before
 * (one file per server) moved over once, so an upgrade logs no one out.
 */
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OAuthStore } from "../../src/mcp/oauth-store.ts";
import { tempDir } from "./helpers.ts";

const URL_A = "https://mcp.test/mcp";
const AS = "https://as.test/";
const tokens = { access_token: "at-1", refresh_token: "rt-1", token_type: "Bearer", expires_in: 3600 };

describe("OAuthStore", () => {
  test("tokens follow the server's current issuer; another issuer's are never found", () => {
    const store = new OAuthStore(join(tempDir("store-"), "oauth"));
    store.saveServer("a", { kind: "server", serverUrl: URL_A, discovery: { issuer: AS, resource: URL_A } });
    store.saveTokens({ kind: "tokens", issuer: AS, resource: URL_A, clientKind: "registered", clientId: "c", client: { client_id: "c" }, tokens, obtainedAt: 1 });
    expect(store.tokensOf("a", URL_A)?.tokens.access_token).toBe("at-1");
    store.saveServer("a", { kind: "server", serverUrl: URL_A, discovery: { issuer: "https://other-as.test/", resource: URL_A } });
    expect(store.tokensOf("a", URL_A)).toBeUndefined();
    // Read back by a new process (no cache): the same.
    const fresh = new OAuthStore(store.dir);
    expect(fresh.tokensOf("a", URL_A)).toBeUndefined();
    expect(fresh.tokens(AS, URL_A)?.tokens.access_token).toBe("at-1");
  });

  test("a record whose content names another issuer than its file's key is not handed out", () => {
    const store = new OAuthStore(join(tempDir("store-"), "oauth"));
    store.saveTokens({ kind: "tokens", issuer: AS, resource: URL_A, clientKind: "registered", clientId: "c", tokens, obtainedAt: 1 });
    mkdirSync(store.dir, { recursive: true });
    // A hand-edited (or planted) file under another issuer's key, holding this issuer's tokens.
    const planted = store.tokensPath("https://evil.test/", URL_A);
    writeFileSync(planted, JSON.stringify({ kind: "tokens", issuer: AS, resource: URL_A, clientKind: "registered", clientId: "c", tokens, obtainedAt: 1 }));
    expect(new OAuthStore(store.dir).tokens("https://evil.test/", URL_A)).toBeUndefined();
  });

  test("a token file of the old layout moves over once: discovery, the registration, the tokens", () => {
    const dir = join(tempDir("store-"), "oauth");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const legacy = join(dir, `a.${createHash("sha256").update(URL_A).digest("hex").slice(0, 16)}.json`);
    writeFileSync(
      legacy,
      JSON.stringify({
        serverUrl: URL_A,
        client: { client_id: "client-9", redirect_uris: ["http://127.0.0.1:4000/callback"] },
        discovery: { authorizationServerUrl: AS, resourceMetadata: { resource: URL_A }, authorizationServerMetadata: { issuer: AS, authorization_endpoint: `${AS}authorize`, token_endpoint: `${AS}token`, response_types_supported: ["code"] } },
        tokens: { ...tokens, issuer: AS },
        obtainedAt: 5,
      }),
      { mode: 0o600 },
    );
    const store = new OAuthStore(dir);
    expect(store.tokensOf("a", URL_A)).toEqual({ kind: "tokens", issuer: AS, resource: URL_A, clientKind: "registered", clientId: "client-9", client: { client_id: "client-9", redirect_uris: ["http://127.0.0.1:4000/callback"] }, tokens, obtainedAt: 5 });
    expect(store.client(AS)?.client.client_id).toBe("client-9");
    expect(existsSync(legacy)).toBe(false);
    expect(readdirSync(dir).map((file) => file.split(".")[0]).sort()).toEqual(["client", "server", "tokens"]);
  });

  test("an old file whose metadata states another issuer keeps nothing but the URL", () => {
    const dir = join(tempDir("store-"), "oauth");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const legacy = join(dir, `a.${createHash("sha256").update(URL_A).digest("hex").slice(0, 16)}.json`);
    writeFileSync(legacy, JSON.stringify({ serverUrl: URL_A, client: { client_id: "c" }, discovery: { authorizationServerUrl: AS, authorizationServerMetadata: { issuer: "https://evil.test/" } }, tokens, obtainedAt: 5 }));
    const store = new OAuthStore(dir);
    expect(store.server("a", URL_A)).toEqual({ kind: "server", serverUrl: URL_A });
    expect(store.tokensOf("a", URL_A)).toBeUndefined();
    expect(store.client(AS)).toBeUndefined();
  });
});
