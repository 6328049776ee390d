/**
 * Keeps the search index in step with the pool, incrementally: only tools that arrived, left or
 * changed (a new Tool object under the same name) touch the index, so a server's list_changed
 * costs its own tools, not the whole pool.
 */
import { searchDocumentFromTool } from "../search/tool-document.ts";
import { ToolSearchIndex } from "../search/tool-search-index.ts";
import type { SearchDocument } from "../search/types.ts";
import type { Tool } from "../tool/tool.ts";

export class SearchSync {
  readonly index = new ToolSearchIndex();
  readonly #indexed = new Map<string, Tool>();

  sync(tools: readonly Tool[]): { added: number; removed: number; replaced: number } {
    const current = new Map(tools.map((tool) => [tool.name, tool]));
    let removed = 0;
    let added = 0;
    let replaced = 0;
    for (const name of [...this.#indexed.keys()]) {
      if (current.has(name)) continue;
      this.index.remove(name);
      this.#indexed.delete(name);
      removed++;
    }
    for (const tool of tools) {
      const previous = this.#indexed.get(tool.name);
      if (previous === tool) continue;
      this.index.add(searchDocument(tool));
      this.#indexed.set(tool.name, tool);
      if (previous) replaced++;
      else added++;
    }
    return { added, removed, replaced };
  }
}

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
  return doc;
}
