/**
 * A tool as MCP hosts see it (`tools/list`): name, description, input schema and the annotations a
 * host may act on. The hints come from `tool.hints`, which holds only what is true for every input,
 * so a host that auto-approves read-only or non-destructive tools is never misled by a tool whose
 * nature depends on its input (Bash, ExecuteExtraTool): those carry no such hint. A pooled server's
 * own `title`, `icons`, `outputSchema` and input-schema dialect (`$schema`) pass through unchanged.
 */
import type { JsonSchema, McpIcon, Tool, ToolHints } from "./tool.ts";

export interface McpToolView {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonSchema & { type: "object" };
  outputSchema?: JsonSchema & { type: "object" };
  icons?: McpIcon[];
  annotations?: ToolHints;
}

export function mcpToolView(tool: Tool): McpToolView {
  const hints = tool.hints;
  const shown = tool.mcpInfo?.presentation ?? {};
  return {
    name: tool.name,
    ...(shown.title !== undefined && { title: shown.title }),
    description: tool.description,
    inputSchema: { ...(shown.schemaDialect !== undefined && { $schema: shown.schemaDialect }), ...tool.inputJSONSchema, type: "object" },
    // MCP's outputSchema is an object schema; one that is not is not a promise a host can check.
    ...(tool.outputSchema?.type === "object" && { outputSchema: tool.outputSchema as JsonSchema & { type: "object" } }),
    ...(shown.icons !== undefined && { icons: shown.icons.map((icon) => ({ ...icon, ...(icon.sizes && { sizes: [...icon.sizes] }) })) }),
    ...(Object.keys(hints).length > 0 && { annotations: { ...hints } }),
  };
}
