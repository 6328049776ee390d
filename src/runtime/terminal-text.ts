/**
 * The one escaping of text that reaches a terminal. Names, descriptions, reasons, paths and stderr
 * come from files, configs and MCP servers; printed raw, an ESC (or a lone C1 CSI, 0x9b) moves the
 * cursor, rewrites earlier lines or retitles the window, and a bidi override (U+202E) makes
 * `evil.sh` read as `hs.live`. Every such character is shown as a visible escape instead.
 *
 * Escaped: C0 controls, DEL, C1 controls, the bidi embeddings, overrides and isolates
 * (U+202A–U+202E, U+2066–U+2069), the invisible marks U+200B–U+200F and U+2028/U+2029 (line
 * breaks to some terminals), and U+FEFF. `keepLines` leaves `\n` and `\t` as they are, for whole
 * outputs whose own line structure is wanted; a single field is escaped without it, so it cannot
 * forge a line of its own.
 *
 * Each escape is itself valid inside a JSON string (`\uXXXX`, `\n`), and JSON.stringify never
 * leaves a C0 control raw, so a `--json` output passed through here still parses to the same value.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;
const UNSAFE_KEEPING_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;
export interface EscapeOptions {
  /** Keep `\n` and `\t` (a whole block of output); a single field escapes them too. */
  keepLines?: boolean;
}

export function escapeTerminal(text: string, options: EscapeOptions = {}): string {
  return text.replace(options.keepLines ? UNSAFE_KEEPING_LINES : UNSAFE, escapeChar);
}

function escapeChar(char: string): string {
  switch (char) {
    case "\n":
      return "\\n";
    case "\t":
      return "\\t";
    case "\r":
      return "\\r";
    default:
      return `\\u${hex(char)}`;
  }
}

function hex(char: string): string {
  return char.charCodeAt(0).toString(16).padStart(4, "0");
}
