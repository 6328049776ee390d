import { FIELD_COUNT, FIELD_ID, type FieldTerms } from "./fields.ts";
import type { Tokenizer } from "./tokenizer.ts";
import type { SearchDocument } from "./types.ts";
import { firstSentenceEnd } from "./description-tail.ts";

/** Indexed text per field is cut here, so one huge description cannot dominate build time or memory. */
export const FIELD_TEXT_LIMIT = 16_384;
const PARAMETER_LIMIT = 200;

/**
 * The part of a pool name that names the tool itself: `mcp__server__tool` → `tool`, and
 * `<server>__<api>` (RapidAPI style) → `<api>` when the prefix spells the server name.
 * The server words are indexed once, in the server field.
 */
export function toolPartOfName(name: string, server?: string): string {
  if (name.startsWith("mcp__")) {
    const rest = name.slice(5);
    const separator = rest.indexOf("__");
    return separator < 0 ? rest : rest.slice(separator + 2);
  }
  const separator = name.indexOf("__");
  if (server === undefined || separator <= 0) return name;
  return squash(name.slice(0, separator)) === squash(server) ? name.slice(separator + 2) : name;
}

/** Server name as written in a `mcp__server__tool` pool name, if it is one. */
export function serverOfMcpName(name: string): string | undefined {
  if (!name.startsWith("mcp__")) return undefined;
  const rest = name.slice(5);
  const separator = rest.indexOf("__");
  return separator < 0 ? rest : rest.slice(0, separator);
}

/** Lowercase letters and digits only: "Easy_Weather" and "Easy Weather" compare equal. */
export function squash(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
}

/** What documentFields says about a document besides its terms. */
export interface FieldShape {
  /** How many of the description's terms are its first sentence's (description-tail.ts). */
  descriptionHead: number;
}

/**
 * The term ids of each field of a document; new terms enter the tokenizer's dictionary. When
 * `into` is given its arrays are emptied and reused: an index that copies the terms out (as
 * InvertedIndex.add does) then makes no garbage per tool, which at 100k tools is most of the
 * build's peak memory. `shape`, when given, is told where the description's first sentence ends.
 */
export function documentFields(doc: SearchDocument, tokenizer: Tokenizer, into?: FieldTerms, shape?: FieldShape): FieldTerms {
  const fields: FieldTerms = into ?? Array.from({ length: FIELD_COUNT }, () => []);
  for (const field of fields) field.length = 0;
  const tokenize = (field: number, text: string | undefined) => {
    if (text) tokenizer.tokenizeToIds(text.slice(0, FIELD_TEXT_LIMIT), fields[field]);
  };
  const name = fields[FIELD_ID.name]!;
  tokenize(FIELD_ID.name, toolPartOfName(doc.name, doc.server));
  if (doc.rawToolName !== undefined) {
    // The raw MCP name usually repeats the pool name; only words it adds are indexed.
    const own = name.length;
    tokenizer.tokenizeToIds(doc.rawToolName.slice(0, FIELD_TEXT_LIMIT), name);
    // Keep only the raw name's terms the pool name lacks (in place: no Set, no second array).
    let kept = own;
    for (let i = own; i < name.length; i++) {
      const term = name[i]!;
      let known = false;
      for (let j = 0; j < own && !known; j++) known = name[j] === term;
      if (!known) name[kept++] = term;
    }
    name.length = kept;
  }
  for (const alias of doc.aliases ?? []) tokenize(FIELD_ID.alias, alias);
  tokenize(FIELD_ID.hint, doc.searchHint);
  const description = fields[FIELD_ID.description]!;
  if (doc.description) {
    // Tokenized as its first sentence, then the rest: the same terms as the whole (cut at white space).
    const text = doc.description.slice(0, FIELD_TEXT_LIMIT);
    const end = firstSentenceEnd(text);
    tokenizer.tokenizeToIds(end === text.length ? text : text.slice(0, end), description);
    if (shape !== undefined) shape.descriptionHead = description.length;
    if (end < text.length) tokenizer.tokenizeToIds(text.slice(end), description);
  } else if (shape !== undefined) {
    shape.descriptionHead = 0;
  }
  const parameters = doc.parameters ?? [];
  for (let i = 0; i < parameters.length && i < PARAMETER_LIMIT; i++) {
    const parameter = parameters[i]!;
    tokenize(FIELD_ID.parameterName, parameter.name);
    tokenize(FIELD_ID.parameterDescription, parameter.description);
    for (const value of parameter.values ?? []) tokenize(FIELD_ID.parameterValue, value);
  }
  tokenize(FIELD_ID.server, doc.server);
  tokenize(FIELD_ID.serverDescription, doc.serverDescription);
  return fields;
}
