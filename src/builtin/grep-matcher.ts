/**
 * The matching half of Grep: which lines of one text match a JavaScript regular expression, and
 * which lines to print around them. Pure functions over strings, so every mode is testable without
 * touching a disk.
 */

export interface PatternOptions {
  ignoreCase: boolean;
  /** Let a match span lines: `.` matches newlines, `^`/`$` match at every line. */
  multiline: boolean;
}

/** The compiled expression, or the engine's complaint when the pattern is not a valid regex. */
export function compilePattern(pattern: string, options: PatternOptions): RegExp | string {
  const flags = (options.multiline ? "gms" : "") + (options.ignoreCase ? "i" : "");
  try {
    return new RegExp(pattern, flags);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export interface FileMatches {
  /** The file's lines, without line terminators. */
  lines: string[];
  /** 0-based indices of matching lines, ascending, without repeats. */
  matched: number[];
}

export function findMatches(text: string, regex: RegExp, multiline: boolean): FileMatches {
  const raw = text === "" ? [] : text.split("\n");
  if (raw.length > 1 && raw[raw.length - 1] === "") raw.pop();
  const lines = raw.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
  if (!multiline) {
    const matched: number[] = [];
    lines.forEach((line, index) => {
      if (regex.test(line)) matched.push(index);
    });
    return { lines, matched };
  }
  const starts = lineStarts(text);
  const matched = new Set<number>();
  regex.lastIndex = 0;
  for (const match of text.matchAll(regex)) {
    const first = lineAt(starts, match.index);
    const last = lineAt(starts, match.index + Math.max(match[0].length - 1, 0));
    for (let line = first; line <= last && line < lines.length; line++) matched.add(line);
  }
  return { lines, matched: [...matched].sort((a, b) => a - b) };
}

/** One printed line of content output. */
export interface PrintedLine {
  index: number;
  isMatch: boolean;
}

/**
 * Groups matching lines with `before`/`after` lines of context; overlapping or touching groups
 * merge, as grep and ripgrep print them.
 */
export function contextGroups(matches: FileMatches, before: number, after: number): PrintedLine[][] {
  const groups: PrintedLine[][] = [];
  const isMatch = new Set(matches.matched);
  let current: PrintedLine[] = [];
  let lastPrinted = -1;
  for (const index of matches.matched) {
    const from = Math.max(0, index - before, lastPrinted + 1);
    const to = Math.min(matches.lines.length - 1, index + after);
    if (current.length > 0 && from > lastPrinted + 1) {
      groups.push(current);
      current = [];
    }
    for (let line = from; line <= to; line++) current.push({ index: line, isMatch: isMatch.has(line) });
    lastPrinted = Math.max(lastPrinted, to);
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) starts.push(at + 1);
  return starts;
}

function lineAt(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] ?? 0) <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}
