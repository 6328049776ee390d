/**
 * `tools/list` across pages, bounded: at most MAX_LIST_PAGES pages, MAX_TOOLS_PER_SERVER tools and
 * MAX_SERVER_DEFINITION_CHARS of their definitions,
 * and a cursor the server already gave is never followed twice (a server that loops would
 * otherwise be listed forever). What was read before a limit hit is kept, with a warning. Each tool
 * is kept at the size it is read at (definition-bounds.ts), page by page.
 */
import { ToolSchema, type Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { keptDefinition } from "./definition-bounds.ts";
import { MAX_LIST_PAGES, MAX_SERVER_DEFINITION_CHARS, MAX_TOOLS_PER_SERVER } from "./limits.ts";

/**
 * A page is checked loosely, each tool on its own: one tool with a broken schema must cost that
 * tool, not the server's whole catalog (the SDK's ListToolsResultSchema fails the page).
 */
export const looseToolPageSchema = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});

export interface ToolPage {
  tools: unknown[];
  nextCursor?: string | undefined;
}

export interface Listing {
  tools: McpTool[];
  /** Why the listing stopped early, if it did. */
  warnings: string[];
  /** A 2026-07-28 server's caching hints for this listing (its first page's). */
  ttlMs?: number;
  cacheScope?: "public" | "private";
  /** The same server's `groups/list` freshness hint (grouping extension, server-groups.ts). */
  groupsTtlMs?: number;
}

export interface ListLimits {
  maxPages?: number;
  maxTools?: number;
  maxDefinitionChars?: number;
}

/** Malformed tools named one by one in a listing's warnings; the rest are counted in one line. */
const MAX_SKIP_WARNINGS = 10;

export async function listAllTools(fetchPage: (cursor: string | undefined) => Promise<ToolPage>, limits: ListLimits = {}): Promise<Listing> {
  const maxPages = limits.maxPages ?? MAX_LIST_PAGES;
  const maxTools = limits.maxTools ?? MAX_TOOLS_PER_SERVER;
  const maxChars = limits.maxDefinitionChars ?? MAX_SERVER_DEFINITION_CHARS;
  let chars = 0;
  let full = false;
  const tools: McpTool[] = [];
  const warnings: string[] = [];
  // Malformed tools are named up to MAX_SKIP_WARNINGS, then counted: a page of 200k bad entries
  // logged 200k lines (41 MB) on every listing.
  let skipped = 0;
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; ; page++) {
    if (page === maxPages) {
      warnings.push(`stopped listing after ${maxPages} pages (the page limit)`);
      break;
    }
    const result = await fetchPage(cursor);
    for (const raw of result.tools) {
      // Past the limit nothing more is kept: the rest of the page is not parsed either.
      if (tools.length > maxTools) break;
      const parsed = ToolSchema.safeParse(raw);
      const kept = parsed.success ? keptDefinition(parsed.data) : `${parsed.error.issues[0]?.message ?? "invalid definition"} at ${parsed.error.issues[0]?.path.join(".") || "top level"}`;
      if (typeof kept === "object") {
        if (chars + kept.chars > maxChars) {
          full = true;
          break;
        }
        chars += kept.chars;
        tools.push(kept.tool);
      } else if (++skipped <= MAX_SKIP_WARNINGS) warnings.push(`skipped tool ${describeRaw(raw)}: ${kept}`);
    }
    if (full) {
      warnings.push(`kept the first ${tools.length} tools: their definitions reached the ${maxChars / (1024 * 1024)} MiB per-server limit`);
      break;
    }
    if (tools.length > maxTools) {
      warnings.push(`kept the first ${maxTools} of ${tools.length}+ tools (the per-server limit)`);
      tools.length = maxTools;
      break;
    }
    if (result.nextCursor === undefined) break;
    if (seenCursors.has(result.nextCursor)) {
      warnings.push(`stopped listing: the server repeated cursor ${JSON.stringify(result.nextCursor.slice(0, 100))}`);
      break;
    }
    seenCursors.add(result.nextCursor);
    cursor = result.nextCursor;
  }
  if (skipped > MAX_SKIP_WARNINGS) warnings.push(`skipped ${skipped - MAX_SKIP_WARNINGS} more malformed tool(s)`);
  return { tools, warnings };
}

function describeRaw(raw: unknown): string {
  const name = typeof raw === "object" && raw !== null ? (raw as { name?: unknown }).name : undefined;
  return typeof name === "string" ? JSON.stringify(name.slice(0, 100)) : "(no name)";
}
