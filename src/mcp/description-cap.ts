/** An MCP tool's description as the daemon shows it: hidden characters dropped, whitespace collapsed, then cut at MAX_DESCRIPTION_CHARS with a visible marker (SPEC §5). */
import { MAX_DESCRIPTION_CHARS } from "./limits.ts";

/**
 * Whitespace collapsed first (indentation, runs of spaces, blank-line runs, leading newlines), so
 * the cap counts words, not layout: some servers indent every line of a description by 8 to 12
 * spaces, up to a third of its characters.
 */
export function collapseWhitespace(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(/[ \t\r\f\v]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * Control characters other than whitespace, and the bidi embeddings, overrides and isolates: a
 * server's description reaches the model and the people reviewing its tools, and U+202E shows them
 * text in another order than the model reads it (a terminal escape, `\u001b[2J`, clears a screen).
 */
const HIDDEN = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

export function capDescription(raw: string): string {
  const text = collapseWhitespace(raw.replace(HIDDEN, ""));
  if (text.length <= MAX_DESCRIPTION_CHARS) return text;
  const marker = `… [description truncated by toolpool: ${text.length} characters, showing the first `;
  const keep = MAX_DESCRIPTION_CHARS - marker.length - 8;
  return `${text.slice(0, keep)}${marker}${keep}]`;
}
