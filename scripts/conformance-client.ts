/**
 * The pool's MCP client under the conformance suite's client scenarios, auth included:
 *
 *   node_modules/.bin/conformance client --command "node_modules/.bin/bun scripts/conformance-client.ts" \
 *     --requirements 2026-07-28 --expected-failures test/mcp/conformance-client-expected-failures.yaml
 *
 * The suite appends the server URL, names the scenario in MCP_CONFORMANCE_SCENARIO and the revision
 * in MCP_CONFORMANCE_PROTOCOL_VERSION. The server is pooled exactly as the daemon pools a configured
 * HTTP server (McpPool: the probe with `server/discover` else `initialize`, the listing, the call
 * path with its questions); this script only plays the agent that calls tools and the person who
 * answers the server's questions. Which tools it calls, with what, comes from the scenario's context
 * (MCP_CONFORMANCE_CONTEXT `toolCalls`) or else from the scenario's name. A server that wants an
 * OAuth login gets the one `toolpool auth login` runs (pool.oauth), with this script as the browser.
 * Exit 0 once the calls ran; 1 with the reason when the server could not be pooled or a login was
 * refused (what the negative auth scenarios expect).
 */
import { mkdirSync, mkdtempSync, rmdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { McpPool } from "../src/mcp/mcp-pool.ts";
import type { RemoteServerSpec } from "../src/mcp/server-spec.ts";
import type { QuestionChannel, ServerQuestion } from "../src/protocol/server-question.ts";
import type { Tool, ToolContext } from "../src/tool/tool.ts";

const SERVER = "conformance";
/** Long enough for the suite's slowest scenario (SSE reconnects), short of its own 30 s timeout. */
const CALL_TIMEOUT_MS = 20_000;
const LOGIN_TIMEOUT_MS = 20_000;
/** Logins one run may need at most (a first one, a step-up, a move to another authorization server). */
const MAX_LOGINS = 3;
/** The document URL the suite's CIMD scenario expects as the client id. */
const SUITE_METADATA_URL = "https://conformance-test.local/client-metadata.json";

interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * The suite starts every scenario's client at once. With TOOLPOOL_CONFORMANCE_SLOTS=DIR:N at most N
 * run at a time (a slot is a directory made atomically under DIR), so a loaded machine does not
 * slow the servers' answers past the pool's probe timeout. Waiting clients have loaded nothing yet.
 */
async function takeSlot(): Promise<() => void> {
  const setting = process.env.TOOLPOOL_CONFORMANCE_SLOTS;
  if (!setting) return () => {};
  const [dir, count] = [setting.slice(0, setting.lastIndexOf(":")), Number(setting.slice(setting.lastIndexOf(":") + 1))];
  for (;;) {
    for (let slot = 0; slot < count; slot++) {
      const path = join(dir, `slot-${slot}`);
      try {
        mkdirSync(path);
        return () => rmdirSync(path);
      } catch {
        // Taken: try the next one.
      }
    }
    await Bun.sleep(25);
  }
}

async function main(url: string): Promise<void> {
  const release = await takeSlot();
  try {
    await pooled(url);
  } finally {
    release();
  }
}

async function pooled(url: string): Promise<void> {
  const { McpPool } = await import("../src/mcp/mcp-pool.ts");
  const { createLogger } = await import("../src/runtime/logger.ts");
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as { toolCalls?: ToolCall[]; client_id?: string; client_secret?: string };
  const dir = mkdtempSync(join(tmpdir(), "toolpool-conformance-"));
  // As an operator would configure it: the suite's metadata document, or the client it registered.
  const oauth = { clientMetadataUrl: SUITE_METADATA_URL, ...(context.client_id && { clientId: context.client_id }), ...(context.client_secret && { clientSecret: context.client_secret }) };
  const spec: RemoteServerSpec = { name: SERVER, transport: "http", url, headers: {}, oauth, startup: "eager", disabled: false, alwaysLoad: [], origin: "conformance" };
  const logger = createLogger(process.env.TOOLPOOL_CONFORMANCE_DEBUG ? "debug" : "error", (line) => process.stderr.write(line.endsWith("\n") ? line : `${line}\n`));
  const pool = new McpPool({ servers: [spec], logger, cachePath: null, oauthDir: join(dir, "oauth"), clientVersion: "conformance", defaultTimeoutMs: () => CALL_TIMEOUT_MS });
  try {
    pool.start();
    let logins = 0;
    // As the daemon's user would: a server that wants a login (first, after a move to another
    // authorization server, for more scope) gets one, and is used again; a few times at most.
    const loginIfAsked = async (): Promise<boolean> => {
      if (pool.server(SERVER)?.state !== "needs-auth" || logins === MAX_LOGINS) return false;
      logins++;
      await login(pool, spec);
      return true;
    };
    let status = await pool.ensureStarted(SERVER);
    while (status?.state === "needs-auth" && (await loginIfAsked())) status = await pool.ensureStarted(SERVER);
    if (status?.state !== "connected") throw new Error(`the server was not pooled: ${status?.state ?? "unknown"} ${status?.reason ?? ""}`.trim());
    const tools = new Map(pool.tools().map((tool) => [tool.mcpInfo?.tool ?? tool.name, tool]));
    const definitions = new Map((pool.definitions(SERVER) ?? []).map((definition) => [definition.name, definition]));
    for (const call of plannedCalls(scenario, context.toolCalls, tools, definitions)) {
      const tool = tools.get(call.name);
      if (!tool) {
        console.error(`toolpool: the pool offers no tool ${call.name} (it has ${[...tools.keys()].join(", ") || "none"})`);
        continue;
      }
      let result = await tool.call(call.arguments, callContext());
      while (result.isError && (await loginIfAsked())) result = await tool.call(call.arguments, callContext());
      console.log(`${call.name}: ${JSON.stringify(result).slice(0, 500)}`);
      if (pool.server(SERVER)?.state === "needs-auth") throw new Error(`the call to ${call.name} needs a login toolpool could not get`);
    }
  } finally {
    await pool.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The login `toolpool auth login` runs, with this script as the browser (the suite's server approves at once). */
async function login(pool: McpPool, spec: RemoteServerSpec): Promise<void> {
  const attempt = await pool.oauth.login(spec, LOGIN_TIMEOUT_MS);
  const approval = await fetch(attempt.authorizationUrl, { redirect: "manual" });
  const location = approval.headers.get("location");
  if (!location) {
    attempt.cancel("the authorization server did not redirect");
    throw new Error(`the authorization endpoint answered ${approval.status} without a redirect`);
  }
  await fetch(location).catch(() => undefined);
  // Resolves once the tokens are stored and the server reconnected with them; rejects on a refusal (a wrong `iss`…).
  await pool.oauth.pendingLogin(spec.name)?.reconnected;
}

/** The calls a scenario wants: its context's list when it gives one, else what its name asks for. */
function plannedCalls(scenario: string, fromContext: ToolCall[] | undefined, tools: Map<string, Tool>, definitions: Map<string, McpTool>): ToolCall[] {
  if (fromContext) return fromContext;
  if (scenario === "json-schema-ref-no-deref" || scenario === "request-metadata") return [];
  if (scenario === "json-schema-2020-12-preservation") {
    // The schema as the pool holds it from the listing (the provider-facing copy drops `$schema`).
    const focal = definitions.get("json_schema_2020_12_tool");
    return focal ? [{ name: "json_schema_echo", arguments: { schema: focal.inputSchema } }] : [];
  }
  // Every other scenario: each tool it offers, once, with the arguments the suite's tools take.
  return [...tools.keys()].map((name) => ({ name, arguments: { a: 2, b: 3 } }));
}

/** The agent's context for one call: it can answer elicitation and sampling, as a person would. */
function callContext(): ToolContext {
  return {
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    sessionId: "conformance",
    workspaceRoots: [],
    cwd: process.cwd(),
    sessionState: new Map(),
    questions: person,
  };
}

/** The person: accepts every form with what it asks for left to its defaults, and answers samples. */
const person: QuestionChannel = {
  kinds: new Set(["elicitation", "sampling"]),
  async ask(question: ServerQuestion): Promise<Record<string, unknown>> {
    if (question.kind === "sampling") {
      return { role: "assistant", content: { type: "text", text: "conformance answer" }, model: "conformance", stopReason: "endTurn" };
    }
    return { action: "accept", content: {} };
  },
};

const url = process.argv[2];
if (!url) {
  console.error("usage: conformance-client.ts SERVER_URL");
  process.exit(2);
}
main(url).then(
  () => process.exit(0),
  (error: Error) => {
    console.error(`toolpool: ${error.message}`);
    process.exit(1);
  },
);
