import type { InvertedIndex } from "./inverted-index.ts";
import { Tokenizer } from "./tokenizer.ts";

/**
 * Words that software names the same thing or action by, written from general software
 * vocabulary (not from any evaluation query): a request's "folder" is a tool's "directory".
 * Every word of a group stands in for every other one (query-terms.ts: only in the coverage share,
 * for a tool that lacks the request's own word). Single words only; a word may be in several
 * groups. Left out on the dev set's evidence: get / fetch / retrieve and check / verify /
 * validate (light verbs every reading or testing API uses: crediting them cost toolbench hit@1).
 */
export const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  // Things.
  ["folder", "directory"], ["directory", "dir"], ["repository", "repo"], ["picture", "image", "photo"], ["picture", "pic"],
  ["movie", "film"], ["song", "track"], ["email", "mail"], ["meeting", "event", "appointment"], ["ticket", "issue"],
  ["bug", "defect"], ["note", "memo"], ["task", "todo"], ["spreadsheet", "sheet", "workbook"], ["database", "db"],
  ["weather", "forecast"], ["price", "cost"], ["company", "business", "organization", "organisation", "org"],
  ["job", "vacancy"], ["car", "vehicle"], ["website", "site", "webpage"], ["url", "link"], ["tag", "label"],
  ["customer", "client"], ["chart", "graph", "plot"], ["document", "doc"], ["server", "host"], ["error", "exception"],
  ["notification", "alert"], ["invoice", "bill"], ["profile", "account"], ["city", "town"], ["country", "nation"],
  ["hotel", "lodging", "accommodation"], ["trip", "travel", "journey"], ["password", "passphrase"],
  ["configuration", "config"], ["message", "msg"], ["application", "app"], ["information", "info"],
  ["statistics", "stats"], ["description", "summary"], ["color", "colour"], ["username", "login"],
  ["phone", "telephone", "mobile"], ["audio", "sound"],
  // Actions.
  ["delete", "remove", "erase"], ["copy", "duplicate", "clone"], ["move", "relocate"], ["edit", "modify", "update", "change"],
  ["find", "search", "lookup"], ["locate", "find"], ["start", "launch", "begin"], ["stop", "halt", "terminate"],
  ["show", "display", "view"], ["schedule", "book", "reserve"], ["buy", "purchase"], ["cancel", "abort"],
  ["convert", "transform"], ["calculate", "compute"], ["summarize", "summarise"], ["combine", "merge"],
  ["split", "divide"], ["create", "make", "add"], ["send", "deliver"],
];

/** Words of SynonymTable's id filter: 2,048 bits. */
const FILTER_WORDS = 64;

/** Most stand-ins one term gets (the groups above give at most a handful). */
const MAX_SYNONYMS_PER_TERM = 8;

/**
 * The groups as term ids of one index: term id → ids of the terms that stand in for it. Resolved
 * again whenever the index's dictionary has grown (a new tool may bring a group's word in).
 */
export class SynonymTable {
  private byTerm = new Map<number, number[]>();
  /**
   * Bit `id & 2047` of every id in byTerm: a query's dozen terms are asked each time, and almost
   * none has a stand-in, so a bit answers most without a Map probe. Int32Array: bit 31 reads back
   * from a Uint32Array above int32.
   */
  private readonly filter = new Int32Array(FILTER_WORDS);
  private resolvedAt = -1;
  private stems: (readonly string[])[] | undefined;

  constructor(private readonly groups: readonly (readonly string[])[] = SYNONYM_GROUPS) {}

  /** Ids standing in for `id` in `index`, or undefined. */
  standInsOf(index: InvertedIndex, id: number): readonly number[] | undefined {
    if (this.resolvedAt !== index.terms.length) this.resolve(index);
    if ((this.filter[(id >>> 5) & (FILTER_WORDS - 1)]! & (1 << (id & 31))) === 0) return undefined;
    return this.byTerm.get(id);
  }

  private resolve(index: InvertedIndex): void {
    this.stems ??= stemGroups(this.groups);
    const byTerm = new Map<number, number[]>();
    for (const group of this.stems) {
      const ids: number[] = [];
      for (const stem of group) {
        const id = index.termId(stem);
        if (id !== undefined && !ids.includes(id)) ids.push(id);
      }
      for (const id of ids) {
        const list = byTerm.get(id) ?? [];
        for (const other of ids) if (other !== id && !list.includes(other) && list.length < MAX_SYNONYMS_PER_TERM) list.push(other);
        if (list.length > 0) byTerm.set(id, list);
      }
    }
    this.byTerm = byTerm;
    this.filter.fill(0);
    for (const id of byTerm.keys()) this.filter[(id >>> 5) & (FILTER_WORDS - 1)]! |= 1 << (id & 31);
    this.resolvedAt = index.terms.length;
  }
}

/** Each group's words as index terms (stemmed as the tokenizer does); words that are not one term are dropped. */
function stemGroups(groups: readonly (readonly string[])[]): (readonly string[])[] {
  const tokenizer = new Tokenizer();
  return groups.map((group) => group.map((word) => tokenizer.tokenize(word)).filter((terms) => terms.length === 1).map((terms) => terms[0]!));
}
