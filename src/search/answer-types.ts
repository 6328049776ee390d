import type { InvertedIndex } from "./inverted-index.ts";
import { Tokenizer } from "./tokenizer.ts";

/**
 * What a question asks for, by its question word ("who") or the word after "how" ("how many"):
 * the words a tool that answers it uses for its answer. "who is in the workspace" wants users,
 * "how far is it" a distance, "how many documents" a count. General English question forms, not
 * read off any evaluation query. The words weigh answerType as query terms (query-expansion.ts);
 * the word after "how" is the question's form, not its topic, and weighs nothing ("how long does
 * it take" is not about long things).
 */
export const ANSWER_WORDS: ReadonlyMap<string, readonly string[]> = new Map([
  ["who", ["user", "person", "people", "member", "author", "owner"]],
  ["many", ["count", "number", "total"]],
  ["long", ["duration", "length", "time"]],
  ["far", ["distance"]],
  ["high", ["height", "elevation", "altitude"]],
  ["tall", ["height", "elevation", "altitude"]],
  ["big", ["size"]],
  ["old", ["age", "created"]],
  ["often", ["frequency", "interval"]],
]);

/** The one kind asked by a question word on its own (not after "how"). */
const ALONE = "who";
const HOW = "how";

/** The question a request asks: its kind (a key of ANSWER_WORDS) and the position in its text terms of the word that weighs nothing (-1: none). */
export interface AnswerAsked {
  kind: string;
  skipAt: number;
}

/**
 * A query's words followed, one by one, for the first question of a listed kind. `key` is the
 * word lowercased without its punctuation (QueryWords' mentionKey); `termAt` where its first term
 * lands among the text terms (-1: it has none); `first`: no word came before it. Callers ask only
 * about a three-letter word or the word after "how" (`afterHow`): the other words cost one
 * comparison. "who" asks only as the request's first word: after a noun it is a relative pronoun
 * ("a provider who is in group B" wants a provider, not a person lookup).
 */
/** Whether note() reacts to the word `key` when no "how" comes before it: worked out once per word (query-words.ts), so a parse reads no key's characters. */
export function leadsAnswer(key: string): boolean {
  return key === HOW || key === ALONE;
}

export class AnswerScan {
  asked: AnswerAsked | undefined;
  afterHow = false;

  note(key: string, termAt: number, first: boolean): void {
    if (this.afterHow) {
      this.afterHow = false;
      if (key !== ALONE && ANSWER_WORDS.has(key)) {
        this.asked = { kind: key, skipAt: termAt };
        return;
      }
    }
    if (this.asked !== undefined) return;
    if (key === HOW) this.afterHow = true;
    else if (key === ALONE && first) this.asked = { kind: key, skipAt: -1 };
  }
}

/**
 * The answer words of each kind as term ids of one index, worked out on first use and again
 * whenever the index's dictionary has grown; words no tool has are left out.
 */
export class AnswerTable {
  private byKind = new Map<string, readonly number[]>();
  private resolvedAt = -1;
  private tokenizer: Tokenizer | undefined;

  constructor(private readonly words: ReadonlyMap<string, readonly string[]> = ANSWER_WORDS) {}

  idsOf(index: InvertedIndex, kind: string): readonly number[] {
    if (this.resolvedAt !== index.terms.length) {
      this.byKind = new Map();
      this.resolvedAt = index.terms.length;
    }
    let ids = this.byKind.get(kind);
    if (ids === undefined) {
      this.tokenizer ??= new Tokenizer();
      const found: number[] = [];
      for (const word of this.words.get(kind) ?? []) {
        for (const term of this.tokenizer.tokenize(word)) {
          const id = index.termId(term);
          if (id !== undefined && !found.includes(id)) found.push(id);
        }
      }
      ids = found;
      this.byKind.set(kind, ids);
    }
    return ids;
  }
}
