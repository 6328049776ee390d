/**
 * Words a request marks as what the user already has: the noun right after a preposition and a
 * pointing word — "latitude and longitude *of this address*", "the owner *of my repo*", "issues
 * *for this project*". A tool that takes such a word as a parameter works from it; a tool that
 * only mentions it may produce it (reverse geocoding mentions addresses: it returns one).
 * Words only, in query order, a few at most; a pure function of the text.
 */
const PREPOSITIONS: ReadonlySet<string> = new Set(["of", "for", "from", "in", "on", "at", "about", "into", "to", "with"]);
const POINTERS: ReadonlySet<string> = new Set(["this", "that", "these", "those", "my", "our", "your", "his", "her", "their", "its"]);
const MAX_GIVEN = 4;
const WORD = /^\p{L}[\p{L}\p{N}]*$/u;

/**
 * A pointing word not inside a longer ASCII word: a cheap scan that rules out most requests
 * before the split (a false alarm only costs the split; no pointer the split finds is missed,
 * since a split word is delimited by what is not a letter or digit, and ASCII ones are excluded here).
 */
const MAY_POINT = /(?<![A-Za-z0-9])(?:this|that|these|those|my|our|your|his|her|their|its)(?![A-Za-z0-9])/i;

export function givenWords(text: string): string[] {
  if (!MAY_POINT.test(text)) return [];
  const words = text.toLowerCase().split(/[^\p{L}\p{N}'’]+/u).filter((word) => word.length > 0);
  const given: string[] = [];
  for (let i = 0; i + 2 < words.length && given.length < MAX_GIVEN; i++) {
    if (!PREPOSITIONS.has(words[i]!) || !POINTERS.has(words[i + 1]!)) continue;
    const noun = words[i + 2]!;
    if (WORD.test(noun) && !POINTERS.has(noun) && !given.includes(noun)) given.push(noun);
  }
  return given;
}
