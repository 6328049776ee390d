/**
 * Regular expressions from models and MCP servers, matched in time linear in the input. JavaScript's
 * RegExp backtracks, so `^(a+)+$` over a line of `a…!` takes exponential time and blocks the thread
 * that serves every client. re2js (a pure-JS port of RE2) runs automata instead; what it cannot run in
 * linear time (backreferences, lookaround) is refused here with the reason, before RE2's own parser
 * would report it in its terms or, for `\k<name>`, silently read it as literal text.
 */
import type { RE2JS } from "re2js";
import { requireEmbedded } from "./embedded-module.ts";

/** Longest pattern accepted: a model's search needs far less, and compile cost grows with it. */
export const MAX_PATTERN_CHARS = 4096;
/**
 * RE2's estimate of a compiled pattern's cost. Matching is linear in the text but multiplied by this
 * when the automaton falls back to simulating the program; `a{1000}` nested once is already 1,000,000.
 */
export const MAX_PROGRAM_SIZE = 20_000;

export interface LinearRegexOptions {
  ignoreCase?: boolean;
  /** `^`/`$` match at every line and `.` matches newlines (Grep's multiline mode). */
  multiline?: boolean;
}

/** A compiled pattern: linear-time `test`, and every match over a text (for multiline Grep). */
export interface LinearRegex {
  readonly source: string;
  test(text: string): boolean;
  /**
   * False only when no line of `text` (split at "\n") can match: one automaton pass over the whole
   * text, so a file without a match is not matched line by line. True when unsure.
   */
  mayMatchAnyLine(text: string): boolean;
  matches(text: string): IterableIterator<{ index: number; length: number }>;
}

export class UnsupportedPatternError extends Error {
  override readonly name = "UnsupportedPatternError";
}

/**
 * Compiles `pattern` (JavaScript syntax) for linear-time matching, or throws UnsupportedPatternError
 * whose message completes the sentence "The pattern …".
 */
export function compileLinearRegex(pattern: string, options: LinearRegexOptions = {}): LinearRegex {
  if (pattern.length > MAX_PATTERN_CHARS) {
    throw new UnsupportedPatternError(`is ${pattern.length} characters long; the limit is ${MAX_PATTERN_CHARS}`);
  }
  const construct = unsupportedConstruct(pattern);
  if (construct) {
    throw new UnsupportedPatternError(
      `uses ${construct}, which needs backtracking; patterns are matched by a linear-time engine (RE2 syntax) ` +
        "so that no pattern can stall the daemon. Rewrite it without that construct",
    );
  }
  // Loaded on the first pattern, not at start-up: the engine costs tens of ms to load.
  const { RE2JS } = requireEmbedded<typeof import("./re2js-module.ts")>("runtime/re2js-module");
  let compiled: RE2JS;
  try {
    const flags =
      (options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0) | (options.multiline ? RE2JS.MULTILINE | RE2JS.DOTALL : 0);
    compiled = RE2JS.compile(RE2JS.translateRegExp(pattern), flags);
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/^error parsing regexp: /, "") : String(error);
    throw new UnsupportedPatternError(`is not a valid regular expression (${message})`);
  }
  if (compiled.programSize() > MAX_PROGRAM_SIZE) {
    throw new UnsupportedPatternError(
      `compiles to ${compiled.programSize()} instructions, more than the ${MAX_PROGRAM_SIZE} allowed (large repeat counts such as {1000} multiply); use smaller counts`,
    );
  }
  const wholeText = lineWiseEquivalent(pattern, options) ? RE2JS.compile(compiled.pattern(), compiled.flags() | RE2JS.MULTILINE) : undefined;
  return {
    source: pattern,
    test: (text) => compiled.test(text),
    // With "\r" in the text, `$` before "\r\n" differs between the whole text and a stripped line.
    mayMatchAnyLine: (text) => wholeText === undefined || text.includes("\r") || wholeText.test(text),
    *matches(text) {
      for (const match of compiled.matchAll(text)) yield { index: match.index ?? 0, length: match[0]?.length ?? 0 };
    },
  };
}

/**
 * Whether "some line matches" implies "the whole text matches" with `^`/`$` at line boundaries:
 * true unless the pattern anchors to the whole text (`\A`, `\z`) or turns multiline off inline.
 */
function lineWiseEquivalent(pattern: string, options: LinearRegexOptions): boolean {
  if (options.multiline) return false;
  return !/\\[Az]/.test(pattern) && !/\(\?[a-zA-Z]*-/.test(pattern);
}

/**
 * The first construct that only a backtracking engine can match, named for the message, or undefined.
 * Scans outside character classes and skips escaped characters, as the regex grammar does.
 */
export function unsupportedConstruct(pattern: string): string | undefined {
  let inClass = false;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index];
    if (char === "\\") {
      const next = pattern[index + 1] ?? "";
      if (!inClass && /[1-9]/.test(next)) return `a backreference (\\${next})`;
      if (!inClass && next === "k" && pattern[index + 2] === "<") return "a named backreference (\\k<…>)";
      index++;
      continue;
    }
    if (inClass) {
      if (char === "]") inClass = false;
      continue;
    }
    if (char === "[") {
      inClass = true;
      continue;
    }
    if (char === "(" && pattern[index + 1] === "?") {
      const head = pattern.slice(index + 2, index + 4);
      if (head.startsWith("=")) return "a lookahead ((?=…))";
      if (head.startsWith("!")) return "a negative lookahead ((?!…))";
      if (head === "<=") return "a lookbehind ((?<=…))";
      if (head === "<!") return "a negative lookbehind ((?<!…))";
    }
  }
  return undefined;
}
