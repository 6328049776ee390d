/**
 * The machine-readable line that records, inside a text, which deferred tools it made available:
 *
 *   [toolpool discovered: mcp__github__create_issue, mcp__github__get_issue]
 *
 * It ends every proxy ToolSearch result that found tools and every proxy `<tool-discovery>`
 * attachment, so the transcript scan can rebuild the discovered set from the text alone. One line,
 * names comma-separated; tool names cannot contain `,` `]` or spaces, so the line is unambiguous.
 */
import { isValidToolName } from "../tool/names.ts";

const PREFIX = "[toolpool discovered: ";
const LINE = /^\[toolpool discovered: ([^\]\n]*)\]$/gm;

export function formatDiscoveredLine(names: readonly string[]): string {
  return `${PREFIX}${names.join(", ")}]`;
}

/** Every name on every discovered line of a text; malformed names are skipped. */
export function parseDiscoveredLines(text: string): string[] {
  if (!text.includes(PREFIX)) return [];
  const names: string[] = [];
  for (const match of text.matchAll(LINE)) {
    for (const part of match[1]!.split(",")) {
      const name = part.trim();
      if (isValidToolName(name)) names.push(name);
    }
  }
  return names;
}

/** The lines of a text that are nothing but a tool name (the list blocks' body lines). */
export function nameLines(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter(isValidToolName);
}

/** The bodies of every `<tag>…</tag>` block in a text. */
export function taggedBlocks(text: string, tag: string): string[] {
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  const bodies: string[] = [];
  for (let at = text.indexOf(open); at >= 0; at = text.indexOf(open, at + open.length)) {
    const end = text.indexOf(close, at + open.length);
    if (end < 0) break;
    bodies.push(text.slice(at + open.length, end));
  }
  return bodies;
}
