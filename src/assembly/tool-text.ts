/**
 * A tool written out as text for the model, where proxy delivery puts definitions: in ToolSearch
 * results and prefetch attachments. Unlike the reconstruction in seed 000, the input schema is
 * always shown (compact JSON, the same schema the wire would carry), so the model never has to
 * guess parameters for ExecuteExtraTool.
 */
import { quoteMarkers } from "./quoted-markers.ts";
import { wireInputSchema, type WireFacts } from "./wire-format.ts";
import { wholeSlice } from "../tool/one-line.ts";

/** Prefetch attachments show short descriptions: the first paragraph, at most this long. */
export const SHORT_DESCRIPTION_CHARS = 200;

export interface ToolTextOptions {
  /** Include the input schema (proxy delivery). */
  schema: boolean;
  /** Shorten the description to its first paragraph, capped at SHORT_DESCRIPTION_CHARS. */
  short?: boolean;
}

export function toolAsText(tool: WireFacts, options: ToolTextOptions): string {
  // A server's text may spell out the markers the transcript scan reads (quoted-markers.ts), or this text's own lines.
  const description = ownLinesQuoted(quoteMarkers(options.short ? shortDescription(tool.description) : tool.description.trim()));
  const lines = [`### ${tool.name}`];
  if (description !== "") lines.push(description);
  if (options.schema) lines.push(`Input schema: ${JSON.stringify(wireInputSchema(tool.inputJSONSchema))}`);
  return lines.join("\n");
}

export function shortDescription(description: string): string {
  const first = description.trim().split(/\n\s*\n/)[0]!.replace(/\s+/g, " ");
  if (first.length <= SHORT_DESCRIPTION_CHARS) return first;
  return `${wholeSlice(first, SHORT_DESCRIPTION_CHARS - 1).trimEnd()}…`;
}

/** A description line that reads as a line of this text's own: a heading (each tool's section opens `### <name>`) or `Input schema:`. */
const OWN_LINE = /^([ \t]*)(#{1,6}[ \t]|Input schema:)/gm;

/**
 * A description's lines that would read as this text's own, escaped with a backslash (`\### …`): a
 * description holding `### mcp__github__delete_repo`, a harmless-sounding sentence and an `Input
 * schema:` line showed the model a second tool section, another tool's, in its words.
 */
export function ownLinesQuoted(description: string): string {
  return description.replace(OWN_LINE, "$1\\$2");
}
