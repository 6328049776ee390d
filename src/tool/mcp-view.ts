/**
 * A tool as MCP hosts see it (`tools/list`): name, description, input schema and the annotations a
 * host may act on. The hints come from `tool.hints`, which holds only what is true for every input,
 * so a host that auto-approves read-only or non-destructive tools is never misled by a tool whose
 * nature depends on its input (Bash, ExecuteExtraTool): those carry no such hint.
 */
import type { JsonSchema, Tool, ToolHints } from "./tool.ts";

export interface McpToolView {
  name: string;
  description: string;
  inputSchema: JsonSchema & { type: "object" };
  annotations?: ToolHints;
}

export function mcpToolView(tool: Tool): McpToolView {
  const hints = tool.hints;
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: { ...tool.inputJSONSchema, type: "object" },
    ...(Object.keys(hints).length > 0 && { annotations: { ...hints } }),
  };
}
