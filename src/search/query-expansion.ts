import { AnswerTable, type AnswerAsked } from "./answer-types.ts";
import type { InvertedIndex } from "./inverted-index.ts";
import { MemberTable } from "./member-synonyms.ts";
import type { RankingOptions } from "./ranking-options.ts";

/**
 * Weaker terms a request's own words bring in beside them (query-terms.ts adds them before its
 * cap, as terms of their own that score and count in coverage at their weight, and in no phrase
 * pair): the class words of its member words (member-synonyms.ts, `memberSynonyms`) and the
 * answer words of its question (answer-types.ts, `answerType`). Both weights are below a word's
 * own 1. One per ranker; the answer is valid until the next expand.
 */
export class QueryExpansion {
  /** Term ids to add and their query weights, index for index. */
  readonly ids: number[] = [];
  readonly weights: number[] = [];
  private readonly members = new MemberTable();
  private readonly answers = new AnswerTable();

  /**
   * Fills ids and weights for the query's `terms` (those the index has, as found so far), its
   * `text` terms (`textIds`: their ids, -1 for none, when known) and its question; the count.
   */
  expand(
    index: InvertedIndex,
    terms: readonly { readonly id: number; readonly weight: number }[],
    text: readonly string[],
    textIds: readonly number[] | undefined,
    answer: AnswerAsked | undefined,
    options: RankingOptions,
  ): number {
    const { ids, weights } = this;
    ids.length = 0;
    weights.length = 0;
    // A long request lists several needs, each a different tool's (as for coverageFadeTerms): a
    // member word is one of them, and its class word weighs that much less.
    const memberWeight = options.memberSynonyms * Math.min(1, options.coverageFadeTerms / Math.max(terms.length, 1));
    if (memberWeight > 0) {
      for (let t = 0; t < terms.length; t++) {
        const term = terms[t]!;
        if (term.weight <= 0) continue;
        const classes = this.members.classesOf(index, term.id);
        if (classes === undefined) continue;
        for (const id of classes) {
          ids.push(id);
          weights.push(memberWeight);
        }
      }
      // A member word no live tool has is no term of the query: looked up by its id, or by its
      // text when the dictionary has none (a map probe per such word; most words are the index's).
      for (let i = 0; i < text.length; i++) {
        const id = textIds !== undefined ? textIds[i]! : (index.termId(text[i]!) ?? -1);
        if (id >= 0 && index.documentFrequency[id]! > 0) continue;
        const classes = id >= 0 ? this.members.classesOf(index, id) : this.members.classesOfWord(index, text[i]!);
        if (classes === undefined) continue;
        for (const id of classes) {
          ids.push(id);
          weights.push(memberWeight);
        }
      }
    }
    if (answer !== undefined && options.answerType > 0) {
      for (const id of this.answers.idsOf(index, answer.kind)) {
        ids.push(id);
        weights.push(options.answerType);
      }
    }
    return ids.length;
  }
}
