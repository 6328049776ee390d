/**
 * ServerAuth in process with a scripted network: one refresh for many concurrent requests at
 * expiry, a refused refresh logs out (needs-auth), an unreachable or failing authorization server
 * does not, and a 401 with nothing stored asks for a login.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { OAuthStore } from "../../src/mcp/oauth-store.ts";
import { findNeedsAuth, ServerAuth } from "../../src/mcp/server-auth.ts";
import { silentLogger } from "../../src/runtime/logger.ts";
import { tempDir } from "./helpers.ts";

const MCP_URL = "http://mcp.test/mcp";
const AS = "http://as.test";

function setup(tokenEndpoint: (body: URLSearchParams) => Promise<Response>, stored = true, wellKnown: (url: string) => Response = () => new Response("", { status: 404 })) {
  const store = new OAuthStore(join(tempDir("auth-"), "oauth"));
  if (stored) {
    const metadata = { issuer: AS, authorization_endpoint: `${AS}/authorize`, token_endpoint: `${AS}/token`, response_types_supported: ["code"] };
    store.saveServer("srv", { kind: "server", serverUrl: MCP_URL, discovery: { issuer: AS, resource: MCP_URL, metadata } });
    store.saveTokens({
      kind: "tokens",
      issuer: AS,
      resource: MCP_URL,
      clientKind: "registered",
      clientId: "client-1",
      client: { client_id: "client-1" },
      tokens: { access_token: "old-token", refresh_token: "refresh-1", token_type: "Bearer", expires_in: 3600 },
      obtainedAt: 0,
    });
  }
  const seen: string[] = [];
  const network: FetchLike = async (url, init) => {
    if (String(url) === `${AS}/token`) return tokenEndpoint(new URLSearchParams(String(init?.body)));
    if (String(url).includes("/.well-known/")) return wellKnown(String(url));
    const authorization = new Headers(init?.headers).get("authorization");
    seen.push(authorization ?? "");
    return authorization === "Bearer new-token" ? Response.json({ ok: true }) : new Response("no", { status: 401 });
  };
  const clock = { now: 0 };
  const auth = new ServerAuth({ server: "srv", url: MCP_URL, settings: undefined, store, logger: silentLogger, now: () => clock.now, baseFetch: network });
  return { store, auth, seen, clock };
}

const request = (auth: ServerAuth) => auth.fetch(MCP_URL, { method: "POST", body: "{}" });

describe("ServerAuth", () => {
  test("at expiry, twenty concurrent requests share one refresh and all carry the new token", async () => {
    const refreshes: URLSearchParams[] = [];
    const release = Promise.withResolvers<void>();
    const { auth, seen, clock, store } = setup(async (body) => {
      refreshes.push(body);
      await release.promise;
      return Response.json({ access_token: "new-token", refresh_token: "refresh-2", token_type: "Bearer", expires_in: 3600 });
    });
    clock.now = 3600_000 - 30_000; // inside the minute before expiry
    // All twenty are under way before the token endpoint may answer.
    const pending = Array.from({ length: 20 }, () => request(auth));
    release.resolve();
    const responses = await Promise.all(pending);
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(200));
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0]?.get("grant_type")).toBe("refresh_token");
    expect(refreshes[0]?.get("refresh_token")).toBe("refresh-1");
    expect(new Set(seen)).toEqual(new Set(["Bearer new-token"]));
    expect(store.tokensOf("srv", MCP_URL)?.tokens).toMatchObject({ access_token: "new-token", refresh_token: "refresh-2" });
  });

  test("a refused refresh (invalid_grant) needs a login and forgets the tokens", async () => {
    const { auth, clock, store } = setup(async () => Response.json({ error: "invalid_grant", error_description: "revoked" }, { status: 400 }));
    clock.now = 3600_000;
    const error = await request(auth).catch((caught: unknown) => caught);
    expect(findNeedsAuth(error)?.message).toBe('MCP server "srv" needs a login (the authorization server refused the refresh: revoked); run `toolpool auth login srv`');
    expect(store.tokensOf("srv", MCP_URL)?.tokens).toBeUndefined();
  });

  for (const [what, endpoint] of [
    ["unreachable", async () => Promise.reject(new TypeError("fetch failed"))],
    ["answering 503", async () => new Response("down", { status: 503 })],
  ] as const) {
    test(`an authorization server ${what} fails the request but logs no one out`, async () => {
      const { auth, clock, store } = setup(endpoint);
      clock.now = 3600_000;
      const error = await request(auth).catch((caught: unknown) => caught);
      expect(findNeedsAuth(error)).toBeUndefined();
      expect((error as Error).message).toStartWith('could not refresh the OAuth token of MCP server "srv"');
      expect(store.tokensOf("srv", MCP_URL)?.tokens.refresh_token).toBe("refresh-1");
    });
  }

  test("a 401 with nothing stored asks for a login; nothing is sent to the token endpoint", async () => {
    let asked = 0;
    const { auth } = setup(async () => {
      asked++;
      return new Response("", { status: 500 });
    }, false);
    const error = await request(auth).catch((caught: unknown) => caught);
    expect(findNeedsAuth(error)?.message).toContain("it answered 401 and no one has logged in");
    expect(asked).toBe(0);
  });

  test("a 401 whose metadata cannot be read just now refreshes with the known issuer", async () => {
    const { auth, seen } = setup(async (body) => {
      expect(body.get("refresh_token")).toBe("refresh-1");
      return Response.json({ access_token: "new-token", refresh_token: "refresh-2", token_type: "Bearer", expires_in: 3600 });
    });
    expect((await request(auth)).status).toBe(200);
    expect(seen).toEqual(["Bearer old-token", "Bearer new-token"]);
    expect(auth.refreshes).toBe(1);
  });

  test("a 401 whose resource metadata now names another authorization server: a login, and no refresh token sent anywhere", async () => {
    const OTHER = "http://other-as.test/";
    const tokenRequests: string[] = [];
    const { auth, store } = setup(
      async (body) => {
        tokenRequests.push(body.toString());
        return new Response("", { status: 500 });
      },
      true,
      (url) =>
        url.startsWith("http://mcp.test/.well-known/oauth-protected-resource")
          ? Response.json({ resource: MCP_URL, authorization_servers: [OTHER] })
          : url.startsWith("http://other-as.test/.well-known/oauth-authorization-server")
            ? Response.json({ issuer: OTHER, authorization_endpoint: `${OTHER}authorize`, token_endpoint: `${OTHER}token`, response_types_supported: ["code"] })
            : new Response("", { status: 404 }),
    );
    const error = await request(auth).catch((caught: unknown) => caught);
    expect(findNeedsAuth(error)?.message).toBe(`MCP server "srv" needs a login (its authorization server is now ${OTHER} (it was ${AS}), whose login it has not had); run \`toolpool auth login srv\``);
    expect(tokenRequests).toEqual([]);
    expect(store.server("srv", MCP_URL).discovery?.issuer).toBe(OTHER);
    expect(store.tokensOf("srv", MCP_URL)).toBeUndefined();
    // The old issuer's tokens are where they were (another server behind it may use them), not moved.
    expect(store.tokens(AS, MCP_URL)?.tokens.refresh_token).toBe("refresh-1");
  });

  test("a 403 insufficient_scope for a scope not held asks for a login with the union; one already held is left to the caller", async () => {
    const { auth, store } = setup(async () => new Response("", { status: 500 }));
    const forbidding = (scope: string) =>
      new ServerAuth({
        ...auth.options,
        baseFetch: async () => new Response("{}", { status: 403, headers: { "www-authenticate": `Bearer error="insufficient_scope", scope="${scope}"` } }),
      });
    const record = store.tokensOf("srv", MCP_URL)!;
    store.saveTokens({ ...record, tokens: { ...record.tokens, scope: "mcp:read" } });
    const stepUp = forbidding("mcp:write");
    const error = await stepUp.fetch(MCP_URL, { method: "POST" }).catch((caught: unknown) => caught);
    expect(findNeedsAuth(error)?.message).toBe('MCP server "srv" needs a login (it needs the scope "mcp:write" for this request (insufficient_scope)); run `toolpool auth login srv`');
    expect(stepUp.challenge).toEqual({ error: "insufficient_scope", scope: "mcp:read mcp:write" });
    // Held already: asking again gains nothing (no login loop); the 403 goes to the caller.
    expect((await forbidding("mcp:read").fetch(MCP_URL, { method: "POST" })).status).toBe(403);
    // A configured scope is the operator's: the message says where to widen it.
    const configured = new ServerAuth({ ...forbidding("mcp:admin").options, settings: { scope: "mcp:read" } });
    const refused = await configured.fetch(MCP_URL, { method: "POST" }).catch((caught: unknown) => caught);
    expect(findNeedsAuth(refused)?.message).toContain('it needs the scope "mcp:admin", which mcpServers.srv.oauth.scope does not include');
  });

  test("the token goes to the server's own origin only", async () => {
    const { auth } = setup(async () => new Response("", { status: 500 }));
    const sent: (string | null)[] = [];
    const spying = new ServerAuth({ ...auth.options, baseFetch: async (url, init) => {
      sent.push(`${String(url)} ${new Headers(init?.headers).get("authorization")}`);
      return Response.json({});
    } });
    await spying.fetch("http://elsewhere.test/mcp", { method: "POST" });
    await spying.fetch(MCP_URL, { method: "POST" });
    expect(sent).toEqual(["http://elsewhere.test/mcp null", `${MCP_URL} Bearer old-token`]);
  });
});

describe("oauth in a server entry", () => {
  test("is checked field by field, and its client id and secret expand ${VAR}", async () => {
    const { parseConfig } = await import("../../src/config/load.ts");
    const { resolveServerSpecs } = await import("../../src/mcp/server-spec.ts");
    expect(() => parseConfig({ mcpServers: { r: { type: "http", url: "https://x.test/mcp", oauth: { clientId: "" } } } }, "c.json")).toThrow(/field "mcpServers.r.oauth.clientId"/);
    expect(() => parseConfig({ mcpServers: { r: { type: "http", url: "https://x.test/mcp", oauth: { client: "x" } } } }, "c.json")).toThrow(/mcpServers.r.oauth.client/);
    expect(() => parseConfig({ mcpServers: { s: { command: "x", oauth: {} } } }, "c.json")).toThrow(/mcpServers.s.oauth/);
    const config = parseConfig({ mcpServers: { r: { type: "http", url: "https://x.test/mcp", oauth: { clientId: "${ID}", clientSecret: "${SECRET}", scope: "read" } } } }, "c.json");
    const [spec] = await resolveServerSpecs(config, { env: { ID: "abc", SECRET: "s3" } });
    expect(spec).toMatchObject({ oauth: { clientId: "abc", clientSecret: "s3", scope: "read" } });
  });
});

describe("oauth.clientMetadataUrl", () => {
  const parse = async (clientMetadataUrl: string) => {
    const { parseConfig } = await import("../../src/config/load.ts");
    return parseConfig({ mcpServers: { r: { type: "http", url: "https://x.test/mcp", oauth: { clientMetadataUrl } } } }, "c.json");
  };
  const refusal = async (url: string) => {
    try {
      await parse(url);
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error(`${url} was accepted`);
  };

  test("an https URL with a path is taken as it is", async () => {
    const { resolveServerSpecs } = await import("../../src/mcp/server-spec.ts");
    const [spec] = await resolveServerSpecs(await parse("https://tools.example/toolpool/client.json"), { env: {} });
    expect(spec).toMatchObject({ oauth: { clientMetadataUrl: "https://tools.example/toolpool/client.json" } });
  });

  test("anything else is refused at load, saying why", async () => {
    const field = 'config c.json is invalid:\n  - field "mcpServers.r.oauth.clientMetadataUrl": the client metadata URL ';
    expect(await refusal("http://tools.example/client.json")).toBe(`${field}must be https (it is the client id an authorization server fetches), not http`);
    expect(await refusal("file:///etc/passwd")).toBe(`${field}must be https (it is the client id an authorization server fetches), not file`);
    expect(await refusal("https://tools.example")).toBe(`${field}needs a path to the document, as in https://example.com/toolpool/client.json`);
    expect(await refusal("https://tools.example/c.json#x")).toBe(`${field}may not have a fragment`);
    expect(await refusal("https://me:pw@tools.example/c.json")).toBe(`${field}may not carry a user or password`);
    expect(await refusal("not a url")).toBe(`${field}"not a url" is not a URL`);
    const long = `https://tools.example/${"a".repeat(500)}.json`;
    expect(await refusal(long)).toBe(`${field}is ${long.length} characters; at most 500`);
  });
});
