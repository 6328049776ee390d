/**
 * Compact ToolSearch answers (runtime flag `search_compact_answers`): a keyword search answers with
 * one line per match (name, parameters, short description — `assembly/tool-signature.ts`) and the
 * full definition only of a match that is clearly first. `select:` always delivers in full, so every
 * tool named on a line is one `select:` away:
 *
 * - native: the clear first comes back as a `tool_reference` (loaded); the lines load nothing.
 * - proxy: the clear first comes back with its input schema and on the discovered line; a tool named
 *   only on a line is not discovered, so an ExecuteExtraTool call with wrong params is answered with
 *   its schema (a blind call), and `select:<name>` shows the schema first.
 *
 * Most searches' answers were up to five full schemas; the point is to pay for one, or none.
 */
import { formatDiscoveredLine } from "../assembly/discovered-line.ts";
import { toolAsText } from "../assembly/tool-text.ts";
import { toolSignature } from "../assembly/tool-signature.ts";
import { EXECUTE_EXTRA_TOOL_NAME, TOOL_SEARCH_TOOL_NAME } from "../deferral/meta-tools.ts";
import type { QueryResult } from "../search/types.ts";
import { DEFAULT_MAX_RESULT_SIZE_CHARS } from "../tool/build-tool.ts";
import type { ContentBlock, ToolResult } from "../tool/result.ts";
import type { Tool } from "../tool/tool.ts";

/**
 * The first match is "clearly first" when it is the only one, when the query was its exact name,
 * when its score is at least CLEAR_FIRST_RATIO times the second's, or — a weaker margin — when the
 * query spells out the tool's own name (every word of it, in any order: "send an email" and
 * `send_email`) and its score is at least NAMED_FIRST_RATIO times the second's.
 *
 * A wrong full definition costs its whole schema and still leaves the model a `select:`; a right one
 * saves only a `select:` round trip, so the rule is set for precision. Chosen on the dev set by
 * bench/tokens-per-task.ts (LiveMCPBench tasks, the real-server requests) and checked on the dev
 * set's other sources, as rates over each set, never on single queries. With the ratio alone at 1.5,
 * a first shown in full was a gold tool 4/8, 50/59 and 393/421 of the time there; with these two
 * rules 2/3, 46/49 and 294/311 — fewer full schemas, fewer of them wrong, fewer tokens per task.
 */
export const CLEAR_FIRST_RATIO = 2;
export const NAMED_FIRST_RATIO = 1.2;

export interface ClearFirstOptions {
  /** The query as the model wrote it (for the name rule). */
  query?: string;
  /** The first match's own name (an MCP tool's raw name, else its pool name). */
  ownName?: (poolName: string) => string;
  ratio?: number;
}

/** The name of the match that gets its full definition in a compact answer, if one is clearly first. */
export function clearlyFirst(result: Pick<QueryResult, "matches" | "exactName">, options: ClearFirstOptions = {}): string | undefined {
  const [first, second] = result.matches;
  if (first === undefined) return undefined;
  if (second === undefined || result.exactName === first.name) return first.name;
  if (second.score <= 0) return first.score > 0 ? first.name : undefined;
  if (first.score >= (options.ratio ?? CLEAR_FIRST_RATIO) * second.score) return first.name;
  const named = options.query !== undefined && spellsName(options.query, options.ownName?.(first.name) ?? first.name);
  return named && first.score >= NAMED_FIRST_RATIO * second.score ? first.name : undefined;
}

/** Whether every word of a tool name (snake, kebab, dotted or camel case) is a word of the query, case aside. */
export function spellsName(query: string, name: string): boolean {
  const nameWords = wordsOf(name.replace(/([a-z0-9])([A-Z])/g, "$1 $2"));
  if (nameWords.length === 0) return false;
  const queryWords = new Set(wordsOf(query));
  return nameWords.every((word) => queryWords.has(word));
}

function wordsOf(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 0);
}

/** Room left for the head and notes. */
const RESULT_MARGIN_CHARS = 4_000;

export interface CompactInput {
  /** The deferred tools found, best first. */
  found: readonly Tool[];
  /** The one of them delivered in full, if any. */
  full: Tool | undefined;
  notes: readonly string[];
  structured: Record<string, unknown>;
  delivery: "native" | "proxy";
}

export function compactAnswer(input: CompactInput): ToolResult {
  const { found, full, notes, structured, delivery } = input;
  const lined = found.filter((tool) => tool !== full);
  const head: string[] = [];
  if (full !== undefined) {
    head.push(
      delivery === "native"
        ? `Loaded ${full.name}: call it directly.`
        : `Found ${found.length} tool(s). ${full.name} is shown in full: run it with ${EXECUTE_EXTRA_TOOL_NAME} {"tool_name": "${full.name}", "params": {...}}; params must follow its input schema.`,
    );
  } else if (found.length > 0 && delivery === "proxy") {
    head.push(`Found ${found.length} tool(s).`);
  }
  if (lined.length > 0) {
    head.push(
      delivery === "native"
        ? `${full === undefined ? "Matches" : "Other matches"}, not loaded — load one with ${TOOL_SEARCH_TOOL_NAME} "select:<name>":`
        : `${full === undefined ? "Matches" : "Other matches"} as signatures — call ${TOOL_SEARCH_TOOL_NAME} "select:<name>" for one's full input schema before running it:`,
    );
  }
  const fullText = full !== undefined && delivery === "proxy" ? toolAsText(full, { schema: true }) : "";
  // Cut whole lines rather than let the pipeline truncate the answer (and its discovered line).
  let budget = DEFAULT_MAX_RESULT_SIZE_CHARS - RESULT_MARGIN_CHARS - fullText.length;
  const lines: string[] = [];
  for (const tool of lined) {
    const line = toolSignature(tool);
    if (line.length + 1 > budget) break;
    lines.push(line);
    budget -= line.length + 1;
  }
  if (lines.length < lined.length) head.push(`${lined.length - lines.length} more match(es) not shown: narrow the query.`);
  const text: string[] = [[...head, ...lines].join("\n")];
  if (notes.length > 0) text.push(notes.join("\n"));
  structured.compact = true;
  structured.full = full === undefined ? [] : [full.name];
  if (delivery === "native") {
    const content: ContentBlock[] = [{ type: "text", text: text.join("\n\n") }];
    if (full !== undefined) content.push({ type: "tool_reference", tool_name: full.name });
    return { content, isError: false, structuredContent: structured };
  }
  if (full !== undefined) {
    text.push(fullText);
    text.push(formatDiscoveredLine([full.name]));
  }
  return { content: [{ type: "text", text: text.join("\n\n") }], isError: false, structuredContent: structured };
}
