/**
 * A listed tool definition as the daemon keeps it. What it keeps is held in memory, written to the
 * catalog cache and compared with every re-listing, so it is kept at the size it is ever read at:
 *
 * - a description (or the title standing in for it) longer than MAX_DESCRIPTION_CHARS is kept as the
 *   model sees it (description-cap.ts: cutting it again changes nothing);
 * - a search hint is kept to what the index reads (MAX_HINT_CHARS);
 * - an output schema past MAX_SCHEMA_CHARS is left out (pool-tool.ts passes none on either);
 * - an input schema past MAX_SCHEMA_CHARS, or a definition still past MAX_KEPT_DEFINITION_CHARS
 *   (`_meta`, icons or other fields of megabytes), is refused with its reason;
 * - so is one nested deeper than MAX_DEFINITION_DEPTH: 6,000 levels of `properties` (210K characters)
 *   overflowed the stack of the catalog cache's hash, and 40,000 that of JSON.stringify, failing the
 *   whole server's listing (every tool of it) at every try until it was parked.
 *
 * Each per-tool limit held, yet 1,000 tools of 200 KB descriptions made a 200 MB catalog cache, the
 * daemon's RSS 770 MB, and a listing that held another client's ping 9.5 s.
 */
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { capDescription } from "./description-cap.ts";
import { MAX_DEFINITION_DEPTH, MAX_DESCRIPTION_CHARS, MAX_HINT_CHARS, MAX_KEPT_DEFINITION_CHARS, MAX_SCHEMA_CHARS } from "./limits.ts";

const HINT_KEY = "anthropic/searchHint";

/** The definition as kept with its JSON's length, or why it is refused. */
export function keptDefinition(tool: McpTool): { tool: McpTool; chars: number } | string {
  if (nestedDeeperThan(tool, MAX_DEFINITION_DEPTH)) return `its definition nests objects more than ${MAX_DEFINITION_DEPTH} levels deep`;
  const inputChars = JSON.stringify(tool.inputSchema).length;
  if (inputChars > MAX_SCHEMA_CHARS) return `its input schema is ${inputChars} characters, over the ${MAX_SCHEMA_CHARS}-character limit`;
  let kept: McpTool = tool;
  const cut = <K extends "description" | "title">(key: K) => {
    const text = kept[key];
    if (typeof text === "string" && text.length > MAX_DESCRIPTION_CHARS) kept = { ...kept, [key]: capDescription(text) };
  };
  cut("description");
  cut("title");
  const annotationTitle = kept.annotations?.title;
  if (typeof annotationTitle === "string" && annotationTitle.length > MAX_DESCRIPTION_CHARS) kept = { ...kept, annotations: { ...kept.annotations, title: capDescription(annotationTitle) } };
  const hint = kept._meta?.[HINT_KEY];
  if (typeof hint === "string" && hint.length > MAX_HINT_CHARS) kept = { ...kept, _meta: { ...kept._meta, [HINT_KEY]: hint.slice(0, MAX_HINT_CHARS) } };
  if (kept.outputSchema !== undefined && JSON.stringify(kept.outputSchema).length > MAX_SCHEMA_CHARS) {
    const { outputSchema: _dropped, ...rest } = kept;
    kept = rest;
  }
  const chars = JSON.stringify(kept).length;
  if (chars > MAX_KEPT_DEFINITION_CHARS) return `its definition is ${chars} characters, over the ${MAX_KEPT_DEFINITION_CHARS}-character limit`;
  return { tool: kept, chars };
}

/** Whether objects or arrays nest deeper than `limit` below `value` (walked without recursion: the depth is the attack). */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node as object)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
