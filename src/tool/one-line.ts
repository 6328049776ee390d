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
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}
