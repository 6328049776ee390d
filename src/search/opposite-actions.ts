/**
 * Actions that undo each other (create / delete, open / close, mute / unmute…): a closed class of
 * general software verbs, written from the vocabulary of APIs, not from any evaluation query. Each
 * pair has two sides of stemmed words (as the tokenizer stems them); a word of a side stands for
 * the side. A tool whose name says one side answers a request that says only the other side the
 * wrong way round ("mute the host" → `unmute_host`), so the re-rank lowers it
 * (RankingOptions.oppositeAction).
 */
const OPPOSITE_ACTIONS: readonly (readonly [readonly string[], readonly string[]])[] = [
  [["creat", "add", "insert"], ["delet", "remov", "eras"]],
  [["read"], ["write"]],
  [["send"], ["receiv"]],
  [["enabl"], ["disabl"]],
  [["open"], ["close"]],
  [["start", "launch", "begin"], ["stop", "halt"]],
  [["lock"], ["unlock"]],
  [["upload"], ["download"]],
  [["import"], ["export"]],
  [["show"], ["hide"]],
  [["push"], ["pull"]],
  [["connect"], ["disconnect"]],
  [["subscrib"], ["unsubscrib"]],
  [["follow"], ["unfollow"]],
  [["instal"], ["uninstal"]],
  [["attach"], ["detach"]],
  [["encod"], ["decod"]],
  [["encrypt"], ["decrypt"]],
  [["compress"], ["decompress"]],
  [["login"], ["logout"]],
  [["mute"], ["unmut"]],
  [["pin"], ["unpin"]],
  [["paus"], ["resum"]],
  [["archiv"], ["unarch"]],
  [["block"], ["unblock"]],
  [["approv"], ["reject"]],
  [["increas"], ["decreas"]],
  [["mount"], ["unmount"]],
  [["freez"], ["unfreez"]],
];

/** Stemmed word → its side's code, pair × 2 + side + 1 (0 is "no action word"; 29 pairs: at most 58, six bits of InvertedIndex.nameKinds). */
export const ACTION_CODE: ReadonlyMap<string, number> = new Map(
  OPPOSITE_ACTIONS.flatMap(([one, other], pair) => [
    ...one.map((word): [string, number] => [word, pair * 2 + 1]),
    ...other.map((word): [string, number] => [word, pair * 2 + 2]),
  ]),
);

/** The side code of a stemmed word, or 0. */
export function actionCode(term: string): number {
  return ACTION_CODE.get(term) ?? 0;
}

/** The code of the side opposite `code`'s (same pair). */
export function oppositeCode(code: number): number {
  return code % 2 === 1 ? code + 1 : code - 1;
}

/**
 * The side codes a request contradicts, from its terms: a side whose opposite it says while it says
 * no word of the side itself. A request that says both sides contradicts neither. Empty for most.
 * The query path does not call it: prepareQuery gives contradictedBy the codes its words' flags
 * carry (query-terms.ts); tests hold that to this, from the terms' text.
 */
export function contradictedActions(queryTerms: readonly string[]): number[] {
  const said: number[] = [];
  for (const term of queryTerms) {
    const code = actionCode(term);
    if (code !== 0) said.push(code);
  }
  return contradictedBy(said, said.length, []);
}

/**
 * The sides contradicted by the side codes `said[0, count)` (repeats allowed), in the order they
 * are first said, into `into` (emptied first); returns it.
 */
export function contradictedBy(said: readonly number[], count: number, into: number[]): number[] {
  into.length = 0;
  for (let i = 0; i < count; i++) {
    const opposite = oppositeCode(said[i]!);
    if (into.includes(opposite) || saysSide(said, count, opposite)) continue;
    into.push(opposite);
  }
  return into;
}

function saysSide(said: readonly number[], count: number, code: number): boolean {
  for (let i = 0; i < count; i++) if (said[i] === code) return true;
  return false;
}
