#!/usr/bin/env bun
/**
 * A complete agent loop on the Anthropic Messages API with toolpool holding the tools:
 *
 *   session  → toolpool/session (model, provider) once
 *   each request: toolpool/assemble → tools + announcement + betas, sent as they are
 *   each tool_use: toolpool/call → `toolResult`, appended as it is
 *   between turns: toolpool/turnStarted when the model starts, toolpool/prefetch after the tools ran
 *                  → the `<tool-discovery>` attachment goes into the next user message
 *   compaction: past `compactAtChars`, toolpool/compact → the block goes into the summary message
 *   mid-conversation delivery (`delivery: "mid-conversation"`, `--delivery mid-conversation`): the
 *                  tools array never changes; assemble's `toolChanges.message` (a `role: "system"`
 *                  message of tool_addition / tool_removal blocks) is inserted at its `index` and kept
 *
 * Real API with ANTHROPIC_API_KEY set; otherwise the scripted model (examples/scripted/anthropic.json).
 */
import Anthropic from "@anthropic-ai/sdk";
import { DaemonError, type ToolpoolClient } from "toolpool/client";
import { announceMode, connectDaemon, parseAgentArgs, runMain } from "./agent-cli.ts";
import { loadScript, ScriptedModel } from "./scripted-model.ts";

export type Block = { type: string; [key: string]: unknown };
export interface Message {
  /** `system`: a mid-conversation tool change the daemon gave us to insert. */
  role: "user" | "assistant" | "system";
  content: Block[];
}
export interface ModelRequest {
  model: string;
  max_tokens: number;
  system: string;
  messages: Message[];
  tools: unknown[];
  betas?: string[];
}
export interface ModelResponse {
  content: Block[];
  stop_reason: string | null;
}
export type CreateMessage = (request: ModelRequest) => Promise<ModelResponse>;

export interface AgentOptions {
  client: ToolpoolClient;
  createMessage: CreateMessage;
  model: string;
  prompts: readonly string[];
  /** Past this many characters of transcript, older messages are compacted (≈ 4 characters a token). */
  compactAtChars?: number;
  maxStepsPerTurn?: number;
  /** Unset: what the daemon's config says (else auto). */
  delivery?: "auto" | "native" | "proxy" | "mid-conversation" | "standard";
  log?: (line: string) => void;
}

export interface AgentRun {
  sessionId: string;
  messages: Message[];
  answers: string[];
  requests: number;
  compactions: number;
}

const SYSTEM = "You are a helpful agent. Use the tools you are given; search for more with ToolSearch when none fits.";

export async function runAnthropicAgent(options: AgentOptions): Promise<AgentRun> {
  const { client, log = () => {} } = options;
  const { sessionId } = await client.session({ model: options.model, provider: "anthropic", clientName: "example-anthropic-agent", ...(options.delivery && { delivery: options.delivery }) });
  const run: AgentRun = { sessionId, messages: [], answers: [], requests: 0, compactions: 0 };
  let prefetchAvailable = true;

  for (const prompt of options.prompts) {
    run.messages.push({ role: "user", content: [{ type: "text", text: prompt }] });
    for (let step = 0; step < (options.maxStepsPerTurn ?? 10); step++) {
      if (JSON.stringify(run.messages).length > (options.compactAtChars ?? 400_000)) {
        run.messages = await compact(client, sessionId, run.messages);
        run.compactions++;
        log(`compacted the transcript to ${run.messages.length} messages`);
      }
      // The model is about to work: the daemon searches for likely tools meanwhile.
      client.turnStarted({ sessionId, messages: run.messages });
      const assembled = await client.assemble({ sessionId, messages: run.messages });
      // mid-conversation: the tool change joins the transcript for good, where the daemon says.
      if (assembled.toolChanges) {
        run.messages.splice(assembled.toolChanges.index, 0, assembled.toolChanges.message as Message);
        log(`tool change: +${assembled.toolChanges.added.join(",") || "-"} -${assembled.toolChanges.removed.join(",") || "-"}`);
      }
      const response = await options.createMessage({
        model: options.model,
        max_tokens: 4096,
        system: SYSTEM,
        messages: withAnnouncement(run.messages, assembled.announcement as Announcement | null),
        tools: assembled.tools,
        ...((assembled.betas as string[]).length > 0 && { betas: assembled.betas as string[] }),
      });
      run.requests++;
      run.messages.push({ role: "assistant", content: response.content });
      const toolUses = response.content.filter((block) => block.type === "tool_use");
      if (toolUses.length === 0) {
        run.answers.push(textOf(response.content));
        break;
      }
      const results: Block[] = [];
      for (const use of toolUses) {
        log(`tool_use ${String(use.name)} ${JSON.stringify(use.input)}`);
        const result = await client.call({
          sessionId,
          name: String(use.name),
          input: use.input as Record<string, unknown>,
          toolUseId: String(use.id),
          messages: run.messages,
        });
        results.push(result.toolResult as Block);
      }
      const next: Message = { role: "user", content: results };
      if (prefetchAvailable) {
        try {
          const prefetched = await client.prefetch({ sessionId, messages: [...run.messages, next] });
          if (prefetched.attachment) next.content.push({ type: "text", text: prefetched.attachment });
        } catch (error) {
          // Tiers built without PREFETCH have no such method: carry on without it.
          if (!(error instanceof DaemonError && error.code === -32601)) throw error;
          prefetchAvailable = false;
        }
      }
      run.messages.push(next);
    }
  }
  return run;
}

interface Announcement {
  text: string;
  persist: boolean;
}

/**
 * The announcement goes at the end of the last user message (a mid-conversation tool change may
 * follow it). A persistent one (a delta) joins the transcript for good; a list is sent with this
 * request only, so the transcript stays as it was.
 */
function withAnnouncement(messages: Message[], announcement: Announcement | null): Message[] {
  const at = messages.findLastIndex((message) => message.role !== "system");
  const last = messages[at];
  if (!announcement || last?.role !== "user") return messages;
  const block = { type: "text", text: announcement.text };
  if (announcement.persist) {
    last.content.push(block);
    return messages;
  }
  return messages.map((message, index) => (index === at ? { role: "user", content: [...last.content, block] } : message));
}

/**
 * Replaces everything before the last assistant message with one summary message. The kept tail
 * starts with that assistant message, so every tool_use keeps its tool_result. A real agent would
 * ask the model for the summary; this one lists the user's requests. The daemon's block carries the
 * discovered tools across, so the next tools array still holds them.
 */
async function compact(client: ToolpoolClient, sessionId: string, messages: Message[]): Promise<Message[]> {
  const cut = messages.findLastIndex((message) => message.role === "assistant");
  if (cut <= 0) return messages;
  const older = messages.slice(0, cut);
  const { block } = await client.compact({ sessionId, messages: older });
  // The user's own words: not tool results, and not the blocks the daemon had us insert (they start with a tag).
  const asked = older
    .filter((message) => message.role === "user")
    .flatMap((message) => message.content)
    .filter((block) => block.type === "text" && typeof block.text === "string" && !block.text.startsWith("<"))
    .map((block) => block.text as string);
  const summary = [`Summary of the earlier conversation. The user asked: ${asked.join(" / ")}`, block].filter(Boolean).join("\n\n");
  return [{ role: "user", content: [{ type: "text", text: summary }] }, ...messages.slice(cut)];
}

export function textOf(content: readonly Block[]): string {
  return content
    .filter((block) => block.type === "text" && typeof block.text === "string")
    .map((block) => block.text as string)
    .join("\n");
}

/** The real API: the beta endpoint, since native delivery sends `defer_loading` and tool references. */
export function anthropicCreateMessage(sdk: Anthropic = new Anthropic()): CreateMessage {
  return async (request) => {
    const params = { ...request, stream: false } as unknown as Parameters<typeof sdk.beta.messages.create>[0] & { stream: false };
    const message = await sdk.beta.messages.create(params);
    return { content: message.content as unknown as Block[], stop_reason: message.stop_reason };
  };
}

if (import.meta.main) {
  runMain(async () => {
    const args = parseAgentArgs(process.argv.slice(2));
    const live = Boolean(process.env.ANTHROPIC_API_KEY) && args.scriptPath === undefined;
    const recording = args.delivery === "mid-conversation" ? "anthropic-mid-conversation.json" : "anthropic.json";
    const scriptPath = args.scriptPath ?? `${import.meta.dir}/scripted/${recording}`;
    announceMode({ provider: "Anthropic", keyVariable: "ANTHROPIC_API_KEY", live, scriptPath, prompts: args.prompts });
    const script = live ? undefined : await loadScript<ModelResponse>(scriptPath);
    const scripted = script && new ScriptedModel<ModelRequest, ModelResponse>(script);
    const client = await connectDaemon(args.socketPath);
    try {
      const run = await runAnthropicAgent({
        client,
        createMessage: scripted ? async (request) => scripted.respond(request) : anthropicCreateMessage(),
        model: args.model ?? process.env.ANTHROPIC_MODEL ?? "claude-sonnet-4-5",
        prompts: args.prompts.length > 0 ? args.prompts : (script?.prompts ?? ["List the files in the current directory."]),
        ...(args.compactAtChars !== undefined && { compactAtChars: args.compactAtChars }),
        ...(args.delivery !== undefined && { delivery: args.delivery }),
        log: (line) => process.stderr.write(`${line}\n`),
      });
      const report = { mode: live ? "live" : "scripted", sessionId: run.sessionId, requests: run.requests, compactions: run.compactions, answers: run.answers };
      process.stdout.write(args.json ? `${JSON.stringify({ ...report, sent: scripted?.requests ?? [] })}\n` : `${run.answers.join("\n\n")}\n`);
    } finally {
      client.close();
    }
  });
}
