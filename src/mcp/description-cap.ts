/** An MCP tool's description as the daemon shows it: hidden characters dropped (catalog-text.ts), whitespace collapsed, then cut at MAX_DESCRIPTION_CHARS with a visible marker (SPEC §5). */
import { dropHidden, hasHidden, MAX_CATALOG_READ_CHARS } from "./catalog-text.ts";
import { MAX_DEFINITION_DEPTH, MAX_DESCRIPTION_CHARS } from "./limits.ts";
import { wholeSlice } from "../tool/one-line.ts";

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

export function capDescription(raw: string): string {
  const text = collapseWhitespace(dropHidden(raw, Infinity));
  if (text.length <= MAX_DESCRIPTION_CHARS) return text;
  // Past what is read (MAX_CATALOG_READ_CHARS), the count is the server's whole string's.
  const total = raw.length > MAX_CATALOG_READ_CHARS ? raw.length : text.length;
  const marker = `… [description truncated by toolpool: ${total} characters, showing the first `;
  const keep = MAX_DESCRIPTION_CHARS - marker.length - 8;
  const shown = wholeSlice(text, keep);
  return `${shown}${marker}${shown.length}]`;
}

/**
 * Keywords whose values are data, not schemas: a `default`, `const`, `enum` or example value is
 * what the server means to receive, so its strings are left exactly as they are.
 */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(["default", "const", "enum", "examples", "example"]);

/**
 * An input schema with the hidden characters dropped (catalog-text.ts: each string read to 16K,
 * kept to 4,096 characters) from every `description` and `title` string it holds at any depth (a parameter's description reaches the model and reviewers as the
 * tool's description does); nothing else is touched, data keywords' values included. The schema
 * itself when nothing changes; a copy of only the changed paths otherwise. Past
 * MAX_DEFINITION_DEPTH levels (a listing skips such a tool) a subtree is left as it is.
 */
export function cleanSchemaTexts<T>(schema: T): T {
  return cleanNode(schema, 0) as T;
}

function cleanNode(node: unknown, depth: number): unknown {
  if (node === null || typeof node !== "object" || depth > MAX_DEFINITION_DEPTH) return node;
  if (Array.isArray(node)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < node.length; i++) {
      const cleaned = cleanNode(node[i], depth + 1);
      if (cleaned !== node[i]) (copy ??= node.slice())[i] = cleaned;
    }
    return copy ?? node;
  }
  let copy: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(node)) {
    if (DATA_KEYWORDS.has(key)) continue;
    const cleaned = (key === "description" || key === "title") && typeof value === "string" ? dropHidden(value) : cleanNode(value, depth + 1);
    if (cleaned !== value) (copy ??= { ...node })[key] = cleaned;
  }
  return copy ?? node;
}

/**
 * The first property name (any object key, at any depth to MAX_DEFINITION_DEPTH) holding a hidden
 * character, or undefined. A name cannot be cleaned as a description is (the server is called with
 * it as it is), yet the model reads it in the schema: text smuggled there is refused, not passed on.
 */
export function hiddenKeyIn(node: unknown, depth = 0): string | undefined {
  if (node === null || typeof node !== "object" || depth > MAX_DEFINITION_DEPTH) return undefined;
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = hiddenKeyIn(item, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, value] of Object.entries(node)) {
    if (hasHidden(key)) return key;
    if (DATA_KEYWORDS.has(key)) continue;
    const found = hiddenKeyIn(value, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
