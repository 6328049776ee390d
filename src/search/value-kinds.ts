/**
 * Values a request carries say what the call will be given, and so which tools fit: the ones with
 * a parameter for that kind of value. "what address is at 40.7128, -74.0060" shares its words with
 * geocoding, but wants the tool that takes a latitude. Each kind is told by a pattern over the
 * whole text (bounded by the query's length cap). Only kinds that measured neutral or better on
 * both dev halves are here: URLs, file paths and e-mail addresses lifted tools that take `url`,
 * `path` or `email` on one half and cost toolbench or livemcpbench MRR on the other (docs/search.md).
 */
export type ValueKind = "coordinates";

const PATTERNS: Readonly<Record<ValueKind, RegExp>> = {
  coordinates: /-?\b\d{1,3}\.\d{2,}\s*[,;]\s*-?\d{1,3}\.\d{2,}\b/,
};

/** Parameter-name words of tools that take each kind (tokenized by the index, so stemmed alike). */
export const PARAMETER_WORDS: Readonly<Record<ValueKind, readonly string[]>> = {
  coordinates: ["latitude", "longitude", "lat", "lng", "lon"],
};

export function valueKinds(text: string): ValueKind[] {
  // Every kind needs a decimal number (a digit, a point, a digit): most requests have none.
  if (!mayHaveDecimal(text)) return [];
  return (Object.keys(PATTERNS) as ValueKind[]).filter((kind) => PATTERNS[kind].test(text));
}

/**
 * A digit, a point, a digit: false when no kind can match. The answer for a text is the OR of its
 * white-space words' answers (white space is not a digit).
 */
export function mayHaveDecimal(text: string): boolean {
  for (let at = text.indexOf("."); at >= 0; at = text.indexOf(".", at + 1)) {
    // Within the text: charCodeAt past its end is NaN, which optimised code that met only integers leaves on.
    if (at > 0 && at + 1 < text.length && isDigit(text.charCodeAt(at - 1)) && isDigit(text.charCodeAt(at + 1))) return true;
  }
  return false;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}
