/** A tool result in the shape each provider's transcript takes it. */
import type { ToolResult } from "../tool/result.ts";
import type { Format } from "../session/session.ts";

export function providerToolResult(result: ToolResult, format: Format, toolUseId: string): Record<string, unknown> {
  if (format === "openai") {
    const text = result.content
      .map((block) => (block.type === "text" ? block.text : block.type === "image" ? `[image: ${block.mimeType}]` : ""))
      .join("");
    return { role: "tool", tool_call_id: toolUseId, content: text };
  }
  const content = result.content.map((block) =>
    block.type === "image"
      ? { type: "image", source: { type: "base64", media_type: block.mimeType, data: block.data } }
      : block,
  );
  return { type: "tool_result", tool_use_id: toolUseId, content, ...(result.isError && { is_error: true }) };
}
