import { Bm25fScorer } from "./bm25f-scorer.ts";
import { CandidateFacts, MAX_CANDIDATES } from "./candidate-facts.ts";
import { FIELD_BITS } from "./fields.ts";
import type { InvertedIndex } from "./inverted-index.ts";
import { QueryExpansion } from "./query-expansion.ts";
import { prepareQuery, QueryScratch, type PreparedQuery, type QueryTokens, type StandInSource } from "./query-terms.ts";
import type { RankingOptions } from "./ranking-options.ts";
import { QueryTermTable } from "./query-term-table.ts";
import { Reranker, type Candidate } from "./reranker.ts";
import type { MentionInput, ServerMention } from "./server-mention.ts";
import { ScoreSelector } from "./score-select.ts";
import { SynonymTable } from "./synonyms.ts";
import { TopK } from "./top-k.ts";

/**
 * The one ranking behind ToolSearch, prefetch and the CLI: BM25F over all fields, the `+required`
 * and CJK match rules, the caller's acceptance test, then a re-rank of the best candidates.
 */
export class KeywordRanker {
  private readonly scorer: Bm25fScorer;
  private readonly heap = new TopK();
  private readonly facts = new CandidateFacts();
  private readonly queryScratch = new QueryScratch();
  /** Candidate objects reused from query to query (rank's answer is valid until the next rank). */
  private readonly candidatePool: Candidate[] = [];
  private readonly selector = new ScoreSelector();
  private readonly impactsOf = (index: InvertedIndex, id: number) => this.scorer.impactsAgain(index, id);
  private readonly synonyms = new SynonymTable();
  private readonly standInsOf: StandInSource = (id) => this.synonyms.standInsOf(this.index, id);
  private readonly expansion = new QueryExpansion();
  /** The query's term ids → positions, set around each re-rank and cleared after it. */
  private readonly termTable = new QueryTermTable();
  private readonly reranker = new Reranker();
  /** What the gather is asked for, set per query (one object, not one per query). */
  private readonly wants = { given: false, value: false, name: false };
  /** Slots of a named server's tools, set around one first-stage run and cleared after it. */
  private memberMask = new Uint8Array(0);

  constructor(
    private readonly index: InvertedIndex,
    private readonly options: RankingOptions,
    impactBudgetBytes?: number,
  ) {
    this.scorer = new Bm25fScorer(options, impactBudgetBytes);
  }

  /**
   * Up to `limit` slots, best first; `accept` (absent: every slot) is asked only about slots that
   * could make the cut. The answer's objects are reused by the next call: copy what you keep.
   */
  rank(tokens: QueryTokens, limit: number, accept: ((slot: number) => boolean) | undefined, input?: MentionInput): Candidate[] {
    const query = prepareQuery(this.index, tokens, this.options, this.queryScratch, this.standInsOf, this.expansion);
    if (query.impossible || (query.terms.length === 0 && input === undefined)) return [];
    const track = query.requiredAll !== 0 || query.cjkMinimum > 0;
    const mention = input === undefined || this.options.serverMembership === 0 ? undefined : this.resolve(input, query);
    if (mention === undefined) {
      this.scorer.run(this.index, query.terms, track);
    } else {
      this.runWithMembership(query, track, mention);
    }
    // The request's own words found fewer tools than the re-rank holds: synonyms bring in the rest —
    // unless it names a server ("github issue" is about its tools, not a Jira ticket), or has +required
    // words or CJK text (`track`: a tool brought in has none of the words those rules count).
    if (this.options.synonymFill > 0 && mention === undefined && !track && this.scorer.touchedCount < this.options.candidates && query.standIns.length > 0) {
      this.scorer.fill(this.index, query.standIns, query.terms, this.options.synonymFill);
    }
    return this.rerank(this.collect(query, limit, accept, track), query, limit, mention);
  }

  /** Works out impacts ahead of use, up to about `maxEntries` of them (ImpactMaker.precompute); true once all are. */
  precomputeImpacts(maxEntries: number): boolean {
    return this.scorer.precomputeImpacts(this.index, maxEntries);
  }

  private runWithMembership(query: PreparedQuery, track: boolean, mention: ServerMention): void {
    this.markMembers(mention.memberSlots, 1);
    try {
      this.scorer.run(this.index, query.terms, track, { termIds: mention.termIds, mask: this.memberMask });
    } finally {
      this.markMembers(mention.memberSlots, 0);
    }
    // Membership weighs like a term as rare as the server found once in a field of weight `serverMembership`.
    const pseudo = this.options.serverMembership;
    const k1 = this.options.k1;
    this.scorer.addToSlots(mention.memberSlots, mention.membershipIdf * (k1 + 1) * (pseudo / (k1 + pseudo)));
  }

  private collect(query: PreparedQuery, limit: number, accept: ((slot: number) => boolean) | undefined, track: boolean): Candidate[] {
    const { scorer, heap } = this;
    const capacity = Math.min(MAX_CANDIDATES, Math.max(limit, this.options.candidates));
    // Nothing to ask of each contender: select by score alone, without a heap over all of them.
    if (accept === undefined && !track) {
      const selected = this.selector.select(scorer.touched, scorer.touchedCount, scorer.scores, capacity, heap, this.candidatePool);
      if (selected !== undefined) return selected;
    }
    heap.reset(capacity);
    const { scores, requiredMask, cjkMatches, otherMatches, touched } = scorer;
    let threshold = -Infinity;
    for (let i = 0; i < scorer.touchedCount; i++) {
      const slot = touched[i]!;
      const score = scores[slot]!;
      // A cheap pre-check; wouldAccept settles ties by slot.
      if (score < threshold) continue;
      if (track) {
        if ((requiredMask[slot]! & query.requiredAll) !== query.requiredAll) continue;
        if (query.cjkMinimum > 0 && otherMatches[slot] === 0 && cjkMatches[slot]! < query.cjkMinimum) continue;
      }
      if (!heap.wouldAccept(slot, score) || (accept !== undefined && !accept(slot))) continue;
      heap.push(slot, score);
      threshold = heap.threshold();
    }
    return heap.drainInto(this.candidatePool);
  }

  private resolve(input: MentionInput, query: PreparedQuery): ServerMention | undefined {
    const termIds = new Set<number>();
    const terms = query.terms;
    let idf = 0;
    for (const term of input.terms) {
      const id = this.index.termId(term);
      if (id === undefined || termIds.has(id)) continue;
      // A loop, not find(): no closure per term.
      let at = 0;
      while (at < terms.length && terms[at]!.id !== id) at++;
      if (at === terms.length) continue;
      termIds.add(id);
      idf += terms[at]!.idf;
    }
    if (termIds.size > 0 && !this.namesServer(input, termIds)) return undefined;
    // The name is membership, not a phrase: "GitLab" (git + lab) or "request GitLab" found adjacent
    // in a description would reward each repetition of the name again.
    const { pairKeys, pairWeights } = query;
    const positions = terms.length;
    let kept = 0;
    for (let p = 0; p < pairKeys.length; p++) {
      const key = pairKeys[p]!;
      if (termIds.has(terms[Math.floor(key / positions)]!.id) || termIds.has(terms[key % positions]!.id)) continue;
      pairKeys[kept] = key;
      pairWeights[kept] = pairWeights[p]!;
      kept++;
    }
    pairKeys.length = kept;
    pairWeights.length = kept;
    const { memberSlots, isMember, membershipIdf, wholeNameTerms } = input;
    return { terms: input.terms, memberSlots, isMember, membershipIdf, wholeNameTerms, termIds, idf };
  }

  /**
   * Whether the words name the server rather than say what a tool does: the rarest of them must
   * be mostly found in the server's own tools ("GitLab"), not across the pool ("weather", "time").
   * The server's name as one word counts among them: "GitHub" is git + hub, words gitlab's and
   * hubspot's tools use too, and github, the server's own spelling, is rarer than either. Only a
   * word some tool of the server holds is weighed (a word none holds cannot tell its tools from
   * others): one tool elsewhere saying "GitHub" made git the rarest, held by no tool of a server
   * whose tools say github, and one saying "github" did the same to a server configured "GitHub".
   */
  private namesServer(input: MentionInput, termIds: ReadonlySet<number>): boolean {
    const frequency = this.index.documentFrequency;
    let rarest = -1;
    for (const id of termIds) if (rarest < 0 || frequency[id]! < frequency[rarest]!) rarest = id;
    if (frequency[rarest] === 0) return true;
    const words = [...termIds];
    for (const term of input.wholeNameTerms) {
      const id = this.index.termId(term);
      if (id !== undefined && frequency[id]! > 0) words.push(id);
    }
    // Rarest first, stable (as sort() with a comparator orders them): a handful of words by
    // insertion, where the native sort's first call with a comparator cost a query µs.
    for (let i = 1; i < words.length; i++) {
      const id = words[i]!;
      let at = i;
      while (at > 0 && frequency[words[at - 1]!]! > frequency[id]!) {
        words[at] = words[at - 1]!;
        at--;
      }
      words[at] = id;
    }
    // The members marked by slot for the walks: a byte read per posting, not a call of isMember.
    this.markMembers(input.memberSlots, 1);
    try {
      for (const id of words) {
        // Fewer member tools than the share needs (of this word, and of every more common one): no walk.
        if (input.memberSlots.length < this.options.mentionShare * frequency[id]!) return false;
        // Held by some tool of the server: then it decides, by whether the share of its tools are the server's.
        const members = this.membersHolding(id);
        if (members > 0) return members >= this.options.mentionShare * frequency[id]!;
      }
      return false;
    } finally {
      this.markMembers(input.memberSlots, 0);
    }
  }

  /** How many live tools marked in memberMask hold `term`: its postings read once (a tool's are adjacent). */
  private membersHolding(term: number): number {
    const postings = this.index.postings[term]!;
    const length = this.index.postingLengths[term]!;
    const { alive } = this.index;
    const mask = this.memberMask;
    let members = 0;
    let previous = -1;
    for (let i = 0; i < length; i++) {
      const slot = postings[i]! >>> FIELD_BITS;
      if (slot === previous) continue;
      previous = slot;
      if (alive[slot] === 1 && mask[slot] === 1) members++;
    }
    return members;
  }

  /** Sets (1) or clears (0) the member mask at `slots`, grown to the index's slots first. */
  private markMembers(slots: readonly number[], value: number): void {
    if (this.memberMask.length < this.index.slotCount) {
      this.memberMask = new Uint8Array(Math.max(this.index.slotCount, this.memberMask.length * 2));
    }
    for (const slot of slots) this.memberMask[slot] = value;
  }

  private rerank(candidates: Candidate[], query: PreparedQuery, limit: number, mention: ServerMention | undefined): Candidate[] {
    this.termTable.set(query.terms, query.pairKeys, query.pairWeights);
    try {
      const options = this.options;
      const wants = this.wants;
      wants.given = options.givenParameter > 0 && query.givenTerms.length > 0;
      wants.value = options.valueParameter > 0 && query.valueParameterTerms.length > 0;
      wants.name = options.nameTieBreak > 0 || (options.memberName > 0 && mention !== undefined);
      this.facts.gather(candidates, query, this.index, this.impactsOf, mention, wants);
      return this.reranker.rerank(candidates, query, this.index, options, this.termTable, this.facts, limit, mention);
    } finally {
      this.termTable.clear();
    }
  }
}
