/**
 * Keeps the search index in step with the pool, incrementally: only tools that arrived, left or
 * changed (a new Tool object under the same name) touch the index, so a server's list_changed
 * costs its own tools, not the whole pool.
 *
 * The index catches up when it is first read, not when the pool changes: `sync` records the
 * changes and the next search applies them, in order, exactly as they came. Indexing is the
 * largest part of a daemon's start-up (it makes the tokenizer hot enough to be compiled twice), and
 * a daemon that has not been searched yet does not need it.
 *
 * The index never forgets a word it once learned (its term table only grows), so a pool whose tools
 * keep changing their words — a server that re-lists with new descriptions on every list_changed —
 * would grow it without bound. Once more tools have been indexed since the last build than
 * REBUILD_FACTOR times the pool (plus REBUILD_SLACK), the index is built afresh from the pool: the
 * cost is amortized over those additions, and memory stays proportional to what the pool holds.
 */
import type { QueryOptions, QueryResult } from "../search/types.ts";
import { searchDocumentFromTool } from "../search/tool-document.ts";
import { ToolSearchIndex } from "../search/tool-search-index.ts";
import type { SearchDocument } from "../search/types.ts";
import type { McpInfo, Tool } from "../tool/tool.ts";

type Change = { remove: string } | { add: Tool };

const REBUILD_FACTOR = 4;
const REBUILD_SLACK = 10_000;

export class SearchSync {
  #index = new ToolSearchIndex();
  /** Tools indexed since the index was last built from nothing. */
  #addedSinceBuild = 0;
  /** The tools as of the last sync (what the index holds once the changes are applied). */
  readonly #synced = new Map<string, Tool>();
  /** Changes not yet applied to the index, oldest first. */
  #pending: Change[] = [];

  /** The index, brought up to date first. */
  get index(): ToolSearchIndex {
    if (this.#pending.length > 0) this.#apply();
    return this.#index;
  }

  /** Searches the up-to-date index (so a holder of this object never holds a stale index). */
  query(text: string, options?: QueryOptions): QueryResult {
    return this.index.query(text, options);
  }

  sync(tools: readonly Tool[]): { added: number; removed: number; replaced: number } {
    const current = new Map(tools.map((tool) => [tool.name, tool]));
    let removed = 0;
    let added = 0;
    let replaced = 0;
    for (const name of [...this.#synced.keys()]) {
      if (current.has(name)) continue;
      this.#pending.push({ remove: name });
      this.#synced.delete(name);
      removed++;
    }
    for (const tool of tools) {
      const previous = this.#synced.get(tool.name);
      if (previous === tool) continue;
      this.#pending.push({ add: tool });
      this.#synced.set(tool.name, tool);
      if (previous) replaced++;
      else added++;
    }
    // A daemon that is never searched keeps at most about two pools' worth of changes waiting.
    if (this.#pending.length > 2 * this.#synced.size + 64) this.#apply();
    return { added, removed, replaced };
  }

  #apply(): void {
    const changes = this.#pending;
    this.#pending = [];
    const added = changes.reduce((count, change) => count + ("add" in change ? 1 : 0), 0);
    if (this.#addedSinceBuild + added > REBUILD_FACTOR * this.#synced.size + REBUILD_SLACK) {
      this.#rebuild();
      return;
    }
    for (const change of changes) {
      if ("remove" in change) this.#index.remove(change.remove);
      else this.#index.add(searchDocument(change.add));
    }
    this.#addedSinceBuild += added;
  }

  /** A fresh index of the pool as synced: the words no tool uses any more are dropped with the old one. */
  #rebuild(): void {
    this.#index = new ToolSearchIndex();
    for (const tool of this.#synced.values()) this.#index.add(searchDocument(tool));
    this.#addedSinceBuild = this.#synced.size;
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
