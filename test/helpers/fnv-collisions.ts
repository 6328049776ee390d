/**
 * Words crafted against the search tables' fixed-seed FNV-1a (src/search: string-ids.ts,
 * word-table.ts), as a hostile MCP server or query author can write them offline.
 *
 * FNV-1a is iterated: two segments that take one state to the same next state can be swapped
 * in front of any suffix. One such pair per stage (found by a birthday search, kept here) gives
 * 2^stages words with a single hash (Joux multicollisions). Each list checks itself when made, so
 * a change to the hash cannot silently turn these tests into tests of random words.
 */

/** Per stage, two 7-letter segments with one FNV-1a state after them (full 32 bits). */
const FULL_PAIRS: readonly (readonly [string, string])[] = [
  ["fbmwlhz", "hmztmlv"], ["figbbvt", "ksqcdss"], ["hscddvg", "xdnbpjm"], ["yhbpyys", "xdbgrbi"],
  ["eohlcbg", "eyshypb"], ["hbdrqvi", "rihpoxp"], ["prvjsat", "hjyhgqe"], ["wfynamx", "bweposd"],
  ["intlzmw", "cndxclo"], ["cgjbztk", "moauahl"], ["hgdonpz", "aektchv"], ["lvjnzzq", "alejjql"],
  ["qazywwj", "zthwezo"], ["lzxfsqu", "chukaxo"], ["yszsllo", "cgjygoe"], ["frlcwtq", "levyktb"],
];

/**
 * Per stage, two 3-letter segments with one low 15 bits of FNV-1a state after them: the low bits
 * of FNV-1a depend only on the low bits of the state and the characters, so 15-bit collisions need
 * no search of the full state, and these words fit a query table's word length.
 */
const LOW_PAIRS: readonly (readonly [string, string])[] = [
  ["xov", "fvs"], ["kdi", "cev"], ["qcp", "kxk"], ["zha", "hdg"], ["box", "mqm"], ["uau", "olx"], ["xlb", "bgi"],
  ["hwn", "qlz"], ["jne", "qwy"], ["muc", "utt"], ["hib", "qjv"], ["tqy", "njv"], ["umm", "cic"], ["qkn", "izy"],
];

const FNV_OFFSET = 0x811c9dc5 | 0;

export function fnv1a(text: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash;
}

function combine(pairs: readonly (readonly [string, string])[], stages: number): string[] {
  if (stages > pairs.length) throw new Error(`at most ${pairs.length} stages, asked ${stages}`);
  let words = [""];
  for (const [left, right] of pairs.slice(0, stages)) words = words.flatMap((word) => [word + left, word + right]);
  return words;
}

function checked(words: string[], mask: number): string[] {
  const hashes = new Set(words.map((word) => fnv1a(word) & mask));
  if (hashes.size !== 1 || new Set(words).size !== words.length) throw new Error("the crafted words no longer collide");
  return words;
}

/** 2^stages distinct lowercase words of 7 × stages letters, all with one 32-bit FNV-1a hash. */
export function fullCollisions(stages: number): string[] {
  return checked(combine(FULL_PAIRS, stages), -1);
}

/** 2^stages distinct lowercase words of 3 × stages letters whose FNV-1a hashes share their low 15 bits. */
export function lowBitCollisions(stages: number): string[] {
  return checked(combine(LOW_PAIRS, stages), 0x7fff);
}
