import MiniSearch from "minisearch";
import { STOP_WORDS } from "../../src/search/stop-words.ts";
import type { EvalTool } from "./eval-data.ts";

export interface MiniSearchDocument {
  id: string;
  name: string;
  description: string;
}

/**
 * The peer engine as ../shared/eval/README.md configures it: MiniSearch 7.2.0 with its BM25+
 * scoring, fields name + description, English stop words removed.
 */
export class MiniSearchEngine {
  private readonly search = new MiniSearch<MiniSearchDocument>({
    idField: "id",
    fields: ["name", "description"],
    processTerm: (term) => {
      const lower = term.toLowerCase();
      return STOP_WORDS.has(lower) ? null : lower;
    },
  });

  /** The documents MiniSearch indexes, made outside the measured build. */
  static documentsOf(tools: readonly EvalTool[]): MiniSearchDocument[] {
    return tools.map((tool) => ({ id: tool.name, name: tool.name, description: tool.description }));
  }

  constructor(documents: readonly MiniSearchDocument[]) {
    this.search.addAll(documents);
  }

  query(text: string, limit: number): string[] {
    return this.search
      .search(text)
      .slice(0, limit)
      .map((result) => String(result.id));
  }
}
