/**
 * Text a server wrote (a description, a group's title, its instructions) shown where the daemon's
 * own lines are: it must stay on its line. White space, control and format characters (line
 * breaks, U+0085, U+2028/9, bidi overrides, zero-width characters) become one space.
 */
export function foldLine(text: string): string {
  return text.replace(/[\s\p{Cc}\p{Cf}]+/gu, " ");
}

/** `text` folded, cut to at most `max` characters with an ellipsis marking the cut. */
export function cutLine(text: string, max: number): string {
  const line = foldLine(text);
  return line.length <= max ? line : `${wholeSlice(line, max - 1).trimEnd()}…`;
}

/**
 * The first `end` UTF-16 units of `text`, less the first half of a surrogate pair the cut would
 * split: half a character is invalid in the UTF-8 a host sends its next request in (a JSON parser
 * such as serde's refuses the lone `\ud83d` escape), so one emoji at a cut could fail every
 * request that carries the text — a tool's description, a compact answer's line, an announcement.
 */
export function wholeSlice(text: string, end: number): string {
  const cut = text.slice(0, end);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff && end < text.length ? cut.slice(0, -1) : cut;
}
