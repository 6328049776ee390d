import MiniSearch from "minisearch";
import { STOP_WORDS } from "../../src/search/stop-words.ts";
import type { EvalTool } from "./eval-data.ts";

/**
 * The peer engine as ../shared/eval/README.md configures it: MiniSearch 7.2.0 with its BM25+
 * scoring, fields name + description, English stop words removed.
 */
export class MiniSearchEngine {
  private readonly search = new MiniSearch<{ id: string; name: string; description: string }>({
    idField: "id",
    fields: ["name", "description"],
    processTerm: (term) => {
      const lower = term.toLowerCase();
      return STOP_WORDS.has(lower) ? null : lower;
    },
  });

  constructor(tools: readonly EvalTool[]) {
    this.search.addAll(tools.map((tool) => ({ id: tool.name, name: tool.name, description: tool.description })));
  }

  query(text: string, limit: number): string[] {
    return this.search
      .search(text)
      .slice(0, limit)
      .map((result) => String(result.id));
  }
}
