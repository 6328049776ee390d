/**
 * One live connection to one MCP server, over whichever transport its spec names: the SDK's Client
 * on our stdio transport (process group, big lines, stderr ring), Streamable HTTP or SSE. What the
 * supervisor needs of it is the small `ServerConnection` interface, so supervision is tested with
 * fakes and the real thing alike. The server's elicitation and sampling requests are relayed to the
 * caller of the call they belong to (question-routing.ts), never answered here.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike, Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  McpError,
  ToolListChangedNotificationSchema,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { describeExit, type SpawnProcess } from "./child-process.ts";
import { listAllTools, looseToolPageSchema, type Listing } from "./list-tools.ts";
import type { ServerLaunch, ServerSpec } from "./server-spec.ts";
import type { StderrRing } from "./stderr-ring.ts";
import { StdioProcessTransport } from "./stdio-transport.ts";
import { probeRevision, statelessConnection } from "./stateless-connection.ts";
import { withRevisionHeaders } from "./revision-headers.ts";
import type { ParamHeader } from "./param-headers.ts";
import { QuestionRouter, withRefusals } from "./question-routing.ts";
import { toolError, unaskedTask } from "./input-required.ts";
import { QuestionRefused } from "../protocol/server-question.ts";
import type { Timers } from "./timers.ts";
import { MAX_INSTRUCTIONS_CHARS, type ServerConnection } from "./server-connection-contract.ts";
import { groupListing, GROUPS_LIST_CHANGED, withGrouping } from "./server-groups.ts";

export { MAX_INSTRUCTIONS_CHARS, type CallOptions, type ServerConnection } from "./server-connection-contract.ts";

export interface ConnectDeps {
  spawn: SpawnProcess;
  timers: Timers;
  stderr: StderrRing;
  /** The daemon's environment; a stdio server gets it plus its own `env`. */
  baseEnv: NodeJS.ProcessEnv;
  maxLineBytes: number;
  graceMs: number;
  clientVersion: string;
  signal: AbortSignal;
  connectTimeoutMs: number;
  /** An HTTP server's OAuth: what its requests are sent through (the token added, refreshed on expiry and 401). */
  auth?: (spec: ServerSpec) => { fetch: FetchLike; takeNeedsAuth(): Error | undefined } | undefined;
  /** Wraps a stdio server whose spec asks for a sandbox (src/sandbox/server-sandbox.ts); throws when it cannot. */
  confine?: (launch: ServerLaunch) => Promise<{ command: string; args: string[] }>;
}

/**
 * How long `server/discover` may take before the server is taken for one of a 2025 revision (some
 * ignore requests before initialize instead of answering them): half the connect timeout, at most
 * this, so the rest is left for initialize.
 */
const MAX_PROBE_MS = 10_000;

export type Connector = (spec: ServerSpec, deps: ConnectDeps) => Promise<ServerConnection>;

/** True when an HTTP server answered 404 for our session: it forgot it (restarted, expired). */
export function isSessionGone(error: unknown): boolean {
  return error instanceof StreamableHTTPError && error.code === 404;
}

export const connectServer: Connector = async (spec, deps) => {
  const auth = deps.auth?.(spec);
  auth?.takeNeedsAuth();
  // Streamable HTTP at 2026-07-28: the tools' `x-mcp-header` parameters, filled by each listing, mirrored by the fetch.
  const headerParams = spec.transport === "http" ? new Map<string, readonly ParamHeader[]>() : undefined;
  const transport = createTransport(await confined(spec, deps), deps, spec.transport === "sse" ? auth?.fetch : withRevisionHeaders(auth?.fetch, (tool) => headerParams?.get(tool)));
  const describeLoss = () => (transport instanceof StdioProcessTransport && transport.exit ? `the server process ${describeExit(transport.exit)}` : "the connection closed");
  // Declared only so a server's questions can be relayed to the caller; the daemon never answers one.
  const client = new Client({ name: "toolpool", version: deps.clientVersion }, { capabilities: { elicitation: { form: {} }, sampling: {} } });
  const router = new QuestionRouter(spec.name);
  const relay = (method: string) => async (request: { params: Record<string, unknown> }) => {
    try {
      return await router.answer(method, request.params);
    } catch (error) {
      throw error instanceof QuestionRefused ? new McpError(error.code, error.message) : error;
    }
  };
  client.setRequestHandler(ElicitRequestSchema, relay("elicitation/create") as never);
  client.setRequestHandler(CreateMessageRequestSchema, relay("sampling/createMessage") as never);
  let closing = false;
  const lostListeners: ((reason: string) => void)[] = [];
  const changedListeners: (() => void)[] = [];
  client.onclose = () => {
    if (closing) return;
    const reason = describeLoss();
    for (const listener of lostListeners) listener(reason);
  };
  client.onerror = () => {
    // Out-of-band transport noise (a stray stdout line, a failed SSE reconnect); the ring has it.
  };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    for (const listener of changedListeners) listener();
  });
  const started = Date.now();
  try {
    // 2026-07-28 first (server/discover); a server that does not know it gets initialize on the same transport.
    const probe = spec.transport === "sse" ? { kind: "legacy" as const, transport } : await probeRevision(transport, { timeoutMs: Math.min(deps.connectTimeoutMs / 2, MAX_PROBE_MS), signal: deps.signal, clientInfo: { name: "toolpool", version: deps.clientVersion } });
    if (probe.kind === "stateless") {
      const stateless = probe.client;
      return statelessConnection({
        client: probe.client,
        server: spec.name,
        discovered: probe.discovered,
        group: groupListing(probe.discovered.capabilities, (params, timeoutMs) => stateless.request("groups/list", params, { timeoutMs, signal: deps.signal })),
        ...(headerParams && { headerParams }),
        pid: () => (transport instanceof StdioProcessTransport ? transport.pid : undefined),
        onTransportLost: (listener) => {
          transport.onclose = () => {
            if (!closing) listener(describeLoss());
          };
        },
        close: async () => {
          closing = true;
          await transport.close().catch(() => {});
        },
      });
    }
    const timeout = Math.max(1_000, deps.connectTimeoutMs - (Date.now() - started));
    await client.connect(probe.transport, { timeout, signal: deps.signal });
  } catch (error) {
    closing = true;
    // A login is wanted, however the transport reported it (SSE loses the error in an event).
    const needsAuth = auth?.takeNeedsAuth();
    if (needsAuth) {
      await transport.close().catch(() => {});
      throw needsAuth;
    }
    // A timeout is ours to report: closing the transport is what ends the process then (SIGTERM).
    const timedOut = error instanceof McpError && error.code === ErrorCode.RequestTimeout;
    await transport.close().catch(() => {});
    // Otherwise "Connection closed" says less than how the process ended.
    if (!timedOut && transport instanceof StdioProcessTransport && transport.exit) {
      throw new Error(`the server process ${describeExit(transport.exit)} while starting`);
    }
    throw error;
  }
  const instructions = client.getInstructions();
  const groupsChanged: (() => void)[] = [];
  client.setNotificationHandler(GroupsListChangedSchema, () => groupsChanged.forEach((listener) => listener()));
  return withGrouping({
    get pid() {
      return transport instanceof StdioProcessTransport ? transport.pid : undefined;
    },
    instructions: typeof instructions === "string" && instructions.trim().length > 0 ? instructions.slice(0, MAX_INSTRUCTIONS_CHARS) : undefined,
    listTools: (timeoutMs) =>
      listAllTools((cursor) => client.request({ method: "tools/list", params: cursor === undefined ? {} : { cursor } }, looseToolPageSchema, { timeout: timeoutMs })),
    // client.request, not client.callTool: callTool rejects results that break the tool's output
    // schema, and a server that lies about its schema should still have its answer seen.
    async callTool(name, args, options) {
      const call = router.begin(name, options.questions, options.signal);
      try {
        const meta = options.traceparent ? { _meta: { traceparent: options.traceparent } } : {};
        const result = await client.request({ method: "tools/call", params: { name, arguments: args, ...meta } }, CallToolResultSchema, {
        signal: options.signal,
        timeout: options.timeoutMs,
        resetTimeoutOnProgress: true,
        onprogress: (progress) =>
          options.onProgress?.({
            progress: progress.progress,
            ...(progress.total !== undefined && { total: progress.total }),
            ...(progress.message !== undefined && { message: progress.message }),
          }),
        });
        // A 2025 server may answer with a task only when the request asked for one; ours never do.
        if (typeof (result as { task?: unknown }).task === "object" && (result as { task?: unknown }).task !== null) return toolError(unaskedTask(name));
        return withRefusals(result, call);
      } finally {
        router.end(call);
      }
    },
    onToolsChanged: (listener) => changedListeners.push(listener),
    onLost: (listener) => lostListeners.push(listener),
    async close() {
      closing = true;
      await client.close().catch(() => {});
      await transport.close().catch(() => {});
    },
  }, {
    capabilities: client.getServerCapabilities(),
    request: (params, timeoutMs) => client.request({ method: "groups/list", params }, GroupsPageSchema, { timeout: timeoutMs }),
    onGroupsChanged: (listener) => groupsChanged.push(listener),
  });
};

/** The grouping extension's shapes as the SDK client checks them; server-groups.ts checks each entry. */
const GroupsPageSchema = z.looseObject({ groups: z.array(z.unknown()), nextCursor: z.string().optional() });
const GroupsListChangedSchema = z.object({ method: z.literal(GROUPS_LIST_CHANGED), params: z.optional(z.looseObject({})) });

/** The spec as it is spawned: a server that asks for a sandbox runs inside one, or not at all. */
async function confined(spec: ServerSpec, deps: ConnectDeps): Promise<ServerSpec> {
  if (spec.transport !== "stdio" || !spec.sandbox) return spec;
  if (!deps.confine) throw new Error("its config asks for a sandbox and this daemon runs servers without one, so it is not started");
  const env = { ...deps.baseEnv, ...spec.env };
  const wrapped = await deps.confine({ name: spec.name, command: spec.command, args: spec.args, env, sandbox: spec.sandbox, ...(spec.cwd !== undefined && { cwd: spec.cwd }) });
  return { ...spec, ...wrapped };
}

function createTransport(spec: ServerSpec, deps: ConnectDeps, authFetch: FetchLike | undefined): Transport {
  if (spec.transport === "stdio") {
    return new StdioProcessTransport({
      name: spec.name,
      command: spec.command,
      args: spec.args,
      env: { ...deps.baseEnv, ...spec.env },
      ...(spec.cwd !== undefined && { cwd: spec.cwd }),
      spawn: deps.spawn,
      timers: deps.timers,
      stderr: deps.stderr,
      maxLineBytes: deps.maxLineBytes,
      graceMs: deps.graceMs,
    });
  }
  const requestInit: RequestInit = { headers: { ...spec.headers } };
  const url = new URL(spec.url);
  const fetchOption = authFetch ? { fetch: authFetch } : {};
  if (spec.transport === "sse") return new SSEClientTransport(url, { requestInit, ...fetchOption });
  return new StreamableHTTPClientTransport(url, { requestInit, ...fetchOption });
}
