/** A block of a tool result as it goes on the wire (MCP content, plus Anthropic's tool_reference for native delivery). */
export type ContentBlock =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "tool_reference"; tool_name: string };
