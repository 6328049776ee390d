#!/usr/bin/env bun
/**
 * The same agent loop on OpenAI Chat Completions. toolpool picks **proxy** delivery for the OpenAI
 * format: the tools array is fixed (core tools + ToolSearch + ExecuteExtraTool) and never changes
 * during the conversation; ToolSearch answers with schemas as text and ExecuteExtraTool runs what
 * was found. Everything else is as in anthropic-agent.ts: assemble, call, prefetch, compact.
 *
 * Real API with OPENAI_API_KEY set; otherwise the scripted model (examples/scripted/openai.json).
 */
import OpenAI from "openai";
import { DaemonError, type ToolpoolClient } from "toolpool/client";
import { announceMode, connectDaemon, parseAgentArgs, runMain } from "./agent-cli.ts";
import { loadScript, ScriptedModel } from "./scripted-model.ts";

export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}
export interface ChatMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools: unknown[];
}
export interface ChatResponse {
  choices: { message: ChatMessage; finish_reason: string | null }[];
}
export type CreateCompletion = (request: ChatRequest) => Promise<ChatResponse>;

export interface AgentOptions {
  client: ToolpoolClient;
  createCompletion: CreateCompletion;
  model: string;
  prompts: readonly string[];
  compactAtChars?: number;
  maxStepsPerTurn?: number;
  log?: (line: string) => void;
}

export interface AgentRun {
  sessionId: string;
  messages: ChatMessage[];
  answers: string[];
  requests: number;
  compactions: number;
}

const SYSTEM = "You are a helpful agent. Use the tools you are given; search for more with ToolSearch and run what it finds with ExecuteExtraTool.";

export async function runOpenAIAgent(options: AgentOptions): Promise<AgentRun> {
  const { client, log = () => {} } = options;
  const { sessionId } = await client.session({ model: options.model, provider: "openai", clientName: "example-openai-agent" });
  const run: AgentRun = { sessionId, messages: [{ role: "system", content: SYSTEM }], answers: [], requests: 0, compactions: 0 };
  let prefetchAvailable = true;

  for (const prompt of options.prompts) {
    run.messages.push({ role: "user", content: prompt });
    for (let step = 0; step < (options.maxStepsPerTurn ?? 10); step++) {
      if (JSON.stringify(run.messages).length > (options.compactAtChars ?? 400_000)) {
        run.messages = await compact(client, sessionId, run.messages);
        run.compactions++;
        log(`compacted the transcript to ${run.messages.length} messages`);
      }
      client.turnStarted({ sessionId, messages: run.messages });
      const assembled = await client.assemble({ sessionId, messages: run.messages });
      const response = await options.createCompletion({
        model: options.model,
        messages: withAnnouncement(run.messages, assembled.announcement as Announcement | null),
        tools: assembled.tools,
      });
      run.requests++;
      const message = response.choices[0]?.message;
      if (!message) throw new Error("the model returned no choice");
      run.messages.push(message);
      if (!message.tool_calls?.length) {
        run.answers.push(message.content ?? "");
        break;
      }
      for (const call of message.tool_calls) {
        log(`tool call ${call.function.name} ${call.function.arguments}`);
        const result = await client.call({
          sessionId,
          name: call.function.name,
          input: parseArguments(call.function.arguments),
          toolUseId: call.id,
          messages: run.messages,
        });
        run.messages.push(result.toolResult as unknown as ChatMessage);
      }
      if (prefetchAvailable) {
        try {
          const prefetched = await client.prefetch({ sessionId, messages: run.messages });
          // Proxy attachments carry schemas: ExecuteExtraTool may run these tools at once.
          if (prefetched.attachment) run.messages.push({ role: "user", content: prefetched.attachment });
        } catch (error) {
          if (!(error instanceof DaemonError && error.code === -32601)) throw error;
          prefetchAvailable = false;
        }
      }
    }
  }
  return run;
}

interface Announcement {
  text: string;
  persist: boolean;
}

/** After tool messages the announcement is a user message of its own; kept only when it persists. */
function withAnnouncement(messages: ChatMessage[], announcement: Announcement | null): ChatMessage[] {
  if (!announcement) return messages;
  const note: ChatMessage = { role: "user", content: announcement.text };
  if (announcement.persist) {
    messages.push(note);
    return messages;
  }
  return [...messages, note];
}

/** Model-written arguments are JSON text; a malformed one reaches the tool as `{}` and fails validation there. */
function parseArguments(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text || "{}");
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** As in anthropic-agent.ts: summary + the daemon's block replace everything before the last assistant turn. */
async function compact(client: ToolpoolClient, sessionId: string, messages: ChatMessage[]): Promise<ChatMessage[]> {
  const cut = messages.findLastIndex((message) => message.role === "assistant");
  if (cut <= 1) return messages;
  const [system, ...older] = messages.slice(0, cut);
  const { block } = await client.compact({ sessionId, messages: older });
  const asked = older.filter((message) => message.role === "user" && message.content && !message.content.startsWith("<")).map((message) => message.content);
  const summary = [`Summary of the earlier conversation. The user asked: ${asked.join(" / ")}`, block].filter(Boolean).join("\n\n");
  return [system!, { role: "user", content: summary }, ...messages.slice(cut)];
}

export function openAICreateCompletion(sdk: OpenAI = new OpenAI()): CreateCompletion {
  return async (request) => {
    const params = request as unknown as Parameters<typeof sdk.chat.completions.create>[0] & { stream?: false };
    return (await sdk.chat.completions.create(params)) as unknown as ChatResponse;
  };
}

if (import.meta.main) {
  runMain(async () => {
    const args = parseAgentArgs(process.argv.slice(2));
    const live = Boolean(process.env.OPENAI_API_KEY) && args.scriptPath === undefined;
    const scriptPath = args.scriptPath ?? `${import.meta.dir}/scripted/openai.json`;
    // The OpenAI format always gets proxy delivery; a --delivery here would be a setting silently lost.
    if (args.delivery !== undefined) throw new Error("--delivery is for anthropic-agent.ts: the OpenAI format always uses proxy delivery");
    announceMode({ provider: "OpenAI", keyVariable: "OPENAI_API_KEY", live, scriptPath, prompts: args.prompts });
    const script = live ? undefined : await loadScript<ChatResponse>(scriptPath);
    const scripted = script && new ScriptedModel<ChatRequest, ChatResponse>(script);
    const client = await connectDaemon(args.socketPath);
    try {
      const run = await runOpenAIAgent({
        client,
        createCompletion: scripted ? async (request) => scripted.respond(request) : openAICreateCompletion(),
        model: args.model ?? process.env.OPENAI_MODEL ?? "gpt-4.1-mini",
        prompts: args.prompts.length > 0 ? args.prompts : (script?.prompts ?? ["List the files in the current directory."]),
        ...(args.compactAtChars !== undefined && { compactAtChars: args.compactAtChars }),
        log: (line) => process.stderr.write(`${line}\n`),
      });
      const report = { mode: live ? "live" : "scripted", sessionId: run.sessionId, requests: run.requests, compactions: run.compactions, answers: run.answers };
      process.stdout.write(args.json ? `${JSON.stringify({ ...report, sent: scripted?.requests ?? [] })}\n` : `${run.answers.join("\n\n")}\n`);
    } finally {
      client.close();
    }
  });
}
