/**
 * `cacheScope` honoured by a client that serves many sessions (src/mcp/cache-scope.ts): a private
 * listing is served from the catalog cache only under the authorization context it was fetched
 * under, and not after a new login; a public one, or one without a hint, is served whatever the
 * context. The attack: the same cache file read by a daemon whose server credentials changed.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { authorizationContext } from "../../src/mcp/cache-scope.ts";
import { CatalogCache } from "../../src/mcp/catalog-cache.ts";
import { silentLogger } from "../../src/runtime/logger.ts";
import type { ServerConnection } from "../../src/mcp/server-connection.ts";
import type { RemoteServerSpec } from "../../src/mcp/server-spec.ts";
import { playBrowser, startOAuthFixture } from "../fixtures/mcp/oauth-fixture-server.ts";
import { fixtureSpec, tempDir, testPool, waitFor } from "./helpers.ts";

setDefaultTimeout(30_000);

const REVISION_2026 = join(import.meta.dir, "..", "fixtures", "mcp", "revision-2026-server.ts");
const tool = (name: string): McpTool => ({ name, description: `${name} does things`, inputSchema: { type: "object" } });

describe("the catalog cache and cacheScope", () => {
  test("a private listing is served only under its own authorization context; public and unhinted ones under any", () => {
    const cache = CatalogCache.open(null, silentLogger);
    cache.save("mine", [tool("a")], 1000, { scope: "private", context: "ctx-a" });
    cache.save("shared", [tool("b")], 1000, { scope: "public", context: "ctx-a" });
    cache.save("old", [tool("c")], 1000);
    const names = (server: string, context: string) => cache.load(server, context)?.tools.map((entry) => entry.name);
    expect([names("mine", "ctx-a"), names("mine", "ctx-b"), names("shared", "ctx-b"), names("old", "ctx-b")]).toEqual([["a"], undefined, ["b"], ["c"]]);
    // A new login forgets the private listing only.
    cache.forgetPrivate("mine");
    cache.forgetPrivate("shared");
    expect([names("mine", "ctx-a"), names("shared", "ctx-a")]).toEqual([undefined, ["b"]]);
    cache.close();
  });

  test("a cache file of the first schema (no scope recorded) is read, its listings served as before", () => {
    const path = join(tempDir(), "catalog.sqlite");
    const db = new Database(path, { create: true });
    db.exec("CREATE TABLE servers (server TEXT PRIMARY KEY, listed_at INTEGER NOT NULL)");
    db.exec(`CREATE TABLE tools (server TEXT NOT NULL, tool TEXT NOT NULL, position INTEGER NOT NULL, definition TEXT NOT NULL,
      first_hash TEXT NOT NULL, current_hash TEXT NOT NULL, present INTEGER NOT NULL, first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL, PRIMARY KEY (server, tool))`);
    db.exec("PRAGMA user_version = 1");
    db.query("INSERT INTO servers VALUES ('old', 5)").run();
    db.query("INSERT INTO tools VALUES ('old', 'a', 0, ?, 'h', 'h', 1, 5, 5)").run(JSON.stringify(tool("a")));
    db.close();
    const cache = CatalogCache.open(path, silentLogger);
    expect(cache.load("old", "any")?.tools).toEqual([tool("a")]);
    cache.save("next", [tool("b")], 6, { scope: "private", context: "c" });
    expect(cache.load("next", "c")?.tools).toEqual([tool("b")]);
    cache.close();
  });

  test("the context is a fingerprint of the server's credentials, never the credentials themselves", () => {
    const spec = fixtureSpec("moon", { API_TOKEN: "secret-token-1" });
    const same = authorizationContext(fixtureSpec("moon", { API_TOKEN: "secret-token-1" }), {});
    expect({
      same: authorizationContext(spec, {}) === same,
      other: authorizationContext(fixtureSpec("moon", { API_TOKEN: "secret-token-2" }), {}) === same,
      inheritedOther: authorizationContext(spec, { GITHUB_TOKEN: "secret-token-3" }) === same,
      leaks: authorizationContext(spec, { GITHUB_TOKEN: "secret-token-3" }).includes("secret"),
    }).toEqual({ same: true, other: false, inheritedOther: false, leaks: false });
  });

  for (const scope of ["private", "public"] as const) {
    test(`a ${scope} listing of a 2026-07-28 server, at the next start with other credentials: ${scope === "private" ? "not served" : "served"}`, async () => {
      const cachePath = join(tempDir(), "catalog.sqlite");
      const spec = (token: string) => fixtureSpec("moon", { FIXTURE_CACHE_SCOPE: scope, API_TOKEN: token }, { args: [REVISION_2026], startup: "lazy" });
      {
        await using first = testPool([{ ...spec("token-a"), startup: "eager" }], { cachePath });
        first.start();
        await waitFor(() => first.tools().some((entry) => entry.name === "mcp__moon__lunar_phase"), "the listing");
      }
      // Lazy and never started here: what it offers is the cache's alone.
      const offered = async (token: string) => {
        await using pool = testPool([spec(token)], { cachePath });
        return pool.tools().map((entry) => entry.name).includes("mcp__moon__lunar_phase");
      };
      expect({ sameCredentials: await offered("token-a"), otherCredentials: await offered("token-b") }).toEqual({ sameCredentials: true, otherCredentials: scope === "public" });
    });
  }

  test("hostile: a stdio server's credential inherited from the daemon's environment is part of the context: a private listing is not served under another one", async () => {
    const cachePath = join(tempDir(), "catalog.sqlite");
    // The token is not in the server's config: the process inherits it, as most stdio servers read theirs.
    const spec = (scope: string) => fixtureSpec("moon", { FIXTURE_CACHE_SCOPE: scope }, { args: [REVISION_2026], startup: "lazy" });
    const inherited = (token: string) => ({ ...process.env, GITHUB_TOKEN: token });
    const offered = async (scope: string, token: string) => {
      await using pool = testPool([spec(scope)], { cachePath, env: inherited(token) });
      return pool.tools().map((entry) => entry.name).includes("mcp__moon__lunar_phase");
    };
    const seen: Record<string, boolean> = {};
    for (const scope of ["private", "public"]) {
      {
        await using first = testPool([{ ...spec(scope), startup: "eager" }], { cachePath, env: inherited("account-a") });
        first.start();
        await waitFor(() => first.tools().some((entry) => entry.name === "mcp__moon__lunar_phase"), "the listing");
      }
      seen[`${scope}, same token`] = await offered(scope, "account-a");
      seen[`${scope}, other token`] = await offered(scope, "account-b");
    }
    expect(seen).toEqual({ "private, same token": true, "private, other token": false, "public, same token": true, "public, other token": true });
  });

  test("a new OAuth login forgets the private listing of the old one, even when the server cannot be listed again", async () => {
    await using fixture = await startOAuthFixture();
    const cachePath = join(tempDir(), "catalog.sqlite");
    const spec: RemoteServerSpec = { name: "remote", transport: "http", url: fixture.url, headers: {}, startup: "eager", disabled: false, alwaysLoad: [], origin: "test" };
    // The connection is faked (a private listing, then a server that is down); the login is real.
    let down = false;
    const connection: ServerConnection = {
      pid: undefined,
      listTools: async () => ({ tools: [tool("whoami")], warnings: [], ttlMs: 60_000, cacheScope: "private" }),
      callTool: async () => ({ content: [] }),
      onToolsChanged: () => {},
      onLost: () => {},
      close: async () => {},
    };
    await using pool = testPool([spec], { cachePath, oauthDir: join(tempDir(), "oauth"), connector: async () => {
      if (down) throw new Error("the server is down");
      return connection;
    } });
    pool.start();
    await waitFor(() => pool.tools().some((entry) => entry.name === "mcp__remote__whoami"), "the private listing");
    const cached = () => {
      const cache = CatalogCache.open(cachePath, silentLogger);
      try {
        return cache.load("remote", authorizationContext(spec, process.env))?.tools.map((entry) => entry.name);
      } finally {
        cache.close();
      }
    };
    expect(cached()).toEqual(["whoami"]);
    down = true;
    const attempt = await pool.oauth.login(spec, 10_000);
    await playBrowser(attempt.authorizationUrl);
    await pool.oauth.pendingLogin("remote")?.reconnected;
    expect(cached()).toBeUndefined();
  });
});
