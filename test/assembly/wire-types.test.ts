/**
 * Type-level test: what assembleRequest and ToolSearch produce type-checks against the providers' own
 * SDK types — the Anthropic beta Messages types (native delivery: `defer_loading`, `tool_reference`)
 * and the OpenAI chat-completions types. `tsc --noEmit -p .` checks this file; bun runs it, so the
 * values are real too.
 */
import { describe, expect, test } from "bun:test";
import type {
  BetaMessageParam,
  BetaSystemMessageParam,
  BetaTool,
  BetaToolResultBlockParam,
  BetaToolUnion,
  MessageCreateParamsNonStreaming,
} from "@anthropic-ai/sdk/resources/beta/messages/messages";
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from "openai/resources/chat/completions";
import { assembleRequest, type AssembleSettings } from "../../src/assembly/assemble-request.ts";
import { scanTranscript } from "../../src/assembly/scan-transcript.ts";
import type { FixedToolHolder } from "../../src/assembly/mid-conversation.ts";
import { toolChangeMessage, toolDefinition, toolReference, type ToolChangeMessage } from "../../src/assembly/tool-change-blocks.ts";
import type { AnthropicWireTool, OpenAIWireTool } from "../../src/assembly/wire-format.ts";
import { createExecuteExtraTool } from "../../src/builtin/execute-extra-tool.ts";
import { createToolSearchTool } from "../../src/builtin/tool-search.ts";
import type { ToolResult } from "../../src/tool/result.ts";
import { indexOf, samplePool } from "./fixtures.ts";

// Compile-time: our wire types are the SDKs' types (a mismatch fails `tsc`).
const anthropicFits: BetaTool = {} as AnthropicWireTool;
const openaiFits: ChatCompletionFunctionTool = {} as OpenAIWireTool;
// @ts-expect-error — the check has teeth: an OpenAI function tool is not an Anthropic tool.
const crossed: BetaTool = {} as OpenAIWireTool;
// Mid-conversation tool changes are the API's system messages of tool_addition / tool_removal blocks.
const toolChangeFits: BetaSystemMessageParam = {} as ToolChangeMessage;
// @ts-expect-error — a tool change's reference carries `name`; `tool_name` belongs to tool-result references.
const staleReference: BetaSystemMessageParam = { role: "system", content: [{ type: "tool_addition", tool: { type: "tool_reference", tool_name: "x" } }] };
void anthropicFits, openaiFits, crossed, toolChangeFits, staleReference;

const pool = samplePool();
const engine = indexOf(pool);
const metaTools = (delivery: "native" | "proxy" | "mid-conversation") => ({
  toolSearch: createToolSearchTool({ engine, lookup: pool.get, delivery }),
  executeExtraTool: createExecuteExtraTool({ lookup: pool.get }),
});
const settings = (overrides: Partial<AssembleSettings>): AssembleSettings => ({
  model: "claude-sonnet-4-5",
  provider: "anthropic",
  delivery: "auto",
  format: "anthropic",
  announcements: "list",
  ...overrides,
});

/** ToolSearch's answer to `select:mcp__github__create_issue` under a delivery. */
function selectGithubIssue(delivery: "native" | "mid-conversation"): Promise<ToolResult> {
  const context = { signal: new AbortController().signal, sessionId: "s", workspaceRoots: [], cwd: "/", sessionState: new Map() };
  return metaTools(delivery).toolSearch.call({ query: "select:mcp__github__create_issue" }, context);
}

/** A ToolSearch result as an Anthropic beta tool_result block. */
function toolResultBlock(toolUseId: string, result: ToolResult): BetaToolResultBlockParam {
  const content: BetaToolResultBlockParam["content"] = result.content.map((block) =>
    block.type === "image" ? { type: "image", source: { type: "base64", media_type: "image/png", data: block.data } } : block,
  );
  return { type: "tool_result", tool_use_id: toolUseId, content };
}

describe("wire types", () => {
  test("native: the tools array, the tool_reference result and the transcript are Anthropic beta types", async () => {
    const search = await selectGithubIssue("native");
    const messages: BetaMessageParam[] = [
      { role: "user", content: "File a bug." },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "ToolSearch", input: { query: "select:mcp__github__create_issue" } }] },
      { role: "user", content: [toolResultBlock("t1", search)] },
    ];
    const result = assembleRequest({ settings: settings({}), tools: pool.tools, messages, metaTools });
    if (result.format !== "anthropic") throw new Error("expected the Anthropic format");
    const tools: BetaToolUnion[] = result.tools;
    const body: MessageCreateParamsNonStreaming = { model: "claude-sonnet-4-5", max_tokens: 1024, messages, tools, betas: result.betas };
    expect(body.tools?.at(-1)).toMatchObject({ name: "mcp__github__create_issue", defer_loading: true });
    expect(body.betas).toEqual(["advanced-tool-use-2025-11-20"]);
    expect([...scanTranscript(messages).discovered]).toEqual(["mcp__github__create_issue"]);
  });

  test("mid-conversation: the fixed tools array and the tool-change system messages are Anthropic beta types", async () => {
    const holder = {} as FixedToolHolder;
    const schemaCache = new Map<string, string>();
    const assemble = (messages: BetaMessageParam[]) =>
      assembleRequest({ settings: settings({ delivery: "mid-conversation" }), tools: pool.tools, messages, metaTools, fixedTools: holder, schemaCache });
    const search = await selectGithubIssue("mid-conversation");
    const messages: BetaMessageParam[] = [
      { role: "user", content: "File a bug." },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "ToolSearch", input: { query: "select:mcp__github__create_issue" } }] },
      { role: "user", content: [toolResultBlock("t1", search)] },
    ];
    const first = assemble(messages.slice(0, 1));
    const second = assemble(messages);
    if (second.format !== "anthropic" || !second.toolChanges) throw new Error("expected an Anthropic tool change");
    const change: BetaMessageParam = second.toolChanges.message;
    const sent = [...messages.slice(0, second.toolChanges.index), change, ...messages.slice(second.toolChanges.index)];
    const tools: BetaToolUnion[] = second.tools;
    const body: MessageCreateParamsNonStreaming = { model: "claude-sonnet-4-5", max_tokens: 1024, messages: sent, tools, betas: second.betas };
    expect(JSON.stringify(body.tools)).toBe(JSON.stringify(first.tools));
    expect(change).toEqual({ role: "system", content: [{ type: "tool_addition", tool: { type: "tool_reference", name: "mcp__github__create_issue" } }] });
    // By value (the inline-tools beta): the definition is a tools entry; a removal names its tool.
    const bash = tools[0] as AnthropicWireTool;
    const byValue: BetaSystemMessageParam = toolChangeMessage([toolDefinition(bash)], ["mcp__github__create_issue"]);
    expect(byValue.content).toEqual([
      { type: "tool_addition", tool: { type: "tool_definition", definition: bash } },
      { type: "tool_removal", tool: toolReference("mcp__github__create_issue") },
    ]);
    expect([...scanTranscript([...sent, { role: "assistant", content: "ok" }]).discovered]).toContain("mcp__github__create_issue");
  });

  test("OpenAI: function tools and chat messages are OpenAI types", () => {
    const messages: ChatCompletionMessageParam[] = [
      { role: "system", content: "You are helpful." },
      { role: "user", content: "File a bug." },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "ToolSearch", arguments: '{"query":"github"}' } }] },
      { role: "tool", tool_call_id: "c1", content: "Found 1 tool(s).\n\n[toolpool discovered: mcp__github__create_issue]" },
    ];
    const result = assembleRequest({ settings: settings({ format: "openai", provider: "openai", model: "gpt-4o" }), tools: pool.tools, messages, metaTools });
    if (result.format !== "openai") throw new Error("expected the OpenAI format");
    const tools: ChatCompletionTool[] = result.tools;
    const body: ChatCompletionCreateParamsNonStreaming = { model: "gpt-4o", messages, tools };
    expect(body.tools?.map((tool) => (tool.type === "function" ? tool.function.name : ""))).toEqual([
      "Bash",
      "Read",
      "Write",
      "mcp__slack__list_channels",
      "ToolSearch",
      "ExecuteExtraTool",
    ]);
    expect(result.discovered).toEqual(["mcp__github__create_issue"]);
  });
});
