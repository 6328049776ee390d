/**
 * A tool written out as text for the model, where proxy delivery puts definitions: in ToolSearch
 * results and prefetch attachments. Unlike the reconstruction in seed 000, the input schema is
 * always shown (compact JSON, the same schema the wire would carry), so the model never has to
 * guess parameters for ExecuteExtraTool.
 */
import { quoteMarkers } from "./quoted-markers.ts";
import { wireInputSchema, type WireFacts } from "./wire-format.ts";

/** Prefetch attachments show short descriptions: the first paragraph, at most this long. */
export const SHORT_DESCRIPTION_CHARS = 200;

export interface ToolTextOptions {
  /** Include the input schema (proxy delivery). */
  schema: boolean;
  /** Shorten the description to its first paragraph, capped at SHORT_DESCRIPTION_CHARS. */
  short?: boolean;
}

export function toolAsText(tool: WireFacts, options: ToolTextOptions): string {
  // A server's text may spell out the markers the transcript scan reads (quoted-markers.ts).
  const description = quoteMarkers(options.short ? shortDescription(tool.description) : tool.description.trim());
  const lines = [`### ${tool.name}`];
  if (description !== "") lines.push(description);
  if (options.schema) lines.push(`Input schema: ${JSON.stringify(wireInputSchema(tool.inputJSONSchema))}`);
  return lines.join("\n");
}

export function shortDescription(description: string): string {
  const first = description.trim().split(/\n\s*\n/)[0]!.replace(/\s+/g, " ");
  if (first.length <= SHORT_DESCRIPTION_CHARS) return first;
  return `${first.slice(0, SHORT_DESCRIPTION_CHARS - 1).trimEnd()}…`;
}
