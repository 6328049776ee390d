import { splitWhiteSpace } from "./char-class.ts";

/** Longer queries are cut here; prefetch sends at most 500 characters and real searches are short. */
export const MAX_QUERY_CHARS = 4096;
/** At most this many names are resolved by one `select:`. */
export const MAX_SELECT_NAMES = 100;

export type ParsedQuery =
  | { kind: "select"; names: string[] }
  | {
      kind: "discover" | "keyword";
      /** The trimmed query with the `discover:` prefix removed. */
      whole: string;
      /** Free text to rank by, without `+required` and `mcp__server` words. */
      text: string;
      /** Words that must match (without their `+`). */
      required: string[];
      /** Server names from `mcp__server` / `mcp__server__` / `mcp__server__tool` words. */
      servers: string[];
      /** `page:N` (1-based): which page of a server listing to show; listings only. */
      page?: number;
    };

/** `+word` is a required term only when a letter follows the plus: "+4915…" is a phone number. */
const REQUIRED = /^\+\p{L}/u;
/** `page:N` pages a server listing; larger numbers are refused as words (no server has that many pages). */
const PAGE = /^page:([1-9]\d{0,3})$/i;

/**
 * Splits a ToolSearch query into its form: `select:A,B`, `discover:words`, or keywords with
 * `+required` terms and `mcp__server` narrowing.
 */
export function parseQuery(query: string): ParsedQuery {
  return parseQueryWords(query).parsed;
}

/** What a query word that is syntax says: a page of a listing, a required word, or a server (and tool). */
export type WordSyntax = { page: number } | { required: string } | { server: string; tool: string };

/** The query's form: `select:` names, or a keyword query's trimmed text (`whole`) to read word by word. */
export function queryForm(query: string): { kind: "select"; names: string[] } | { kind: "discover" | "keyword"; whole: string } {
  const trimmed = query.slice(0, MAX_QUERY_CHARS).trim();
  if (startsWithPrefix(trimmed, "select:")) {
    const names = [...new Set(trimmed.slice(7).split(",").map((name) => name.trim()))]
      .filter((name) => name.length > 0)
      .slice(0, MAX_SELECT_NAMES);
    return { kind: "select", names };
  }
  const discover = startsWithPrefix(trimmed, "discover:");
  return { kind: discover ? "discover" : "keyword", whole: discover ? trimmed.slice(9).trim() : trimmed };
}

/**
 * Whether `text` starts with `prefix` (lowercase ASCII letters, then `:`), letters in any case:
 * what `/^prefix/i` answers (outside Unicode mode no other character folds to an ASCII letter),
 * without running an expression on every new query.
 */
function startsWithPrefix(text: string, prefix: string): boolean {
  if (text.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) {
    const code = text.charCodeAt(i);
    const want = prefix.charCodeAt(i);
    if (code !== want && !(want >= 0x61 && want <= 0x7a && code === want - 0x20)) return false;
  }
  return true;
}

/** `page:N`, `+word` or `mcp__server[__tool]`; undefined for a free-text word. */
export function wordSyntax(word: string): WordSyntax | undefined {
  const paged = word.length <= 9 && word.charCodeAt(4) === 0x3a && (word.charCodeAt(0) | 0x20) === 0x70 ? PAGE.exec(word) : null;
  if (paged !== null) return { page: Number(paged[1]) };
  if (word.charCodeAt(0) === 0x2b && REQUIRED.test(word)) return { required: word.slice(1) };
  return splitMcpWord(word);
}

/** parseQuery, with the free-text words `text` joins (a query's other readers split them once, here). */
export function parseQueryWords(query: string): { parsed: ParsedQuery; words: string[] } {
  const form = queryForm(query);
  if (form.kind === "select") return { parsed: form, words: [] };
  const whole = form.whole;
  const required: string[] = [];
  const servers: string[] = [];
  let page: number | undefined;
  const split = splitWhiteSpace(whole);
  // Kept whole: the free text is the query itself, with no new string joined.
  let unchanged = split.single;
  // The split's own array while every word so far is free text (the common query: no copy made).
  let words: string[] | undefined;
  const all = split.words;
  for (let i = 0; i < all.length; i++) {
    const word = all[i]!;
    const syntax = wordSyntax(word);
    if (syntax === undefined) {
      words?.push(word);
      continue;
    }
    words ??= all.slice(0, i);
    unchanged = false;
    if ("page" in syntax) page = syntax.page;
    else if ("required" in syntax) required.push(syntax.required);
    else {
      servers.push(syntax.server);
      if (syntax.tool) words.push(syntax.tool);
    }
  }
  words ??= all;
  const parsed: ParsedQuery = { kind: form.kind, whole, text: unchanged ? whole : words.join(" "), required, servers };
  if (page !== undefined) parsed.page = page;
  return { parsed, words };
}

function splitMcpWord(word: string): { server: string; tool: string } | undefined {
  if (word.length < 5 || word.charCodeAt(3) !== 0x5f || word.charCodeAt(4) !== 0x5f) return undefined;
  if ((word.charCodeAt(0) | 0x20) !== 0x6d || (word.charCodeAt(1) | 0x20) !== 0x63 || (word.charCodeAt(2) | 0x20) !== 0x70) return undefined;
  const rest = word.slice(5);
  const separator = rest.indexOf("__");
  const server = separator < 0 ? rest : rest.slice(0, separator);
  if (server.length === 0) return undefined;
  return { server, tool: separator < 0 ? "" : rest.slice(separator + 2) };
}

/**
 * A single word that looks like a tool name (tool names are ASCII identifiers): worth a
 * "did you mean" when nothing has that name.
 */
export function isNameLike(text: string): boolean {
  return text.length >= 3 && text.length <= 256 && /^[A-Za-z0-9_.:\-]+$/.test(text);
}
