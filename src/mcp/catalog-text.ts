/**
 * Text a server writes into its catalog — tool descriptions and titles, its input and output schemas'
 * descriptions and titles, search hints, group titles and descriptions, its `instructions` — reaches
 * the model (ToolSearch answers, announcements) and the people reviewing its tools. Characters that
 * show nothing, or show something other than what the model reads, are dropped where the catalog is
 * taken in (pool-tool.ts for definitions, from a listing or a catalog cache alike; server-life.ts for
 * instructions), before any cap, fold or index reads it:
 *
 * - C0 and C1 controls but the line feed and the tab (a terminal escape, `\u001b[2J`, clears a
 *   reviewer's screen; a carriage return rewrites a line over itself);
 * - Unicode format characters (general category Cf): bidi embeddings, overrides and isolates
 *   (U+202E shows text in another order than the model reads it), zero-width spaces and joiners
 *   (inside a word they make `delete_repo` match no search for it, or look like another tool's
 *   name), U+FEFF, the soft hyphen;
 * - the tag block U+E0000–U+E007F (ASCII written invisibly: "ASCII smuggling" of instructions a
 *   reviewer never sees) and the variation selectors (U+FE00–U+FE0F, U+E0100–U+E01EF), which carry
 *   hidden bytes the same way;
 * - the rest of Unicode's default-ignorable code points (Default_Ignorable_Code_Point, which holds
 *   the variation selectors and most format characters too): the Hangul fillers U+115F, U+1160,
 *   U+3164, U+FFA0 (letters that render as nothing: blank-looking text), the combining grapheme
 *   joiner U+034F (splits a word as a zero-width space does), Khmer's U+17B4–U+17B5, Mongolian's
 *   U+180B–U+180F and the unassigned ones renderers show as nothing;
 * - lone surrogates (half a character: no text, and invalid in the UTF-8 a request is sent in).
 *
 * A name the server is called with cannot be cleaned: a schema property named with one of them
 * skips the tool (an output schema's, the output schema: description-cap.ts hiddenKeyIn).
 *
 * At most MAX_CATALOG_READ_CHARS of one string are read (a megabyte of description costs no more
 * than that), and the result is cut to `keep` characters: the caller's own cap where one applies,
 * else MAX_CATALOG_TEXT_CHARS.
 */
import { wholeSlice } from "../tool/one-line.ts";

/** Of one server string, no more than this is read. */
export const MAX_CATALOG_READ_CHARS = 16_384;
/** One server string is kept to this where no cap of its own applies (a schema property's description). */
export const MAX_CATALOG_TEXT_CHARS = 4_096;

const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\p{Cf}\p{Default_Ignorable_Code_Point}\u{e0000}-\u{e007f}]|\p{Cs}/gu;
/** A cheap test first: most text has none of them, and is returned as it is (the same string). */
const HAS_HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\p{Cf}\p{Default_Ignorable_Code_Point}\u{e0000}-\u{e007f}]|\p{Cs}/u;

/** `text` without hidden characters, read to MAX_CATALOG_READ_CHARS and kept to `keep` characters. */
export function dropHidden(text: string, keep: number = MAX_CATALOG_TEXT_CHARS): string {
  const read = text.length > MAX_CATALOG_READ_CHARS ? wholeSlice(text, MAX_CATALOG_READ_CHARS) : text;
  const clean = HAS_HIDDEN.test(read) ? read.replace(HIDDEN, "") : read;
  return clean.length > keep ? wholeSlice(clean, keep) : clean;
}

/** Whether `text` holds a hidden character (for names, which cannot be changed: the server expects them as they are). */
export function hasHidden(text: string): boolean {
  return HAS_HIDDEN.test(text);
}
