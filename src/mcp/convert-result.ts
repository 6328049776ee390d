/**
 * A server's CallToolResult made into the project's ToolResult, and bounded. Text and images pass;
 * audio, resources and links become text the model can read (our result shape has no blocks for
 * them). Text is capped by the call pipeline; images past MAX_RESULT_IMAGE_CHARS and oversized
 * structuredContent are cut with a note saying so — the server is never blamed for a big answer.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { capResult, type ContentBlock, type ToolResult } from "../tool/result.ts";
import { MAX_RESULT_IMAGE_CHARS, MAX_STRUCTURED_CONTENT_CHARS } from "./limits.ts";

export interface ResultLimits {
  textChars?: number;
  imageChars?: number;
  structuredChars?: number;
}

export function convertResult(result: CallToolResult, limits: ResultLimits = {}): ToolResult {
  const imageBudget = limits.imageChars ?? MAX_RESULT_IMAGE_CHARS;
  let imageChars = 0;
  const content: ContentBlock[] = [];
  // Notes about what was left out go after the cut, so the cut never hides them.
  const notes: string[] = [];
  for (const block of result.content ?? []) {
    switch (block.type) {
      case "text":
        content.push({ type: "text", text: block.text });
        break;
      case "image":
        if (imageChars + block.data.length > imageBudget) {
          notes.push(`[toolpool: an image (${block.mimeType}, ${block.data.length} base64 characters) was left out: images in one result may total ${imageBudget} characters]`);
        } else {
          imageChars += block.data.length;
          content.push({ type: "image", data: block.data, mimeType: block.mimeType });
        }
        break;
      case "audio":
        content.push({ type: "text", text: `[audio: ${block.mimeType}, ${block.data.length} base64 characters, not shown]` });
        break;
      case "resource_link":
        content.push({ type: "text", text: `[resource: ${block.uri}${block.name ? ` (${block.name})` : ""}${block.description ? ` — ${block.description}` : ""}]` });
        break;
      case "resource": {
        const resource = block.resource;
        if ("text" in resource && typeof resource.text === "string") content.push({ type: "text", text: resource.text });
        else content.push({ type: "text", text: `[resource: ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ""}, binary, not shown]` });
        break;
      }
    }
  }
  const converted: ToolResult = { content, isError: result.isError === true };
  const structured = result.structuredContent;
  if (structured !== undefined) {
    const structuredBudget = limits.structuredChars ?? MAX_STRUCTURED_CONTENT_CHARS;
    const size = JSON.stringify(structured).length;
    if (size <= structuredBudget) converted.structuredContent = structured;
    else notes.push(`[toolpool: structuredContent (${size} characters) was left out, over the ${structuredBudget}-character limit]`);
    // A result with only structured content still needs something the model can read.
    if (content.length === 0 && size <= structuredBudget) converted.content.push({ type: "text", text: JSON.stringify(structured) });
  }
  // Text is capped once, by the pipeline (the tool's maxResultSizeChars); `textChars` is for callers outside it.
  const capped = limits.textChars === undefined ? converted : capResult(converted, limits.textChars);
  if (notes.length === 0) return capped;
  return { ...capped, content: [...capped.content, ...notes.map((text): ContentBlock => ({ type: "text", text }))] };
}
