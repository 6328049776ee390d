/**
 * Which revision a server speaks, found on its own transport: `server/discover` first (2026-07-28);
 * a server that does not know it (an error, or the HTTP request refused) gets the same transport,
 * already started, handed to the SDK client for `initialize`. A 2026 server becomes a
 * ServerConnection here: tools listed with the revision's caching hints, list changes through
 * `subscriptions/listen` where the server offers them, else a new listing once `ttlMs` runs out;
 * a call answered `input_required` is answered by its caller and retried (input-required.ts).
 */
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { RevisionErrorCode, STATELESS_REVISION } from "../protocol/mcp-revisions.ts";
import { listAllTools, type Listing } from "./list-tools.ts";
import { GROUPS_LIST_CHANGED, groupsListChanged } from "./server-groups.ts";
import { MAX_INSTRUCTIONS_CHARS, type ServerConnection } from "./server-connection-contract.ts";
import { StatelessClient, StatelessRpcError, subscriptionOf } from "./stateless-client.ts";
import { answerInputRequests, declaredCapabilities, MAX_INPUT_ROUNDS, toolError } from "./input-required.ts";
import { openCall } from "./question-routing.ts";
import { paramHeadersOf, type ParamHeader } from "./param-headers.ts";

/** A server without subscriptions is listed again after its `ttlMs`, but never more often than this. */
export const MIN_TTL_RELIST_MS = 30_000;
/** …and a `ttlMs` past this is read as this (a day), so a typo cannot freeze a catalog for years. */
export const MAX_TTL_RELIST_MS = 24 * 60 * 60 * 1000;
/** Unchanged listings in a row double the wait this many times at most. */
const MAX_BACKOFF_DOUBLINGS = 6;

export type Probe =
  | { kind: "stateless"; client: StatelessClient; discovered: Record<string, unknown> }
  | { kind: "legacy"; transport: Transport };

export interface ProbeOptions {
  timeoutMs: number;
  signal: AbortSignal;
  clientInfo: { name: string; version: string };
}

/** Starts `transport` and asks it `server/discover`. The transport is the caller's either way. */
export async function probeRevision(transport: Transport, options: ProbeOptions): Promise<Probe> {
  const client = new StatelessClient(transport, options.clientInfo);
  // A server that exits while probed fails the probe at once (the caller says how it exited).
  transport.onclose = () => client.fail("the connection closed");
  await transport.start();
  // A server that refuses the revision but names it among those it speaks is asked once more (it
  // may have refused for a reason it then put right); one that does not name it speaks an earlier one.
  for (let attempt = 1; attempt <= 2; attempt++) {
    try {
      const discovered = await client.request("server/discover", {}, { timeoutMs: options.timeoutMs, signal: options.signal });
      const versions = discovered.supportedVersions;
      if (Array.isArray(versions) && versions.includes(STATELESS_REVISION)) return { kind: "stateless", client, discovered };
      break;
    } catch (error) {
      // Closed or cancelled while probing: nothing to fall back to.
      if (options.signal.aborted || !(error instanceof StatelessRpcError || isHttpRefusal(error))) throw error;
      if (!(error instanceof StatelessRpcError && error.code === RevisionErrorCode.UnsupportedProtocolVersion && namesRevision(error.data))) break;
    }
  }
  transport.onmessage = undefined;
  transport.onclose = undefined;
  return { kind: "legacy", transport: new StartedTransport(transport) };
}

/** Whether an unsupported-version error's `data.supported` names the stateless revision. */
function namesRevision(data: unknown): boolean {
  const supported = typeof data === "object" && data !== null ? (data as { supported?: unknown }).supported : undefined;
  return Array.isArray(supported) && supported.includes(STATELESS_REVISION);
}

/** An HTTP server of a 2025 revision refuses a request without a session (400, 404 or 405). */
function isHttpRefusal(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === "number" && code >= 400 && code < 500;
}

/** The transport as the SDK client takes it: already started, so its `start()` does nothing. */
class StartedTransport implements Transport {
  constructor(private readonly inner: Transport) {}
  async start(): Promise<void> {}
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }
  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }
  set onmessage(handler: Transport["onmessage"]) {
    this.inner.onmessage = handler;
  }
  get onmessage(): Transport["onmessage"] {
    return this.inner.onmessage;
  }
  set onclose(handler: Transport["onclose"]) {
    this.inner.onclose = handler;
  }
  get onclose(): Transport["onclose"] {
    return this.inner.onclose;
  }
  set onerror(handler: Transport["onerror"]) {
    this.inner.onerror = handler;
  }
  get onerror(): Transport["onerror"] {
    return this.inner.onerror;
  }
}

export interface StatelessConnectionOptions {
  client: StatelessClient;
  /** The server's name in the config, for the questions it asks. */
  server?: string;
  discovered: Record<string, unknown>;
  pid: () => number | undefined;
  /** Registers the one listener for the transport's unexpected end. */
  onTransportLost: (listener: (reason: string) => void) => void;
  close: () => Promise<void>;
  timers?: { setTimeout: typeof setTimeout; clearTimeout: typeof clearTimeout };
  /** The jitter's draw in [0, 1) (tests pass a fixed one). */
  random?: () => number;
  /**
   * Over Streamable HTTP: filled with each listed tool's `x-mcp-header` parameters (which the
   * transport's fetch mirrors into headers), and a tool whose annotations break the rules is left
   * out of the listing. Absent (stdio): the annotations are ignored, as the revision allows.
   */
  headerParams?: Map<string, readonly ParamHeader[]>;
  /**
   * Reads the server's groups into each listing (server-groups.ts `groupListing`), before the TTL
   * poll compares it with the last: a change of groups alone is a change.
   */
  group?: (listing: Listing, timeoutMs: number) => Promise<Listing>;
}

export function statelessConnection(options: StatelessConnectionOptions): ServerConnection {
  const { client, discovered } = options;
  const serverName = options.server ?? "";
  const timers = options.timers ?? { setTimeout, clearTimeout };
  const changed: (() => void)[] = [];
  const lost: ((reason: string) => void)[] = [];
  const capabilities = (discovered.capabilities ?? {}) as { tools?: { listChanged?: boolean } };
  const toolsWatched = capabilities.tools?.listChanged === true;
  // The grouping extension predates this revision: it names `notifications/groups/list_changed`
  // but no subscription filter field, and this revision sends only what a listen asked for. So the
  // listen asks for `groupsListChanged` too (toolpool's reading; a server that does not know it
  // leaves it out of its acknowledgement), and groups count as watched only once acknowledged.
  const groupsOffered = options.group !== undefined && groupsListChanged(discovered.capabilities);
  let groupsAcknowledged = false;
  let listenId: unknown;
  let relistTimer: ReturnType<typeof setTimeout> | undefined;
  const random = options.random ?? Math.random;
  let lastListed: string | undefined;
  let unchangedListings = 0;
  let closed = false;
  const fireChanged = () => {
    for (const listener of changed) listener();
  };

  client.onNotification((method, params) => {
    if (listenId === undefined || subscriptionOf(params) !== listenId) return;
    if (method === "notifications/tools/list_changed" || method === GROUPS_LIST_CHANGED) fireChanged();
    else if (method === "notifications/subscriptions/acknowledged") {
      const granted = (params as { notifications?: { groupsListChanged?: unknown } }).notifications;
      groupsAcknowledged = groupsOffered && typeof granted === "object" && granted !== null && granted.groupsListChanged === true;
    }
  });

  const subscribe = () => {
    // Open until the connection closes: the answer only ever comes when the server ends it.
    listenId = "tp-listen";
    const wanted = { ...(toolsWatched && { toolsListChanged: true }), ...(groupsOffered && { groupsListChanged: true }) };
    client.request("subscriptions/listen", { notifications: wanted }, { timeoutMs: MAX_TTL_RELIST_MS, id: "tp-listen" }).catch(() => {});
  };

  const instructions = typeof discovered.instructions === "string" && discovered.instructions.trim() ? discovered.instructions.slice(0, MAX_INSTRUCTIONS_CHARS) : undefined;
  return {
    get pid() {
      return options.pid();
    },
    instructions,
    async listTools(timeoutMs) {
      let hints: { ttlMs?: number; cacheScope?: "public" | "private" } = {};
      const rejected: string[] = [];
      const headerParams = new Map<string, readonly ParamHeader[]>();
      const listed = await listAllTools(async (cursor) => {
        const page = await client.request("tools/list", cursor === undefined ? {} : { cursor }, { timeoutMs });
        if (cursor === undefined) hints = cachingHints(page);
        const tools = Array.isArray(page.tools) ? page.tools : [];
        return { tools: options.headerParams ? tools.filter((tool) => keepAnnotated(tool, headerParams, rejected)) : tools, ...(typeof page.nextCursor === "string" && { nextCursor: page.nextCursor }) };
      });
      if (options.headerParams) {
        options.headerParams.clear();
        for (const [tool, params] of headerParams) options.headerParams.set(tool, params);
      }
      listed.warnings.push(...rejected);
      const listing = options.group ? await options.group(listed, timeoutMs) : listed;
      // What no subscription watches, the server's own freshness hints say when to look at again:
      // the tools' ttlMs unless tool changes are subscribed, the groups' unless group changes are.
      const hinted = [toolsWatched ? undefined : hints.ttlMs, groupsAcknowledged ? undefined : listing.groupsTtlMs].filter((ttl) => ttl !== undefined);
      if (hinted.length > 0 && !closed) {
        // Polling on the TTL MUST add jitter and back off: each listing that changed nothing (tools
        // and groups alike) doubles the wait (up to 64 × ttlMs), and up to a tenth more is added at random.
        const seen = JSON.stringify(listing.tools);
        unchangedListings = seen === lastListed ? unchangedListings + 1 : 0;
        lastListed = seen;
        const backedOff = Math.min(...hinted) * 2 ** Math.min(unchangedListings, MAX_BACKOFF_DOUBLINGS) * (1 + random() / 10);
        timers.clearTimeout(relistTimer);
        relistTimer = timers.setTimeout(fireChanged, Math.round(Math.min(MAX_TTL_RELIST_MS, Math.max(MIN_TTL_RELIST_MS, backedOff))));
        (relistTimer as { unref?: () => void }).unref?.();
      }
      return { ...listing, ...hints };
    },
    async callTool(name, args, callOptions) {
      const call = openCall(name, callOptions.questions, callOptions.signal);
      let retry: Record<string, unknown> = {};
      for (let round = 1; ; round++) {
        const result = await client.request("tools/call", { name, arguments: args, ...retry }, {
          timeoutMs: callOptions.timeoutMs,
          signal: callOptions.signal,
          capabilities: declaredCapabilities(callOptions.questions),
          ...(callOptions.traceparent && { meta: { traceparent: callOptions.traceparent } }),
          ...(callOptions.onProgress && { onProgress: callOptions.onProgress }),
        });
        const { resultType, ...rest } = result;
        if (resultType === undefined || resultType === "complete") return rest as CallToolResult;
        if (resultType !== "input_required") return toolError(`The server answered ${name} with resultType ${JSON.stringify(String(resultType).slice(0, 40))}, which toolpool does not follow (a task of the tasks extension is not polled); the call was not completed.`);
        if (round > MAX_INPUT_ROUNDS) return toolError(`The server asked for input ${MAX_INPUT_ROUNDS} times in a row while running ${name}; toolpool stopped there and the call was not completed.`);
        const answered = await answerInputRequests(call, serverName, result);
        if (typeof answered === "string") return toolError(answered);
        retry = answered;
      }
    },
    onToolsChanged(listener) {
      changed.push(listener);
      if (changed.length === 1 && (toolsWatched || groupsOffered)) subscribe();
    },
    onLost: (listener) => {
      lost.push(listener);
      if (lost.length === 1) {
        options.onTransportLost((reason) => {
          if (closed) return;
          closed = true;
          timers.clearTimeout(relistTimer);
          client.fail(reason);
          for (const each of lost) each(reason);
        });
      }
    },
    async close() {
      closed = true;
      timers.clearTimeout(relistTimer);
      client.fail("the connection closed");
      await options.close();
    },
  };
}

/** False (and why, in `rejected`) for a tool whose `x-mcp-header` annotations break the rules. */
function keepAnnotated(tool: unknown, found: Map<string, readonly ParamHeader[]>, rejected: string[]): boolean {
  const { name, inputSchema } = (typeof tool === "object" && tool !== null ? tool : {}) as { name?: unknown; inputSchema?: unknown };
  const checked = paramHeadersOf(inputSchema);
  if (!checked.ok) {
    rejected.push(`left out tool ${JSON.stringify(String(name).slice(0, 100))}: ${checked.reason}`);
    return false;
  }
  if (checked.params.length > 0 && typeof name === "string") found.set(name, checked.params);
  return true;
}

function cachingHints(page: Record<string, unknown>): { ttlMs?: number; cacheScope?: "public" | "private" } {
  const ttl = page.ttlMs;
  const scope = page.cacheScope;
  return {
    ...(typeof ttl === "number" && Number.isFinite(ttl) && ttl >= 0 && { ttlMs: Math.floor(ttl) }),
    ...((scope === "public" || scope === "private") && { cacheScope: scope }),
  };
}
