/**
 * A small pool for deferral and assembly tests: core built-ins, deferred built-ins and MCP tools
 * from three servers (one tool marked alwaysLoad), plus transcript builders for both wire formats.
 */
import { z } from "zod";
import { buildMcpTool, buildTool } from "../../src/tool/build-tool.ts";
import { textResult } from "../../src/tool/result.ts";
import type { Tool } from "../../src/tool/tool.ts";
import { JsonSchemaCompiler } from "../../src/validate/ajv.ts";
import { mcpToolName } from "../../src/tool/names.ts";
import { assemblePool, type Pool } from "../../src/pool/assemble.ts";
import { parametersOf } from "../../src/search/tool-document.ts";
import type { SearchDocument } from "../../src/search/types.ts";
import { ToolSearchIndex } from "../../src/search/tool-search-index.ts";
import type { AssembleInput } from "../../src/assembly/assemble-request.ts";
import { createExecuteExtraTool } from "../../src/builtin/execute-extra-tool.ts";
import { createToolSearchTool } from "../../src/builtin/tool-search.ts";

const compiler = new JsonSchemaCompiler();

export function builtin(name: string, options: { shouldDefer?: boolean; alwaysLoad?: boolean; readOnly?: boolean; description?: string; aliases?: string[] } = {}): Tool {
  return buildTool({
    name,
    description: options.description ?? `${name} does ${name.toLowerCase()} things.`,
    inputSchema: z.strictObject({ target: z.string().describe("What to work on.") }),
    ...(options.aliases && { aliases: options.aliases }),
    ...(options.shouldDefer !== undefined && { shouldDefer: options.shouldDefer }),
    ...(options.alwaysLoad !== undefined && { alwaysLoad: options.alwaysLoad }),
    ...(options.readOnly && { isReadOnly: () => true, isConcurrencySafe: () => true }),
    async call({ target }) {
      return textResult(`${name} ran on ${target}`);
    },
  });
}

export interface McpOptions {
  description?: string;
  alwaysLoad?: boolean;
  readOnly?: boolean;
  schema?: Record<string, unknown>;
  /** The server's groups the tool is in, and their titles and descriptions (the grouping extension). */
  groups?: string[];
  groupInfo?: Record<string, { title?: string; description?: string }>;
}

export function mcp(server: string, tool: string, options: McpOptions = {}): Tool {
  return buildMcpTool(
    {
      name: mcpToolName(server, tool),
      description: options.description ?? `${tool.replace(/[_-]/g, " ")} on ${server}`,
      inputJSONSchema: options.schema ?? {
        type: "object",
        properties: { title: { type: "string", description: "Title of the thing." } },
        required: ["title"],
        $schema: "http://json-schema.org/draft-07/schema#",
      },
      mcpInfo: { server, tool, ...(options.groups && { groups: options.groups }), ...(options.groupInfo && { groupInfo: options.groupInfo }) },
      ...(options.alwaysLoad !== undefined && { alwaysLoad: options.alwaysLoad }),
      ...(options.readOnly && { isReadOnly: () => true, isConcurrencySafe: () => true }),
      async call(input) {
        return textResult(`${server}/${tool} got ${JSON.stringify(input)}`);
      },
    },
    compiler,
  );
}

export function samplePool(extra: { builtins?: Tool[]; mcpTools?: Tool[] } = {}): Pool {
  return assemblePool({
    builtins: [
      builtin("Bash"),
      builtin("Read", { readOnly: true, aliases: ["FileRead"] }),
      builtin("Write"),
      builtin("WebFetch", { shouldDefer: true, readOnly: true, description: "Fetch a web page and return its text." }),
      builtin("NotebookEdit", { shouldDefer: true, description: "Edit Jupyter notebook cells." }),
      ...(extra.builtins ?? []),
    ],
    mcpTools: [
      mcp("github", "create_issue", { description: "Create an issue in a GitHub repository." }),
      mcp("github", "get_issue", { description: "Read one GitHub issue with its comments.", readOnly: true }),
      mcp("slack", "post_message", { description: "Post a message to a Slack channel." }),
      mcp("slack", "list_channels", { description: "List Slack channels.", alwaysLoad: true, readOnly: true }),
      mcp("jira", "create-ticket", { description: "Open a Jira ticket." }),
      ...(extra.mcpTools ?? []),
    ],
  });
}

export function searchDocument(tool: Tool): SearchDocument {
  const doc: SearchDocument = {
    name: tool.name,
    aliases: tool.aliases,
    description: tool.description,
    parameters: parametersOf(tool.inputJSONSchema),
  };
  if (tool.searchHint !== undefined) doc.searchHint = tool.searchHint;
  if (tool.mcpInfo) {
    doc.server = tool.mcpInfo.server;
    doc.rawToolName = tool.mcpInfo.tool;
  }
  return doc;
}

/** The meta-tools assembleRequest asks for, searching `engine` (the pool's own index by default). */
export function metaToolsOf(pool: Pool, engine: ToolSearchIndex = indexOf(pool)): AssembleInput["metaTools"] {
  return (delivery) => ({
    toolSearch: createToolSearchTool({ engine, lookup: pool.get, delivery }),
    executeExtraTool: createExecuteExtraTool({ lookup: pool.get }),
  });
}

export function indexOf(pool: Pool): ToolSearchIndex {
  const index = new ToolSearchIndex();
  for (const tool of pool.tools) index.add(searchDocument(tool));
  return index;
}

// ---- transcripts -------------------------------------------------------------------------------

export type AnthropicMessage = { role: "user" | "assistant"; content: string | Record<string, unknown>[] };
export type OpenAIMessage = Record<string, unknown> & { role: string };

let counter = 0;
const nextId = () => `call_${++counter}`;

/** An assistant tool call and the user's tool result, Anthropic format. */
export function anthropicCall(name: string, input: Record<string, unknown>, content: string | Record<string, unknown>[]): AnthropicMessage[] {
  const id = nextId();
  return [
    { role: "assistant", content: [{ type: "tool_use", id, name, input }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: id, content }] },
  ];
}

/** An assistant tool call and the tool message, OpenAI chat format. */
export function openaiCall(name: string, input: Record<string, unknown>, content: string): OpenAIMessage[] {
  const id = nextId();
  return [
    { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name, arguments: JSON.stringify(input) } }] },
    { role: "tool", tool_call_id: id, content },
  ];
}

export function names(tools: readonly { name: string }[]): string[] {
  return tools.map((tool) => tool.name);
}
