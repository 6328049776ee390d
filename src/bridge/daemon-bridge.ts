/**
 * One MCP host's link to the daemon: a connection and a `proxy` session on it. The host sees the
 * daemon's own MCP view of that session (core tools + ToolSearch + ExecuteExtraTool), and every
 * call runs in the daemon through its MCP `tools/call` on the same connection. An MCP host sends no transcript, so the session
 * itself remembers what its ToolSearch calls found (src/daemon/session-tools.ts), and
 * ExecuteExtraTool accepts those tools.
 *
 * When the daemon goes away (restart, upgrade) the next request reconnects and resumes the session
 * under the same id; the host is told the tool list may have changed.
 */
import type { CallToolResult, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { QuestionAnswerer, ToolpoolClient } from "../client/client.ts";
import type { ProgressUpdate } from "../tool/tool.ts";
import { Method } from "../protocol/method-names.ts";
import { HostRounds } from "./host-rounds.ts";
import type { SessionParams } from "../protocol/methods.ts";

export interface DaemonBridgeOptions {
  /** Connects to the daemon (starting one if needed); called again after the daemon went away. */
  connect: () => Promise<ToolpoolClient>;
  /** Extra session settings (workspace roots, model); delivery and format are the bridge's. */
  session?: Omit<SessionParams, "sessionId" | "delivery" | "format">;
}

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (update: ProgressUpdate) => void;
  /** The host's answerer for the servers' questions during this call (only kinds the host declared). */
  answers?: QuestionAnswerer;
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
  #rounds: HostRounds | undefined;
  constructor(private readonly options: DaemonBridgeOptions) {}

  /** Calls of 2026-07-28 hosts waiting for their answers to servers' questions (host-rounds.ts). */
  get rounds(): HostRounds {
    return (this.#rounds ??= new HostRounds((name, input, options) => this.callTool(name, input, options)));
  }

  /** Calls parked for the host's answers (none until a host was asked). */
  get waitingRounds(): number {
    return this.#rounds?.waiting ?? 0;
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

  /**
   * The daemon's own MCP view of this session (`tools/list` on the session's connection), relayed
   * as it is: one view of a session's tools for every front door, one round trip per host request.
   */
  async listTools(cursor?: string): Promise<{ tools: McpTool[]; nextCursor?: string }> {
    const { client } = await this.#ready();
    return client.request(Method.ToolsList, cursor === undefined ? {} : { cursor });
  }

  /** `tools/call` on the session's connection: the daemon answers an unknown tool with -32602, as MCP says. */
  async callTool(name: string, input: Record<string, unknown>, options: CallOptions = {}): Promise<CallToolResult> {
    const { client } = await this.#ready();
    const result = await client.request(
      Method.ToolsCall,
      { name, arguments: input },
      {
        ...(options.signal && { signal: options.signal }),
        ...(options.onProgress && { onProgress: (params) => options.onProgress?.(progressFrom(params)) }),
        ...(options.answers && { answers: options.answers }),
      },
    );
    // The SDK's content type has no tool_reference: that block appears only in native delivery,
    // never in a bridge's proxy session.
    return { ...result, content: result.content as CallToolResult["content"] };
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

  /** Opens the link now (a listener hears of changes only once it is open). */
  async open(): Promise<void> {
    await this.#ready();
  }

  close(): void {
    this.#closed = true;
    this.#rounds?.close();
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
