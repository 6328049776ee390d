/**
 * One MCP host's link to the daemon: a connection and a `proxy` session on it. The host sees the
 * session's fixed tools array (core tools + ToolSearch + ExecuteExtraTool) in MCP shape, and every
 * call runs in the daemon through `toolpool/call`. An MCP host sends no transcript, so the session
 * itself remembers what its ToolSearch calls found (src/daemon/session-tools.ts), and
 * ExecuteExtraTool accepts those tools.
 *
 * When the daemon goes away (restart, upgrade) the next request reconnects and resumes the session
 * under the same id; the host is told the tool list may have changed.
 */
import type { CallToolResult, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { ErrorCode, RpcError } from "../protocol/jsonrpc.ts";
import type { ToolpoolClient } from "../client/client.ts";
import type { ProgressUpdate } from "../tool/tool.ts";
import { Method } from "../protocol/method-names.ts";
import type { SessionParams } from "../protocol/methods.ts";
import { toMcpTools } from "./tool-shape.ts";

export interface DaemonBridgeOptions {
  /** Connects to the daemon (starting one if needed); called again after the daemon went away. */
  connect: () => Promise<ToolpoolClient>;
  /** Extra session settings (workspace roots, model); delivery and format are the bridge's. */
  session?: Omit<SessionParams, "sessionId" | "delivery" | "format">;
}

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (update: ProgressUpdate) => void;
}

interface Link {
  client: ToolpoolClient;
  sessionId: string;
}

/** Instructions are a hint for the model; past this size the deferred-tool list is left out. */
const MAX_INSTRUCTIONS_CHARS = 8_000;

export class DaemonBridge {
  #link: Promise<Link> | undefined;
  #sessionId: string | undefined;
  #clientName = "";
  /** The host named itself after the session was opened: tell the daemon on the next request. */
  #renamed = false;
  #closed = false;
  readonly #listeners = new Set<() => void>();
  /** Names a call may use: the pool and the session's meta-tools. Refreshed when the pool changes. */
  #known: Promise<ReadonlySet<string>> | undefined;

  constructor(private readonly options: DaemonBridgeOptions) {
    this.#listeners.add(() => {
      this.#known = undefined;
    });
  }

  /** The host's name, from its `initialize` (sent with the session, for the daemon's logs and flags). */
  setClientName(name: string): void {
    if (!name || name === this.#clientName) return;
    this.#clientName = name;
    this.#renamed = this.#sessionId !== undefined;
  }

  /** Called when the daemon says the pool changed, or after reconnecting to a new daemon. */
  onToolsChanged(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  async listTools(): Promise<McpTool[]> {
    const { client, sessionId } = await this.#ready();
    const [assembled, pool] = await Promise.all([client.assemble({ sessionId, messages: [] }), client.tools()]);
    return toMcpTools(assembled.tools, pool.tools);
  }

  /**
   * Whether a tool of this name exists for the session. MCP answers a call to an unknown tool with
   * a protocol error (-32602), as the daemon's own `tools/call` does; `toolpool/call` would answer
   * with a tool error instead, so the bridge asks first (from a cache, re-read once on a miss).
   */
  async hasTool(name: string): Promise<boolean> {
    if ((await this.#knownNames()).has(name)) return true;
    this.#known = undefined;
    return (await this.#knownNames()).has(name);
  }

  async callTool(name: string, input: Record<string, unknown>, options: CallOptions = {}): Promise<CallToolResult> {
    if (!(await this.hasTool(name))) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const { client, sessionId } = await this.#ready();
    const result = await client.call(
      { sessionId, name, input },
      {
        ...(options.signal && { signal: options.signal }),
        ...(options.onProgress && { onProgress: (params) => options.onProgress?.(progressFrom(params)) }),
      },
    );
    return {
      content: result.content as CallToolResult["content"],
      isError: result.isError,
      ...(result.structuredContent && { structuredContent: result.structuredContent }),
    };
  }

  /** What the host's model should know up front: how to reach the deferred tools, and their names. */
  async instructions(): Promise<string> {
    const { client, sessionId } = await this.#ready();
    const assembled = await client.assemble({ sessionId, messages: [] });
    const lead =
      "toolpool: most tools wait behind ToolSearch. Search with ToolSearch (keywords, or \"select:Name\"); it shows each tool's input schema. " +
      "Then run the tool with ExecuteExtraTool {\"tool_name\": \"<name>\", \"params\": {...}}.";
    const announcement = assembled.announcement as { text?: unknown } | null | undefined;
    const text = typeof announcement?.text === "string" ? announcement.text : "";
    if (!assembled.deferring) return "toolpool: every tool is listed directly.";
    return text && text.length + lead.length < MAX_INSTRUCTIONS_CHARS ? `${lead}\n\n${text}` : lead;
  }

  #knownNames(): Promise<ReadonlySet<string>> {
    const known = (this.#known ??= this.#readNames());
    known.catch(() => {
      if (this.#known === known) this.#known = undefined;
    });
    return known;
  }

  async #readNames(): Promise<ReadonlySet<string>> {
    const { client, sessionId } = await this.#ready();
    const [assembled, pool] = await Promise.all([client.assemble({ sessionId, messages: [] }), client.tools()]);
    const names = new Set(pool.tools.map((tool) => tool.name));
    for (const tool of toMcpTools(assembled.tools, [])) names.add(tool.name);
    return names;
  }

  close(): void {
    this.#closed = true;
    const link = this.#link;
    this.#link = undefined;
    void link?.then((current) => current.client.close()).catch(() => {});
  }

  async #ready(): Promise<Link> {
    if (this.#closed) throw new Error("the bridge is closed");
    this.#link ??= this.#open();
    const link = await this.#link;
    if (this.#renamed) {
      this.#renamed = false;
      await link.client.session({ sessionId: link.sessionId, clientName: this.#clientName });
    }
    return link;
  }

  async #open(): Promise<Link> {
    const reconnecting = this.#sessionId !== undefined;
    try {
      const client = await this.options.connect();
      const opened = await client.session({
        ...this.options.session,
        ...(this.#sessionId && { sessionId: this.#sessionId }),
        delivery: "proxy",
        format: "anthropic",
        clientName: this.#clientName || this.options.session?.clientName || "toolpool mcp",
      });
      this.#sessionId = opened.sessionId;
      client.onNotification((method) => {
        if (method === Method.ToolsListChanged) this.#changed();
      });
      client.onClose(() => {
        // The next request reconnects (and resumes this session by id).
        this.#link = undefined;
      });
      if (reconnecting) this.#changed();
      return { client, sessionId: opened.sessionId };
    } catch (error) {
      this.#link = undefined;
      throw error;
    }
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}

function progressFrom(params: Record<string, unknown>): ProgressUpdate {
  return {
    progress: typeof params.progress === "number" ? params.progress : 0,
    ...(typeof params.total === "number" && { total: params.total }),
    ...(typeof params.message === "string" && { message: params.message }),
  };
}
