/**
 * A tool as one line, for compact ToolSearch answers: name, parameter names and types, and a short
 * description —
 *
 *   - mcp__github__create_issue(owner: string, repo: string, title: string, labels?: string[]) — Create an issue.
 *
 * Enough to choose a tool and, in proxy delivery, often to call it; not its full schema (nested
 * shapes, enums, descriptions of parameters). A required parameter has no `?`. The line is bounded
 * whatever the schema holds: at most SIGNATURE_MAX_PARAMS parameters, each name and type cut short.
 */
import type { JsonSchema } from "../tool/tool.ts";
import { cutLine, foldLine } from "../tool/one-line.ts";
import { quoteMarkers } from "./quoted-markers.ts";

/** Parameters shown on a line; the rest are counted ("… +3 more"). */
export const SIGNATURE_MAX_PARAMS = 12;
/** The description on a line: its first sentence, at most this long. */
export const SIGNATURE_DESCRIPTION_CHARS = 120;
const MAX_PARAM_NAME_CHARS = 40;
const MAX_TYPE_CHARS = 40;

export interface SignatureFacts {
  readonly name: string;
  readonly description: string;
  readonly inputJSONSchema: JsonSchema;
}

export function toolSignature(tool: SignatureFacts): string {
  const description = signatureDescription(tool.description);
  // One line, whatever a server put in its parameter names and types: a name holding "\n- Read(…"
  // once wrote a line of its own into the answer, passing for another tool (quoted-markers.ts says why markers are defused).
  return quoteMarkers(`- ${tool.name}(${parameterList(tool.inputJSONSchema)})${description === "" ? "" : ` — ${description}`}`);
}

function parameterList(schema: JsonSchema): string {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string") : []);
  const names = Object.keys(properties);
  const shown = names.slice(0, SIGNATURE_MAX_PARAMS).map((name) => {
    const optional = required.has(name) ? "" : "?";
    return `${cutLine(name, MAX_PARAM_NAME_CHARS)}${optional}: ${cutLine(typeName(properties[name]), MAX_TYPE_CHARS)}`;
  });
  if (names.length > SIGNATURE_MAX_PARAMS) shown.push(`… +${names.length - SIGNATURE_MAX_PARAMS} more`);
  return shown.join(", ");
}

/** A JSON Schema's type in a word or two: `string`, `number[]`, `"a"|"b"`, `string|null`, `object`. */
export function typeName(schema: unknown, depth = 0): string {
  if (!isRecord(schema)) return "any";
  if (Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.length <= 4 && schema.enum.every((value) => typeof value === "string")) {
    return schema.enum.map((value) => JSON.stringify(value)).join("|");
  }
  const type = schema.type;
  if (type === "array") return depth < 2 ? `${typeName(schema.items, depth + 1)}[]` : "array";
  if (typeof type === "string") return type;
  if (Array.isArray(type) && type.length > 0) return type.filter((entry) => typeof entry === "string").join("|");
  const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (union && union.length > 0 && depth < 2) return [...new Set(union.map((entry) => typeName(entry, depth + 1)))].join("|");
  if (isRecord(schema.properties)) return "object";
  return "any";
}

/** The first sentence of the first paragraph, whitespace folded, at most SIGNATURE_DESCRIPTION_CHARS. */
export function signatureDescription(description: string): string {
  const paragraph = foldLine(description.trim().split(/\n\s*\n/)[0]!);
  const sentence = /^(.+?[.!?])(\s|$)/.exec(paragraph)?.[1] ?? paragraph;
  return cutLine(sentence, SIGNATURE_DESCRIPTION_CHARS);
}


function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
