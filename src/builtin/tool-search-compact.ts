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
 * or when its score is at least this many times the second's. Measured on the dev set by
 * bench/tokens-per-task.ts: a ratio this high is rarely reached by a wrong first match.
 */
export const CLEAR_FIRST_RATIO = 1.5;

/** The name of the match that gets its full definition in a compact answer, if one is clearly first. */
export function clearlyFirst(result: Pick<QueryResult, "matches" | "exactName">, ratio: number = CLEAR_FIRST_RATIO): string | undefined {
  const [first, second] = result.matches;
  if (first === undefined) return undefined;
  if (second === undefined || result.exactName === first.name) return first.name;
  if (second.score <= 0) return first.score > 0 ? first.name : undefined;
  return first.score >= ratio * second.score ? first.name : undefined;
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
