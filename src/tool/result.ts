/** Tool results: what a call returns to the model, in MCP's content-block shape. */

import type { ContentBlock } from "../protocol/content.ts";

export type { ContentBlock };

export interface ToolResult {
  content: ContentBlock[];
  isError: boolean;
  structuredContent?: Record<string, unknown>;
}

export function textResult(text: string, structuredContent?: Record<string, unknown>): ToolResult {
  const result: ToolResult = { content: [{ type: "text", text }], isError: false };
  if (structuredContent) result.structuredContent = structuredContent;
  return result;
}

export function errorResult(message: string): ToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/**
 * Caps the text of a result at `maxChars` in total. Images and references pass untouched; the
 * model is told, in the result itself, how much it did not see, so it can narrow its request.
 */
export function capResult(result: ToolResult, maxChars: number): ToolResult {
  const total = result.content.reduce(
    (sum, block) => sum + (block.type === "text" ? block.text.length : 0),
    0,
  );
  if (total <= maxChars) return result;
  let budget = maxChars;
  const content: ContentBlock[] = [];
  for (const block of result.content) {
    if (block.type !== "text") {
      content.push(block);
      continue;
    }
    if (budget <= 0) continue;
    content.push({ type: "text", text: block.text.slice(0, budget) });
    budget -= Math.min(budget, block.text.length);
  }
  content.push({
    type: "text",
    text: `\n[toolpool: output truncated — showing ${maxChars.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} characters. Ask for a narrower range or a filtered result to see the rest.]`,
  });
  return { ...result, content };
}

/** Joins the text blocks of a result; convenient for tests and human output. */
export function resultText(result: ToolResult): string {
  return result.content
    .map((block) => (block.type === "text" ? block.text : ""))
    .join("");
}
