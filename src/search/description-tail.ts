import type { InvertedIndex } from "./inverted-index.ts";
import type { QueryTerm } from "./bm25f-scorer.ts";

/**
 * A tool's description says what it does in its first sentence; what follows is usage notes,
 * examples, caveats and pointers to other tools ("to write a file, use write_file instead"). A
 * request word a tool has only there — in no other field, and not in that first sentence — is
 * weaker evidence that the tool does what the request asks, so it counts for less of the re-rank's
 * coverage share (RankingOptions.descriptionTail). The index keeps, per tool, those tail-only
 * terms sorted by id (InvertedIndex.tailOnly); this file finds where the first sentence ends
 * and how much of a query a candidate has only in its tail.
 */

const SPACE = 0x20;
const TAB = 0x09;
const NEWLINE = 0x0a;
const RETURN = 0x0d;
const FULL_STOP = 0x2e;
const QUESTION = 0x3f;
const EXCLAMATION = 0x21;

function isSpace(code: number): boolean {
  return code === SPACE || code === TAB || code === NEWLINE || code === RETURN;
}

/**
 * Where a description's first sentence ends (exclusive): after the first `.`, `!` or `?` that ends
 * the text or is followed by white space, or at the first line break — leading white space and
 * blank lines skipped; the text's length when there is no such end. Cut there, the two parts
 * tokenize to the same terms as the whole (the cut is always at white space or the text's end).
 * Not the first sentence an answer shows (assembly/server-summaries.ts firstSentence,
 * assembly/tool-signature.ts): those fold line breaks into one line; this one ends at a line break,
 * and changing it changes rankings.
 */
export function firstSentenceEnd(text: string): number {
  let at = 0;
  while (at < text.length && isSpace(text.charCodeAt(at))) at++;
  for (; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === NEWLINE || code === RETURN) return at;
    if (code !== FULL_STOP && code !== QUESTION && code !== EXCLAMATION) continue;
    if (at + 1 === text.length || isSpace(text.charCodeAt(at + 1))) return at + 1;
  }
  return text.length;
}

/** Bit `t` set for each of the first 32 query terms that some tool has only in its description's tail. */
export function tailTermMask(index: InvertedIndex, terms: readonly QueryTerm[]): number {
  let mask = 0;
  const tailTerms = index.tailTerms;
  for (let t = 0; t < terms.length && t < 32; t++) if (tailTerms[terms[t]!.id] === 1) mask |= 1 << t;
  return mask;
}

/**
 * The weighted IDF of the query terms (the first 32, as `descriptionBits` notes them) that the
 * tool in `slot` has only in its description's tail. `descriptionBits` has bit `t` set when query
 * term `t` is in the tool's description (CandidateFacts; masked by tailTermMask); `skip` (the named server's words, which
 * a member has by membership) are never counted.
 */
export function tailOnlyIdf(
  index: InvertedIndex,
  slot: number,
  descriptionBits: number,
  terms: readonly QueryTerm[],
  skip: ReadonlySet<number> | undefined,
): number {
  const tail = index.tailOnly[slot]!;
  if (tail === 0 || descriptionBits === 0) return 0;
  const arena = index.slotTermArena;
  const start = index.slotTermStart[slot]! + (tail >>> 16);
  const end = start + (tail & 0xffff);
  let idf = 0;
  let bits = descriptionBits;
  while (bits !== 0) {
    const t = 31 - Math.clz32(bits & -bits);
    bits &= bits - 1;
    if (t >= terms.length) break;
    const id = terms[t]!.id;
    if (skip !== undefined && skip.has(id)) continue;
    let low = start;
    let high = end;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (arena[middle]! < id) low = middle + 1;
      else high = middle;
    }
    if (low < end && arena[low] === id) idf += terms[t]!.weightedIdf;
  }
  return idf;
}
