/**
 * A pool tool as the search index reads it, and whether two tools read the same. An MCP server's
 * `tools/list_changed` makes a new Tool object for every tool it lists (mcp-pool.ts builds the
 * server's list afresh), so object identity says "changed" for the 4,997 tools a server kept as
 * well as for the 3 it added: compared by what the index reads, only the 3 are indexed again.
 */
import { searchDocumentFromTool } from "../search/tool-document.ts";
import type { SearchDocument } from "../search/types.ts";
import type { McpInfo, Tool } from "../tool/tool.ts";

/** Deeper schemas than this are never called equal (they are indexed again: correct, only slower). */
const MAX_COMPARE_DEPTH = 64;

export function searchDocument(tool: Tool): SearchDocument {
  // The catalog shape the search engine already knows, plus what only pool tools carry.
  const doc = searchDocumentFromTool({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputJSONSchema,
    ...(tool.mcpInfo && { server: tool.mcpInfo.server, rawToolName: tool.mcpInfo.tool }),
  });
  if (tool.aliases.length > 0) doc.aliases = tool.aliases;
  if (tool.searchHint) doc.searchHint = tool.searchHint;
  if (tool.mcpInfo?.groups !== undefined && tool.mcpInfo.groups.length > 0) {
    doc.groups = tool.mcpInfo.groups;
    // Low-weight evidence: a pool tool has no server self-description here (a catalog's is in that
    // field), so its groups' words stand in it — what the server says this set of its tools is for.
    doc.serverDescription = groupEvidence(tool.mcpInfo);
  }
  return doc;
}

/** Group words read per tool: names, titles and description openings, at most this much. */
const MAX_GROUP_EVIDENCE_CHARS = 600;

function groupEvidence(info: McpInfo): string {
  const parts = (info.groups ?? []).map((group) => {
    const text = info.groupInfo !== undefined && Object.hasOwn(info.groupInfo, group) ? info.groupInfo[group] : undefined;
    return [group, text?.title, text?.description?.slice(0, 200)].filter((part) => part !== undefined).join(" ");
  });
  return parts.join(". ").slice(0, MAX_GROUP_EVIDENCE_CHARS);
}

/** Whether `searchDocument` of the two would be the same: every field it reads is equal. */
export function sameSearchInputs(a: Tool, b: Tool): boolean {
  if (a === b) return true;
  return (
    a.name === b.name &&
    a.description === b.description &&
    a.searchHint === b.searchHint &&
    a.mcpInfo?.server === b.mcpInfo?.server &&
    a.mcpInfo?.tool === b.mcpInfo?.tool &&
    sameStrings(a.aliases, b.aliases) &&
    sameStrings(a.mcpInfo?.groups ?? [], b.mcpInfo?.groups ?? []) &&
    sameGroupText(a.mcpInfo, b.mcpInfo) &&
    sameJson(a.inputJSONSchema, b.inputJSONSchema, 0)
  );
}

/** With the same groups (checked first), whether the group words `groupEvidence` reads agree. */
function sameGroupText(a: McpInfo | undefined, b: McpInfo | undefined): boolean {
  if (a === undefined || b === undefined || a.groupInfo === b.groupInfo) return true;
  if ((a.groups ?? []).length === 0) return true;
  return groupEvidence(a) === groupEvidence(b);
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Structural equality of JSON values, key order included (the index reads parameters in order). */
function sameJson(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (depth >= MAX_COMPARE_DEPTH) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  const others = Object.keys(right);
  if (keys.length !== others.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key !== others[i] || !sameJson(left[key], right[key], depth + 1)) return false;
  }
  return true;
}
