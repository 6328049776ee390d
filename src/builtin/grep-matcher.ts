/**
 * The matching half of Grep: which lines of one text match a pattern, and which lines to print
 * around them. Matching uses the linear-time engine (runtime/linear-regex.ts), never JavaScript's
 * backtracking RegExp, and hands the event loop back every few milliseconds, so one search over a
 * large file does not delay another client's request.
 */
import { compileLinearRegex, UnsupportedPatternError, type LinearRegex } from "../runtime/linear-regex.ts";
import { timeSlicer, type TimeSliceOptions } from "./time-slice.ts";

export interface PatternOptions {
  ignoreCase: boolean;
  /** Let a match span lines: `.` matches newlines, `^`/`$` match at every line. */
  multiline: boolean;
}

/** Lines matched between two looks at the clock. */
const LINES_PER_CLOCK_CHECK = 64;

/** The compiled pattern, or why it is refused (invalid, or a construct only a backtracking engine runs). */
export function compilePattern(pattern: string, options: PatternOptions): LinearRegex | string {
  try {
    return compileLinearRegex(pattern, options);
  } catch (error) {
    if (error instanceof UnsupportedPatternError) return error.message;
    throw error;
  }
}

export interface FileMatches {
  /** The file's lines, without line terminators (left empty when no line matched). */
  lines: string[];
  /** 0-based indices of matching lines, ascending, without repeats. */
  matched: number[];
}

export async function findMatches(text: string, regex: LinearRegex, multiline: boolean, options: TimeSliceOptions = {}): Promise<FileMatches> {
  const pause = timeSlicer(options);
  // Most files of a search match nowhere: one pass of the automaton says so without splitting lines.
  if (!multiline && !regex.mayMatchAnyLine(text)) return { lines: [], matched: [] };
  const raw = text === "" ? [] : text.split("\n");
  if (raw.length > 1 && raw[raw.length - 1] === "") raw.pop();
  const lines = raw.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
  if (!multiline) {
    const matched: number[] = [];
    for (let index = 0; index < lines.length; index++) {
      if (index % LINES_PER_CLOCK_CHECK === 0) await pause();
      if (regex.test(lines[index] ?? "")) matched.push(index);
    }
    return { lines, matched };
  }
  const starts = lineStarts(text);
  const matched = new Set<number>();
  for (const match of regex.matches(text)) {
    const first = lineAt(starts, match.index);
    const last = lineAt(starts, match.index + Math.max(match.length - 1, 0));
    for (let line = first; line <= last && line < lines.length; line++) matched.add(line);
    await pause();
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
