/**
 * Where each value sits in a JSON text, so a file can be edited surgically: one value's characters
 * replaced and every other byte left exactly as it was (indentation, key order, number spelling,
 * escapes). The text must already be known to parse; this only finds boundaries, it does not judge.
 */

/** A half-open range of character offsets, `[start, end)`. */
export interface Span {
  start: number;
  end: number;
}

export interface MemberSpan {
  key: string;
  /** The member's value. */
  value: Span;
}

export class JsonSpanError extends Error {
  override readonly name = "JsonSpanError";
}

/** The span of the value that starts at or after `from` (skipping whitespace and a byte-order mark). */
export function valueSpanAt(text: string, from: number): Span {
  const start = skipWhitespace(text, from);
  return { start, end: skipValue(text, start) };
}

/** The members of the object at `span`, in text order. */
export function objectMembers(text: string, span: Span): MemberSpan[] {
  expectChar(text, span.start, "{");
  const members: MemberSpan[] = [];
  let at = skipWhitespace(text, span.start + 1);
  if (text[at] === "}") return members;
  for (;;) {
    expectChar(text, at, '"');
    const keyEnd = skipString(text, at);
    const key = JSON.parse(text.slice(at, keyEnd)) as string;
    at = skipWhitespace(text, keyEnd);
    expectChar(text, at, ":");
    const value = valueSpanAt(text, at + 1);
    members.push({ key, value });
    at = skipWhitespace(text, value.end);
    if (text[at] === "}") return members;
    expectChar(text, at, ",");
    at = skipWhitespace(text, at + 1);
  }
}

/** The elements of the array at `span`, in order. */
export function arrayElements(text: string, span: Span): Span[] {
  expectChar(text, span.start, "[");
  const elements: Span[] = [];
  let at = skipWhitespace(text, span.start + 1);
  if (text[at] === "]") return elements;
  for (;;) {
    const element = valueSpanAt(text, at);
    elements.push(element);
    at = skipWhitespace(text, element.end);
    if (text[at] === "]") return elements;
    expectChar(text, at, ",");
    at = at + 1;
  }
}

/** The spaces and tabs that start the line `offset` is on ("" on an unindented or single line). */
export function indentOfLine(text: string, offset: number): string {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))?.[0] ?? "";
}

function skipWhitespace(text: string, from: number): number {
  let at = from;
  while (at < text.length && /[\s\uFEFF]/.test(text[at] ?? "")) at++;
  return at;
}

function skipValue(text: string, start: number): number {
  const char = text[start];
  if (char === '"') return skipString(text, start);
  if (char === "{" || char === "[") return skipContainer(text, start);
  let at = start;
  while (at < text.length && /[-+0-9.eEa-z]/.test(text[at] ?? "")) at++;
  if (at === start) throw new JsonSpanError(`expected a JSON value at offset ${start}`);
  return at;
}

function skipString(text: string, start: number): number {
  for (let at = start + 1; at < text.length; at++) {
    const char = text[at];
    if (char === "\\") at++;
    else if (char === '"') return at + 1;
  }
  throw new JsonSpanError(`unterminated string at offset ${start}`);
}

function skipContainer(text: string, start: number): number {
  let depth = 0;
  for (let at = start; at < text.length; at++) {
    const char = text[at];
    if (char === '"') at = skipString(text, at) - 1;
    else if (char === "{" || char === "[") depth++;
    else if ((char === "}" || char === "]") && --depth === 0) return at + 1;
  }
  throw new JsonSpanError(`unterminated ${text[start] === "{" ? "object" : "array"} at offset ${start}`);
}

function expectChar(text: string, at: number, char: string): void {
  if (text[at] !== char) throw new JsonSpanError(`expected ${JSON.stringify(char)} at offset ${at}`);
}
