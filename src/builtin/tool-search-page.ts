/**
 * `page:N` words a query cannot use. The engine reads `page:1` … `page:9999` (digits, no leading
 * zero) as the page of a server listing and any other `page:…` word as free text, so
 * `mcp__github page:0` (or `page:-1`, `page:10000`, `page:two`, `page:０`) was answered as a keyword
 * search of the server for the words "page" and "0" — five tools in full, wiki-page tools first, and
 * no word that the page asked for does not exist. Two page words silently meant the last. Such a
 * query is refused instead, saying which pages there are; nothing is searched or counted.
 */
import { splitWhiteSpace } from "../search/char-class.ts";
import { queryForm, wordSyntax } from "../search/query-parser.ts";

/** The highest page the query language reads (query-parser.ts: at most four digits). */
export const MAX_LISTING_PAGE = 9_999;
/** A word longer than this is shown cut in the refusal. */
const SHOWN_WORD_CHARS = 40;

/** Why the query's `page:` words cannot be read, or undefined when they can (or it has none; a `select:` has none). */
export function pageWordProblem(query: string): string | undefined {
  const form = queryForm(query);
  if (form.kind === "select") return undefined;
  const pages = splitWhiteSpace(form.whole).words.filter((word) => word.length >= 5 && word.slice(0, 5).toLowerCase() === "page:");
  if (pages.length === 0) return undefined;
  const bad = pages.find((word) => {
    const syntax = wordSyntax(word);
    return syntax === undefined || !("page" in syntax);
  });
  const example = `(e.g. "mcp__<server> page:2"; the first page is "mcp__<server>" alone)`;
  if (bad !== undefined) {
    const shown = JSON.stringify(bad.length > SHOWN_WORD_CHARS ? `${bad.slice(0, SHOWN_WORD_CHARS)}…` : bad);
    return `${shown} is not a page: a server listing's pages are page:1 to page:${MAX_LISTING_PAGE}, in plain digits ${example}. Nothing was searched.`;
  }
  if (pages.length > 1) return `The query names ${pages.length} pages (${pages.slice(0, 3).join(", ")}${pages.length > 3 ? ", …" : ""}); name one ${example}. Nothing was searched.`;
  return undefined;
}
