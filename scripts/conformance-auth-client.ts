/**
 * The pool's OAuth client under the MCP conformance suite's auth scenarios:
 *
 *   node_modules/.bin/conformance client --command "node_modules/.bin/bun scripts/conformance-auth-client.ts" --scenario auth/iss-wrong-issuer
 *
 * The suite appends the server URL and names the scenario (and its context: a pre-registered
 * client) in the environment. This runs toolpool's own login (discovery, client choice, PKCE,
 * the loopback redirect and its `iss` check, the code exchange) with a temporary token store,
 * plays the browser (the suite's authorization server approves at once), then lists and calls
 * tools through the same authenticated fetch the pool uses. Exit 0 when the server was used;
 * 1 with the reason when the login or the calls were refused (what the negative scenarios expect).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { beginLogin } from "../src/mcp/oauth-login.ts";
import type { OAuthSettings } from "../src/mcp/oauth-client-choice.ts";
import { OAuthStore } from "../src/mcp/oauth-store.ts";
import { NeedsAuthError, ServerAuth } from "../src/mcp/server-auth.ts";
import { silentLogger } from "../src/runtime/logger.ts";

/** The document URL the suite's CIMD scenario expects as the client id. */
const SUITE_METADATA_URL = "https://conformance-test.local/client-metadata.json";

async function main(url: string): Promise<void> {
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as { client_id?: string; client_secret?: string };
  const settings: OAuthSettings = {
    clientMetadataUrl: SUITE_METADATA_URL,
    ...(context.client_id && { clientId: context.client_id }),
    ...(context.client_secret && { clientSecret: context.client_secret }),
  };
  const dir = mkdtempSync(join(tmpdir(), "toolpool-conformance-"));
  try {
    const store = new OAuthStore(join(dir, "oauth"));
    const auth = new ServerAuth({ server: "conformance", url, settings, store, logger: silentLogger, now: Date.now });
    const use = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION === "2026-07-28" ? () => listStateless(url, auth) : () => listWithSession(url, auth);
    // As the daemon does: a server that needs a login (first, or after it moved to another
    // authorization server) gets one, and is used again; a few times at most.
    for (let logins = 0; ; logins++) {
      try {
        await use();
        return;
      } catch (error) {
        const needsLogin = error instanceof NeedsAuthError || String((error as Error).message).includes("needs a login");
        if (!needsLogin || logins === 3) throw error;
        await login(url, settings, store, auth);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A 2025 revision: initialize, list, call a few tools. */
async function listWithSession(url: string, auth: ServerAuth): Promise<void> {
  const client = new Client({ name: "toolpool", version: "conformance" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: auth.fetch }));
  const { tools } = await client.listTools();
  for (const tool of tools.slice(0, 3)) {
    await client.callTool({ name: tool.name, arguments: {} }).catch((error: Error) => {
      // A tool's own failure is not the client's; a login it needs is.
      if (error instanceof NeedsAuthError || error.message.includes("needs a login")) throw error;
    });
  }
  await client.close();
}

/** 2026-07-28: stateless requests with their `_meta` and headers (the pool's own client is item 1's). */
async function listStateless(url: string, auth: ServerAuth): Promise<void> {
  const version = "2026-07-28";
  const send = async (method: string, params: Record<string, unknown>) => {
    const _meta = { "io.modelcontextprotocol/protocolVersion": version, "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "toolpool", version: "conformance" } };
    const response = await auth.fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": version, "mcp-method": method },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta } }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} answered ${response.status}: ${text.slice(0, 300)}`);
    return text;
  };
  const listed = await send("tools/list", {});
  // Then a call (a server may want more scope for it) or a second list (it may have moved to
  // another authorization server in between): each answered only with a token it accepts.
  const first = /"name"\s*:\s*"([^"]+)"/.exec(listed)?.[1];
  if (first) await send("tools/call", { name: first, arguments: {} });
  else await send("tools/list", {});
}

async function login(url: string, settings: OAuthSettings, store: OAuthStore, auth: ServerAuth): Promise<void> {
  const attempt = await beginLogin({ server: "conformance", url, settings, store, now: Date.now, timeoutMs: 20_000, challenge: auth.challenge });
  const approval = await fetch(attempt.authorizationUrl, { redirect: "manual" });
  const location = approval.headers.get("location");
  if (!location) {
    attempt.cancel("the authorization server did not redirect");
    throw new Error(`the authorization endpoint answered ${approval.status} without a redirect`);
  }
  await fetch(location).catch(() => undefined);
  await attempt.done;
}

const url = process.argv[2];
if (!url) {
  console.error("usage: conformance-auth-client.ts SERVER_URL");
  process.exit(2);
}
main(url).then(
  () => process.exit(0),
  (error: Error) => {
    console.error(`toolpool: ${error.message}`);
    process.exit(1);
  },
);
